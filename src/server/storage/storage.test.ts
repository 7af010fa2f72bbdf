// One contract, two drivers: the local folder and S3 (a real s3rver on localhost).
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, onTestFinished, test } from 'vitest';
import { createStorage } from './create-storage.js';
import { localFilesRoutes } from './local-files-routes.js';
import { createS3Storage } from './s3-storage.js';
import { assertValidKey, contentDisposition, StorageNotFoundError, type Storage } from './storage.js';
import { startTestS3Server, type TestS3Server } from './test-s3-server.js';

const secret = 'test-secret-that-is-long-enough-0123456789';

let s3: TestS3Server;
beforeAll(async () => {
  s3 = await startTestS3Server();
});
afterAll(async () => {
  await s3?.stop();
});

interface Download {
  status: number;
  body: Buffer;
  contentType: string | undefined;
  contentDisposition: string | undefined;
}

interface Harness {
  storage: Storage;
  download(url: string): Promise<Download>;
}

async function localHarness(): Promise<Harness> {
  const tmp = await mkdtemp(path.join(tmpdir(), 'shop-storage-'));
  onTestFinished(() => rm(tmp, { recursive: true, force: true }));
  const storage = createStorage({ driver: 'local', dir: path.join(tmp, 'files') }, { secret, defaultTtlSeconds: 600 });
  if (storage.driver !== 'local') throw new Error('expected the local driver');
  const app = Fastify();
  await app.register(localFilesRoutes, { storage, secret });
  onTestFinished(() => app.close());
  return {
    storage,
    async download(url) {
      const res = await app.inject({ method: 'GET', url });
      const header = (name: string) => (res.headers[name] === undefined ? undefined : String(res.headers[name]));
      return { status: res.statusCode, body: res.rawPayload, contentType: header('content-type'), contentDisposition: header('content-disposition') };
    },
  };
}

