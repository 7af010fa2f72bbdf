// Slow clients on real sockets: 50 connections trickling a body one byte a second, a request line that never
// ends, an upload at a crawl. Each is cut off after its limit (2 s here), while a normal request is answered
// at once throughout.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { DatabaseHandle } from '../db/client.js';
import { buildTestApp, type TestApp } from '../test/app.js';
import { testDatabases } from '../test/databases.js';
import { portraitJpeg } from '../../testing/images.js';
import { createDraft } from '../test/seed.js';

interface Trickle {
  /** Everything the server sent back. */
  answer: () => string;
  /** Resolves with the milliseconds from the start until the server closed the connection. */
  closed: Promise<number>;
  /** Whether the server has closed it yet. */
  isClosed: () => boolean;
  stop(): void;
}

/** Opens a connection, sends `head` at once, then one byte of `body` per `everyMs`. */
function trickle(port: number, head: string, body: string, everyMs = 1000): Trickle {
  const socket = net.connect(port, '127.0.0.1');
  const started = Date.now();
  let received = '';
  let sent = 0;
  socket.on('data', (chunk) => (received += chunk.toString()));
  socket.on('error', () => {});
  const timer = setInterval(() => {
    if (sent < body.length && socket.writable) socket.write(body[sent++]!);
  }, everyMs);
  socket.once('connect', () => socket.write(head));
  let isClosed = false;
  const closed = new Promise<number>((resolve) =>
    socket.once('close', () => {
      isClosed = true;
      clearInterval(timer);
      resolve(Date.now() - started);
    }),
  );
  return {
    answer: () => received,
    closed,
    isClosed: () => isClosed,
    stop: () => {
      clearInterval(timer);
      socket.destroy();
    },
  };
}

describe.each(testDatabases().slice(0, 1))('timeouts on real sockets ($name)', (testDb) => {
  let db: DatabaseHandle;
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    db = await testDb.open();
    t = await buildTestApp(db, { BODY_TIMEOUT_SECONDS: '2', HEADERS_TIMEOUT_SECONDS: '2', REQUEST_TIMEOUT_SECONDS: '6' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    await t.close();
    await db.close();
  });

  test('50 connections trickling a JSON body are answered 408 in our shape and closed after the body timeout; others are served meanwhile', { timeout: 40_000 }, async () => {
    const body = JSON.stringify({ name: 'Erika Muster', email: 'erika@example.de', message: 'Eine Nachricht, die sehr langsam kommt.' });
    const head = `POST /api/contact HTTP/1.1\r\nHost: shop.test\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`;
    const slow = Array.from({ length: 50 }, () => trickle(port, head, body));
    try {
      // Served while the 50 hold their connections (before the first of them is closed).
      const health = await fetch(`http://127.0.0.1:${port}/api/health`);
      expect(health.status).toBe(200);
      expect(slow.filter((s) => s.isClosed())).toHaveLength(0);
      const times = await Promise.all(slow.map((s) => s.closed));
      // Each body would take over a minute to arrive (a byte a second): closed by the timeout, not by its end.
      // The bounds leave room for a busy machine; no speed is asserted.
      expect(Math.max(...times)).toBeLessThan(20_000);
      expect(Math.min(...times)).toBeGreaterThanOrEqual(1_900);
      for (const s of slow) {
        expect(s.answer()).toMatch(/^HTTP\/1\.1 408 /);
        expect(s.answer()).toContain('"code":"requestTimeout"');
      }
    } finally {
      for (const s of slow) s.stop();
    }
  });

  test('a GET that announces a body and trickles it does not take the process down; the shop keeps serving', { timeout: 40_000 }, async () => {
    const head = 'GET /api/health HTTP/1.1\r\nHost: shop.test\r\nContent-Length: 50\r\n\r\n';
    const slow = Array.from({ length: 5 }, () => trickle(port, head, 'x'.repeat(50), 300));
    try {
      // Past the body timeout, with the bodies still coming: the process is alive and answers.
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      const health = await fetch(`http://127.0.0.1:${port}/api/health`);
      expect(health.status).toBe(200);
      for (const s of slow) expect(s.answer()).toMatch(/^HTTP\/1\.1 200 /);
    } finally {
      for (const s of slow) s.stop();
    }
  });

  test('a request line and headers that never end are closed after the headers timeout, in our shape', { timeout: 40_000 }, async () => {
    const slow = trickle(port, 'GET /api/health HTTP/1.1\r\nHost: shop.test\r\n', 'X-Slow: ' + 'a'.repeat(100));
    try {
      const closedAfter = await slow.closed;
      // The headers would take over a minute to end.
      expect(closedAfter).toBeLessThan(20_000);
      expect(slow.answer()).toMatch(/^HTTP\/1\.1 408 /);
      expect(slow.answer()).toContain('"code":"requestTimeout"');
    } finally {
      slow.stop();
    }
  });

  test('an upload at a crawl is cut off once it falls below the minimum pace; a normal upload is not', { timeout: 40_000 }, async () => {
    const draft = await createDraft(t.app, { photos: 0 });
    const boundary = 'slowboundary';
    const head =
      `POST /api/orders/${draft.orderId}/uploads HTTP/1.1\r\nHost: shop.test\r\nx-draft-token: ${draft.draftToken}\r\n` +
      `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: 100000\r\n\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`;
    const slow = trickle(port, head, 'x'.repeat(1000), 200);
    try {
      // A real photo over a normal connection meanwhile, to another draft: stored.
      const other = await createDraft(t.app, { photos: 0 });
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(await portraitJpeg())], { type: 'image/jpeg' }), 'selfie.jpg');
      const normal = await fetch(`http://127.0.0.1:${port}/api/orders/${other.orderId}/uploads`, { method: 'POST', headers: { 'x-draft-token': other.draftToken }, body: form });
      expect(normal.status).toBe(201);
      const closedAfter = await slow.closed;
      expect(closedAfter).toBeGreaterThanOrEqual(1_900);
      // The body would take over three minutes at this pace.
      expect(closedAfter).toBeLessThan(20_000);
    } finally {
      slow.stop();
    }
    expect(await t.app.storage.listKeys(`uploads/${draft.orderId}/`)).toEqual([]);
  });
});
