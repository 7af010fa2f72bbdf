import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { expect, onTestFinished, test } from 'vitest';
import { createLocalStorage, signLocalFile, verifyLocalSignature } from './local-storage.js';

const secret = 'test-secret-that-is-long-enough-0123456789';

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'shop-local-storage-'));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name))).sort();
}

test('files are private: folders 0700, files 0600', async () => {
  const root = path.join(await tempDir(), 'files');
  const storage = createLocalStorage({ dir: root, secret, defaultTtlSeconds: 60 });
  await storage.put('uploads/u1/a.jpg', Buffer.from('x'), { contentType: 'image/jpeg' });
  expect((await stat(root)).mode & 0o777).toBe(0o700);
  expect((await stat(path.join(root, 'uploads', 'u1'))).mode & 0o777).toBe(0o700);
  expect((await stat(path.join(root, 'uploads', 'u1', 'a.jpg'))).mode & 0o777).toBe(0o600);
  expect(await filesUnder(root)).toEqual(['uploads/u1/a.jpg', 'uploads/u1/a.jpg#meta.json']);
});

test('a failed write leaves neither a partial file nor temp files behind', async () => {
  const root = await tempDir();
  const storage = createLocalStorage({ dir: root, secret, defaultTtlSeconds: 60 });
  const broken = new Readable({
    read() {
      this.push(Buffer.alloc(64 * 1024, 1));
      this.destroy(new Error('disk quota'));
    },
  });
  await expect(storage.put('uploads/u1/a.jpg', broken, { contentType: 'image/jpeg' })).rejects.toThrow('disk quota');
  expect(await filesUnder(root)).toEqual([]);
});

test('a streamed body of several write batches arrives whole; folders removed meanwhile are made again', async () => {
  const root = await tempDir();
  const storage = createLocalStorage({ dir: root, secret, defaultTtlSeconds: 60 });
  // 2.5 MB in 64 KB chunks, as a phone photo arrives: more than one batch, the last one partial.
  const bytes = Buffer.alloc(2.5 * 1024 * 1024);
  for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 31) & 255;
  const chunks = Array.from({ length: Math.ceil(bytes.length / 65536) }, (_, i) => bytes.subarray(i * 65536, (i + 1) * 65536));
  await storage.put('uploads/u1/incoming/a', Readable.from(chunks), { contentType: 'application/octet-stream' });
  expect((await storage.getBuffer('uploads/u1/incoming/a')).equals(bytes)).toBe(true);
  // The temporary folder and the key's folder gone (a sweep, a deleted order): the next writes make them again.
  await rm(path.join(root, '.tmp'), { recursive: true });
  await rm(path.join(root, 'uploads'), { recursive: true });
  await storage.put('uploads/u1/incoming/b', Buffer.from('again'), { contentType: 'application/octet-stream' });
  await storage.put('uploads/u2/c.jpg', Buffer.from('typed'), { contentType: 'image/jpeg' });
  expect(await storage.head('uploads/u2/c.jpg')).toEqual({ contentType: 'image/jpeg', size: 5 });
  expect(await filesUnder(root)).toEqual(['uploads/u1/incoming/b', 'uploads/u2/c.jpg', 'uploads/u2/c.jpg#meta.json']);
  expect((await stat(path.join(root, '.tmp'))).mode & 0o777).toBe(0o700);
});

test('delete and deletePrefix remove the folders they leave empty', async () => {
  const root = await tempDir();
  const storage = createLocalStorage({ dir: root, secret, defaultTtlSeconds: 60 });
  await storage.put('orders/o1/a/b.jpg', Buffer.from('x'), { contentType: 'image/jpeg' });
  await storage.put('orders/o1/c.jpg', Buffer.from('x'), { contentType: 'image/jpeg' });
  await storage.put('orders/o2/d.jpg', Buffer.from('x'), { contentType: 'image/jpeg' });
  await storage.delete('orders/o2/d.jpg');
  expect(await readdir(path.join(root, 'orders'))).toEqual(['o1']);
  expect(await storage.deletePrefix('orders/o1/')).toBe(2);
  expect((await readdir(root)).filter((name) => !name.startsWith('.'))).toEqual([]);
});

test('a file without its meta file is served as application/octet-stream', async () => {
  const root = await tempDir();
  const storage = createLocalStorage({ dir: root, secret, defaultTtlSeconds: 60 });
  await writeFile(path.join(root, 'copied.bin'), 'by hand');
  expect(await storage.head('copied.bin')).toEqual({ contentType: 'application/octet-stream', size: 7 });
});

test('a file of the fallback type is one file, no meta file; written over a typed one, it loses that type', async () => {
  const root = await tempDir();
  const storage = createLocalStorage({ dir: root, secret, defaultTtlSeconds: 60 });
  await storage.put('uploads/u1/incoming/a', Buffer.from('photo as sent'), { contentType: 'application/octet-stream' });
  expect(await filesUnder(root)).toEqual(['uploads/u1/incoming/a']);
  expect(await storage.head('uploads/u1/incoming/a')).toEqual({ contentType: 'application/octet-stream', size: 13 });
  await storage.put('uploads/u1/b.jpg', Buffer.from('jpeg'), { contentType: 'image/jpeg' });
  await storage.put('uploads/u1/b.jpg', Buffer.from('bytes'), { contentType: 'application/octet-stream' });
  expect(await storage.head('uploads/u1/b.jpg')).toEqual({ contentType: 'application/octet-stream', size: 5 });
  expect(await filesUnder(root)).toEqual(['uploads/u1/b.jpg', 'uploads/u1/incoming/a']);
});