async function s3Harness(): Promise<Harness> {
  const bucket = `test-${randomUUID()}`;
  await s3.createBucket(bucket);
  const storage = createStorage(
    {
      driver: 's3',
      bucket,
      region: s3.region,
      endpoint: s3.endpoint,
      accessKeyId: s3.accessKeyId,
      secretAccessKey: s3.secretAccessKey,
      forcePathStyle: true,
    },
    { secret, defaultTtlSeconds: 600 },
  );
  return {
    storage,
    async download(url) {
      const res = await fetch(url);
      return {
        status: res.status,
        body: Buffer.from(await res.arrayBuffer()),
        contentType: res.headers.get('content-type') ?? undefined,
        contentDisposition: res.headers.get('content-disposition') ?? undefined,
      };
    },
  };
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

function failingStream(): Readable {
  let sent = false;
  return new Readable({
    read() {
      if (!sent) {
        sent = true;
        this.push(Buffer.from('half a photo'));
      } else {
        this.destroy(new Error('client went away'));
      }
    },
  });
}

const INVALID_KEYS = ['', '../x', 'a/../b', '/abs', 'a//b', 'a/', '.hidden', 'a/./b', 'Photo.jpg', 'a b.jpg', 'a\\b', 'foto-ä.jpg', 'a?b', 'x'.repeat(513)];

describe.each([
  { driver: 'local', setup: localHarness },
  { driver: 's3', setup: s3Harness },
])('$driver storage', ({ driver, setup }) => {
  test('reports its driver and answers ping', async () => {
    const { storage } = await setup();
    expect(storage.driver).toBe(driver);
    await expect(storage.ping()).resolves.toBeUndefined();
  });

  test('a Buffer body round-trips with its content type', async () => {
    const { storage } = await setup();
    await storage.put('uploads/u1/a.jpg', Buffer.from('jpeg bytes'), { contentType: 'image/jpeg' });
    expect(await storage.exists('uploads/u1/a.jpg')).toBe(true);
    expect((await storage.getBuffer('uploads/u1/a.jpg')).toString()).toBe('jpeg bytes');
    expect((await readAll(await storage.getStream('uploads/u1/a.jpg'))).toString()).toBe('jpeg bytes');
    expect(await storage.head('uploads/u1/a.jpg')).toEqual({ contentType: 'image/jpeg', size: 10 });
  });

  test('a Readable body round-trips', async () => {
    const { storage } = await setup();
    await storage.put('uploads/u1/b.png', Readable.from([Buffer.from('png '), Buffer.from('in '), Buffer.from('chunks')]), {
      contentType: 'image/png',
    });
    expect((await storage.getBuffer('uploads/u1/b.png')).toString()).toBe('png in chunks');
    expect((await storage.head('uploads/u1/b.png')).contentType).toBe('image/png');
  });

  test('a 5 MB body round-trips byte-exact', async () => {
    const { storage } = await setup();
    const big = randomBytes(5 * 1024 * 1024);
    await storage.put('renders/r1/big.bin', Readable.from([big.subarray(0, 1_000_000), big.subarray(1_000_000)]), {
      contentType: 'application/octet-stream',
    });
    expect((await storage.getBuffer('renders/r1/big.bin')).equals(big)).toBe(true);
    expect((await readAll(await storage.getStream('renders/r1/big.bin'))).equals(big)).toBe(true);
  });

  test('put replaces an existing object and its content type', async () => {
    const { storage } = await setup();
    await storage.put('a/x.jpg', Buffer.from('old'), { contentType: 'image/jpeg' });
    await storage.put('a/x.jpg', Buffer.from('newer'), { contentType: 'image/webp' });
    expect((await storage.getBuffer('a/x.jpg')).toString()).toBe('newer');
    expect(await storage.head('a/x.jpg')).toEqual({ contentType: 'image/webp', size: 5 });
  });

  test('a body stream that fails leaves no object and keeps the previous one', async () => {
    const { storage } = await setup();
    await expect(storage.put('a/new.jpg', failingStream(), { contentType: 'image/jpeg' })).rejects.toThrow('client went away');
    expect(await storage.exists('a/new.jpg')).toBe(false);
    await storage.put('a/old.jpg', Buffer.from('intact'), { contentType: 'image/jpeg' });
    await expect(storage.put('a/old.jpg', failingStream(), { contentType: 'image/jpeg' })).rejects.toThrow('client went away');
    expect((await storage.getBuffer('a/old.jpg')).toString()).toBe('intact');
    expect(await storage.listKeys('a/')).toEqual(['a/old.jpg']);
  });

  test('a missing key is StorageNotFoundError on read, false on exists, and fine to delete', async () => {
    const { storage } = await setup();
    await expect(storage.getBuffer('nope/x.jpg')).rejects.toBeInstanceOf(StorageNotFoundError);
    await expect(storage.getStream('nope/x.jpg')).rejects.toMatchObject({ code: 'storageNotFound', key: 'nope/x.jpg' });
    await expect(storage.head('nope/x.jpg')).rejects.toBeInstanceOf(StorageNotFoundError);
    expect(await storage.exists('nope/x.jpg')).toBe(false);
    await expect(storage.delete('nope/x.jpg')).resolves.toBeUndefined();
  });

  test('a folder of keys is not itself an object', async () => {
    const { storage } = await setup();
    await storage.put('orders/o1/photo.jpg', Buffer.from('x'), { contentType: 'image/jpeg' });
    expect(await storage.exists('orders/o1')).toBe(false);
    await expect(storage.getBuffer('orders/o1')).rejects.toBeInstanceOf(StorageNotFoundError);
    await storage.delete('orders/o1');
    expect(await storage.exists('orders/o1/photo.jpg')).toBe(true);
  });

  test('delete removes the object and is idempotent', async () => {
    const { storage } = await setup();
    await storage.put('a/x.jpg', Buffer.from('x'), { contentType: 'image/jpeg' });
    await storage.put('a/y.jpg', Buffer.from('y'), { contentType: 'image/jpeg' });
    await storage.delete('a/x.jpg');
    await storage.delete('a/x.jpg');
    expect(await storage.exists('a/x.jpg')).toBe(false);
    expect(await storage.listKeys('')).toEqual(['a/y.jpg']);
  });

  test('listKeys is sorted and uses plain string prefixes', async () => {
    const { storage } = await setup();
    for (const key of ['u/b2/z.jpg', 'u/b1/y.jpg', 'u/b1/x.jpg', 'u/b10/a.jpg', 'v/c.jpg', 'u/b1.txt']) {
      await storage.put(key, Buffer.from(key), { contentType: 'text/plain' });
    }
    expect(await storage.listKeys('u/b1/')).toEqual(['u/b1/x.jpg', 'u/b1/y.jpg']);
    expect(await storage.listKeys('u/b1')).toEqual(['u/b1.txt', 'u/b1/x.jpg', 'u/b1/y.jpg', 'u/b10/a.jpg']);
    expect(await storage.listKeys('')).toEqual(['u/b1.txt', 'u/b1/x.jpg', 'u/b1/y.jpg', 'u/b10/a.jpg', 'u/b2/z.jpg', 'v/c.jpg']);
    expect(await storage.listKeys('w/')).toEqual([]);
  });

  test('deletePrefix deletes exactly the keys under the prefix and counts them', async () => {
    const { storage } = await setup();
    for (const key of ['o/1/a.jpg', 'o/1/b/c.jpg', 'o/10/d.jpg', 'o/2/e.jpg']) {
      await storage.put(key, Buffer.from(key), { contentType: 'image/jpeg' });
    }
    expect(await storage.deletePrefix('o/1/')).toBe(2);
    expect(await storage.listKeys('')).toEqual(['o/10/d.jpg', 'o/2/e.jpg']);
    expect(await storage.deletePrefix('o/1/')).toBe(0);
    await expect(storage.deletePrefix('')).rejects.toThrow(TypeError);
  });

  test('invalid keys and prefixes are refused by every method', async () => {
    const { storage } = await setup();
    for (const key of INVALID_KEYS) {
      await expect(storage.put(key, Buffer.from('x'), { contentType: 'text/plain' }), key).rejects.toThrow(TypeError);
      await expect(storage.getBuffer(key), key).rejects.toThrow(TypeError);
      await expect(storage.getStream(key), key).rejects.toThrow(TypeError);
      await expect(storage.head(key), key).rejects.toThrow(TypeError);
      await expect(storage.exists(key), key).rejects.toThrow(TypeError);
      await expect(storage.delete(key), key).rejects.toThrow(TypeError);
      await expect(storage.signedUrl(key), key).rejects.toThrow(TypeError);
    }
    for (const prefix of ['../', '/a', 'a//', 'A/', '.x/']) {
      await expect(storage.listKeys(prefix), prefix).rejects.toThrow(TypeError);
      await expect(storage.deletePrefix(prefix), prefix).rejects.toThrow(TypeError);
    }
  });

  test('a signed URL downloads the bytes inline with the content type', async () => {
    const { storage, download } = await setup();
    const bytes = randomBytes(64 * 1024);
    await storage.put('renders/r1/photo.webp', bytes, { contentType: 'image/webp' });
    const res = await download(await storage.signedUrl('renders/r1/photo.webp'));
    expect(res.status).toBe(200);
    expect(res.body.equals(bytes)).toBe(true);
    expect(res.contentType).toBe('image/webp');
    // S3 sends no Content-Disposition for inline objects; browsers then show the image.
    expect(res.contentDisposition ?? 'inline').toBe('inline');
  });

  test('a signed URL with a download name is an attachment with a UTF-8 file name', async () => {
    const { storage, download } = await setup();
    await storage.put('renders/r1/photo.jpg', Buffer.from('jpeg'), { contentType: 'image/jpeg' });
    const url = await storage.signedUrl('renders/r1/photo.jpg', { downloadName: 'Bewerbungsfoto Müller.jpg', expiresInSeconds: 60 });
    const res = await download(url);
    expect(res.status).toBe(200);
    expect(res.body.toString()).toBe('jpeg');
    expect(res.contentType).toBe('image/jpeg');
    expect(res.contentDisposition).toBe(`attachment; filename="Bewerbungsfoto M_ller.jpg"; filename*=UTF-8''Bewerbungsfoto%20M%C3%BCller.jpg`);
  });

  test('a signed URL for a deleted object no longer downloads', async () => {
    const { storage, download } = await setup();
    await storage.put('a/gone.jpg', Buffer.from('x'), { contentType: 'image/jpeg' });
    const url = await storage.signedUrl('a/gone.jpg');
    await storage.delete('a/gone.jpg');
    expect((await download(url)).status).toBe(404);
  });
});

function s3Options(server: TestS3Server, bucket: string) {
  const { endpoint, region, accessKeyId, secretAccessKey } = server;
  return { endpoint, region, accessKeyId, secretAccessKey, bucket, forcePathStyle: true, defaultTtlSeconds: 60 };
}

test('local: temporary files a crash left behind are swept once they are old; a write under way is not touched', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'storage-sweep-'));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  const storage = createStorage({ driver: 'local', dir }, { secret, defaultTtlSeconds: 60 });
  await storage.put('uploads/u1/kept.jpg', Buffer.from('kept'), { contentType: 'image/jpeg' });
  // What a process killed during put() leaves: a data file (a customer's photo bytes) and its meta file.
  const tmp = path.join(dir, '.tmp');
  await writeFile(path.join(tmp, 'dead.data'), 'photo bytes');
  await writeFile(path.join(tmp, 'dead.meta'), '{}');
  await writeFile(path.join(tmp, 'live.data'), 'being written');
  const hourAgo = new Date(Date.now() - 3600_000);
  await utimes(path.join(tmp, 'dead.data'), hourAgo, hourAgo);
  await utimes(path.join(tmp, 'dead.meta'), hourAgo, hourAgo);
  expect(await storage.sweepTemporary(15 * 60_000)).toBe(2);
  expect((await readdir(tmp)).sort()).toEqual(['live.data']);
  expect((await storage.getBuffer('uploads/u1/kept.jpg')).toString()).toBe('kept');
  expect(await storage.sweepTemporary(0)).toBe(1);
  expect(await readdir(tmp)).toEqual([]);
});

