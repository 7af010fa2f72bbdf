import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { expect, onTestFinished, test } from 'vitest';
import { localFilesRoutes } from './local-files-routes.js';
import { createLocalStorage, signLocalFile } from './local-storage.js';

const secret = 'test-secret-that-is-long-enough-0123456789';

async function setup() {
  const parent = await mkdtemp(path.join(tmpdir(), 'shop-local-files-'));
  onTestFinished(() => rm(parent, { recursive: true, force: true }));
  const storage = createLocalStorage({ dir: path.join(parent, 'files'), secret, defaultTtlSeconds: 600 });
  const app = Fastify();
  await app.register(localFilesRoutes, { storage, secret });
  onTestFinished(() => app.close());
  await storage.put('renders/r1/photo.jpg', Buffer.from('jpeg bytes'), { contentType: 'image/jpeg' });
  return { app, storage, parent };
}

function query(params: Record<string, string | number | undefined>): string {
  return Object.entries(params)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
    .join('&');
}

test('a valid link streams the file with its headers', async () => {
  const { app, storage } = await setup();
  const res = await app.inject({ url: await storage.signedUrl('renders/r1/photo.jpg', { expiresInSeconds: 300 }) });
  expect(res.statusCode).toBe(200);
  expect(res.body).toBe('jpeg bytes');
  expect(res.headers['content-type']).toBe('image/jpeg');
  expect(res.headers['content-length']).toBe('10');
  expect(res.headers['content-disposition']).toBe('inline');
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(res.headers['content-security-policy']).toContain('sandbox');
  const maxAge = Number(/^private, max-age=(\d+)$/.exec(String(res.headers['cache-control']))?.[1]);
  expect(maxAge).toBeGreaterThanOrEqual(299);
  expect(maxAge).toBeLessThanOrEqual(300);
});

test('a link with a signed name is a download under that name', async () => {
  const { app, storage } = await setup();
  const res = await app.inject({ url: await storage.signedUrl('renders/r1/photo.jpg', { downloadName: 'Passfoto.jpg' }) });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-disposition']).toBe('attachment; filename="Passfoto.jpg"');
});

test('HEAD answers with the headers and no body', async () => {
  const { app, storage } = await setup();
  const res = await app.inject({ method: 'HEAD', url: await storage.signedUrl('renders/r1/photo.jpg') });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe('image/jpeg');
  expect(res.body).toBe('');
});

test('an expired link is 403 linkExpired', async () => {
  const { app } = await setup();
  const exp = Math.floor(Date.now() / 1000) - 5;
  const sig = signLocalFile({ secret, key: 'renders/r1/photo.jpg', exp, name: undefined });
  const res = await app.inject({ url: `/files/renders/r1/photo.jpg?${query({ exp, sig })}` });
  expect(res.statusCode).toBe(403);
  expect(res.json()).toEqual({ error: { code: 'linkExpired', requestId: expect.any(String) } });
});

test('an altered key, expiry, name or signature is 403 linkInvalid', async () => {
  const { app, storage } = await setup();
  await storage.put('renders/r1/other.jpg', Buffer.from('other'), { contentType: 'image/jpeg' });
  const url = new URL(await storage.signedUrl('renders/r1/photo.jpg', { downloadName: 'a.jpg' }), 'http://x');
  const exp = url.searchParams.get('exp') ?? '';
  const sig = url.searchParams.get('sig') ?? '';
  const flipped = sig.replace(/^./, (c) => (c === '0' ? '1' : '0'));
  const altered = [
    `/files/renders/r1/other.jpg?${query({ exp, sig, name: 'a.jpg' })}`,
    `/files/renders/r1/photo.jpg?${query({ exp: Number(exp) + 3600, sig, name: 'a.jpg' })}`,
    `/files/renders/r1/photo.jpg?${query({ exp, sig, name: 'b.jpg' })}`,
    `/files/renders/r1/photo.jpg?${query({ exp, sig })}`,
    `/files/renders/r1/photo.jpg?${query({ exp, sig: flipped, name: 'a.jpg' })}`,
    `/files/renders/r1/photo.jpg?${query({ exp, name: 'a.jpg' })}`,
    `/files/renders/r1/photo.jpg`,
  ];
  for (const path of altered) {
    const res = await app.inject({ url: path });
    expect(res.statusCode, path).toBe(403);
    expect(res.json(), path).toEqual({ error: { code: 'linkInvalid', requestId: expect.any(String) } });
  }
  // The untouched link still works, so the 403s above come from the alterations.
  expect((await app.inject({ url: `${url.pathname}${url.search}` })).statusCode).toBe(200);
});

test('a valid link to a missing file is 404 notFound', async () => {
  const { app, storage } = await setup();
  const res = await app.inject({ url: await storage.signedUrl('renders/r1/missing.jpg') });
  expect(res.statusCode).toBe(404);
  expect(res.json()).toEqual({ error: { code: 'notFound', requestId: expect.any(String) } });
});

test('a correctly signed path with .. cannot read outside the folder', async () => {
  const { app, parent } = await setup();
  await writeFile(path.join(parent, 'outside.txt'), 'top secret');
  const exp = Math.floor(Date.now() / 1000) + 60;
  for (const [urlPath, key] of [
    ['..%2Foutside.txt', '../outside.txt'],
    ['%2e%2e/outside.txt', '../outside.txt'],
    ['renders/..%2F..%2Foutside.txt', 'renders/../../outside.txt'],
  ] as const) {
    const sig = signLocalFile({ secret, key, exp, name: undefined });
    const res = await app.inject({ url: `/files/${urlPath}?${query({ exp, sig })}` });
    // 403 from our key check, or 404 where URL parsing already resolved the dot segments.
    expect([403, 404], urlPath).toContain(res.statusCode);
    expect(res.body, urlPath).not.toContain('top secret');
  }
});