test('keys cannot reach outside the folder', async () => {
  const parent = await tempDir();
  const root = path.join(parent, 'files');
  await writeFile(path.join(parent, 'outside.txt'), 'secret');
  const storage = createLocalStorage({ dir: root, secret, defaultTtlSeconds: 60 });
  for (const key of ['../outside.txt', 'a/../../outside.txt', '..', '/etc/passwd']) {
    await expect(storage.getBuffer(key), key).rejects.toThrow(TypeError);
    await expect(storage.put(key, Buffer.from('x'), { contentType: 'text/plain' }), key).rejects.toThrow(TypeError);
    await expect(storage.delete(key), key).rejects.toThrow(TypeError);
  }
  expect(await readFile(path.join(parent, 'outside.txt'), 'utf8')).toBe('secret');
  expect(await readdir(parent)).toEqual(['outside.txt']);
});

test('ping creates the folder and then succeeds', async () => {
  const root = path.join(await tempDir(), 'not', 'yet');
  await createLocalStorage({ dir: root, secret, defaultTtlSeconds: 60 }).ping();
  expect((await stat(root)).isDirectory()).toBe(true);
});

test('ping fails when the folder cannot be created', async () => {
  const parent = await tempDir();
  await writeFile(path.join(parent, 'a-file'), '');
  await expect(createLocalStorage({ dir: path.join(parent, 'a-file', 'files'), secret, defaultTtlSeconds: 60 }).ping()).rejects.toThrow();
});

test('signedUrl signs key, expiry and name, relative unless a base URL is given', async () => {
  const root = await tempDir();
  const before = Math.floor(Date.now() / 1000);
  const relative = new URL(await createLocalStorage({ dir: root, secret, defaultTtlSeconds: 600 }).signedUrl('a/b.jpg'), 'http://x');
  expect(relative.pathname).toBe('/files/a/b.jpg');
  const exp = Number(relative.searchParams.get('exp'));
  expect(exp - before).toBeGreaterThanOrEqual(600);
  expect(exp - before).toBeLessThanOrEqual(601);
  expect(relative.searchParams.get('sig')).toBe(signLocalFile({ secret, key: 'a/b.jpg', exp, name: undefined }));
  expect(relative.searchParams.has('name')).toBe(false);

  const storage = createLocalStorage({ dir: root, secret, defaultTtlSeconds: 600, baseUrl: 'https://shop.example/' });
  const absolute = await storage.signedUrl('a/b.jpg', { downloadName: 'Foto & Co.jpg', expiresInSeconds: 30 });
  expect(absolute).toMatch(/^https:\/\/shop\.example\/files\/a\/b\.jpg\?exp=\d+&sig=[0-9a-f]{64}&name=Foto%20%26%20Co\.jpg$/);
  expect(new URL(absolute).searchParams.get('name')).toBe('Foto & Co.jpg');
});

test('verifyLocalSignature: valid, expired, and every altered part invalid', () => {
  const now = new Date('2026-05-01T12:00:00Z');
  const exp = now.getTime() / 1000 + 60;
  const sig = signLocalFile({ secret, key: 'a/b.jpg', exp, name: 'x.jpg' });
  const good = { secret, key: 'a/b.jpg', exp: String(exp), name: 'x.jpg', sig, now };
  expect(verifyLocalSignature(good)).toBe('valid');
  expect(verifyLocalSignature({ ...good, now: new Date((exp + 1) * 1000) })).toBe('linkExpired');
  expect(verifyLocalSignature({ ...good, now: new Date(exp * 1000) })).toBe('linkExpired');
  expect(verifyLocalSignature({ ...good, key: 'a/c.jpg' })).toBe('linkInvalid');
  expect(verifyLocalSignature({ ...good, exp: String(exp + 3600) })).toBe('linkInvalid');
  expect(verifyLocalSignature({ ...good, exp: `0${exp}` })).toBe('linkInvalid');
  expect(verifyLocalSignature({ ...good, name: 'y.jpg' })).toBe('linkInvalid');
  expect(verifyLocalSignature({ ...good, name: undefined })).toBe('linkInvalid');
  expect(verifyLocalSignature({ ...good, secret: `${secret}!` })).toBe('linkInvalid');
  expect(verifyLocalSignature({ ...good, sig: sig.replace(/^./, (c) => (c === '0' ? '1' : '0')) })).toBe('linkInvalid');
  expect(verifyLocalSignature({ ...good, sig: sig.slice(0, 63) })).toBe('linkInvalid');
  expect(verifyLocalSignature({ ...good, sig: sig.toUpperCase() })).toBe('linkInvalid');
  expect(verifyLocalSignature({ ...good, sig: undefined })).toBe('linkInvalid');
  expect(verifyLocalSignature({ ...good, exp: undefined })).toBe('linkInvalid');
  expect(verifyLocalSignature({ ...good, exp: '1e12' })).toBe('linkInvalid');
});