test('S3 ping fails when the bucket does not exist', async () => {
  const storage = createS3Storage(s3Options(s3, 'no-such-bucket'));
  await expect(storage.ping()).rejects.toThrow();
});

test('S3 ping fails when the server is down', async () => {
  const server = await startTestS3Server();
  onTestFinished(() => server.stop());
  await server.createBucket('photos');
  const storage = createS3Storage(s3Options(server, 'photos'));
  await storage.ping();
  await server.stop();
  await expect(storage.ping()).rejects.toThrow();
});

test('S3 signed URLs respect the expiry limit', async () => {
  const storage = createS3Storage(s3Options(s3, 'any'));
  await expect(storage.signedUrl('a/b.jpg', { expiresInSeconds: 8 * 24 * 3600 })).rejects.toThrow(RangeError);
  const url = new URL(await storage.signedUrl('a/b.jpg', { expiresInSeconds: 120 }));
  expect(url.searchParams.get('X-Amz-Expires')).toBe('120');
});

test('assertValidKey accepts lowercase slash-separated keys up to 512 characters', () => {
  for (const key of ['uploads/0b6f3c1e-8c1d-4a7e-9f00-1c2d3e4f5a6b/k3j2h1.jpg', 'a', 'a.b-c_d/e', 'x'.repeat(512)]) {
    expect(() => assertValidKey(key), key).not.toThrow();
  }
  for (const key of INVALID_KEYS) expect(() => assertValidKey(key), key).toThrow(TypeError);
});

test('contentDisposition is inline without a name and RFC 6266 with one', () => {
  expect(contentDisposition(undefined)).toBe('inline');
  expect(contentDisposition('')).toBe('inline');
  expect(contentDisposition('photo.jpg')).toBe('attachment; filename="photo.jpg"');
  expect(contentDisposition('Foto (1)*.jpg')).toBe('attachment; filename="Foto (1)*.jpg"');
  expect(contentDisposition('Ñandú\'s "best".jpg')).toBe(
    `attachment; filename="_and_'s _best_.jpg"; filename*=UTF-8''%C3%91and%C3%BA%27s%20%22best%22.jpg`,
  );
  expect(contentDisposition('../../etc/pass\r\nwd')).toBe('attachment; filename=".._.._etc_passwd"');
});
