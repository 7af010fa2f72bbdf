// Issue 4 figures: tracking lookups per second and p99 (distinct valid orders, real HTTP), and the time
// to stream a ZIP of 20 images of 3 MB. Runs the app in-process to store results the way staff uploads will.
// Smoke (BENCH_SMOKE=1): 3 orders, 1 s of lookups, a ZIP of 2 images.
import { randomBytes, randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import autocannon from 'autocannon';
import sharp from 'sharp';
import { SMOKE, benchApp, figure } from './in-process.js';
import { generatedImages } from '../src/server/db/schema.js';
import { downloadPath } from '../src/server/modules/customer-orders/download-links.js';
import { payOrder, placeOrder, setOrder, type SeededOrder } from '../src/server/test/seed.js';

const port = Number(process.env.BENCH_PORT ?? 3904);
const orderCount = SMOKE ? 3 : 30;
const lookupSeconds = SMOKE ? 1 : 10;
const zipImages = SMOKE ? 2 : 20;
const { app, config, dataDir } = await benchApp('after', {
  PORT: String(port),
  HOST: '127.0.0.1',
  TRUST_PROXY: 'true',
  ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
});
await app.db.migrate();

try {
  // 30 distinct paid orders (smoke: 3), placed through the app's routes.
  const orders: SeededOrder[] = [];
  for (let i = 0; i < orderCount; i++) {
    const order = await placeOrder(app, { photos: 3 });
    await payOrder(app, order);
    orders.push(order);
  }
  await app.listen({ port, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${port}`;

  let n = 0;
  const result = await autocannon({
    url: `${base}/api/tracking`,
    connections: 10,
    duration: lookupSeconds,
    requests: [
      {
        method: 'POST',
        setupRequest: (request) => {
          const order = orders[n++ % orders.length]!;
          // Distinct client addresses (behind a proxy), so the per-address limit measures lookups, not refusals.
          return {
            ...request,
            headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}` },
            body: JSON.stringify({ orderId: order.orderNumber, email: order.email }),
          };
        },
      },
    ],
  });
  figure(`tracking lookups per second (${orders.length} orders, 10 conn.)`, Math.round(result.requests.average), 'req/s');
  figure('tracking lookup p99 latency', result.latency.p99, 'ms');
  if (result.non2xx) figure('tracking lookups not answered 200', result.non2xx, '');

  // 20 published images (smoke: 2) of about 3 MB each for one order.
  const order = orders[0]!;
  for (let i = 0; i < zipImages; i++) {
    const noise = randomBytes(1800 * 1500 * 3);
    const buffer = await sharp(noise, { raw: { width: 1800, height: 1500, channels: 3 } }).jpeg({ quality: 85 }).toBuffer();
    const key = `results/${order.orderId}/${randomBytes(16).toString('hex')}.jpg`;
    await app.storage.put(key, buffer, { contentType: 'image/jpeg' });
    await app.db.db.insert(generatedImages).values({
      id: randomUUID(),
      orderId: order.orderId,
      fileName: `bild-${i + 1}.jpg`,
      fileSize: buffer.length,
      mimeType: 'image/jpeg',
      storageKey: key,
      generationType: 'admin_upload',
      status: 'active',
    });
  }
  await setOrder(app, order.orderId, { status: 'completed', completedAt: new Date() });
  const url = `${base}${downloadPath(config.appSecret, order.orderId, { kind: 'zip' }, new Date(), 3600)}`;
  const started = performance.now();
  const response = await fetch(url);
  let bytes = 0;
  let firstByte = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    if (!firstByte) firstByte = performance.now() - started;
    bytes += chunk.length;
  }
  const seconds = (performance.now() - started) / 1000;
  figure(`ZIP of ${zipImages} images (${(bytes / 1024 / 1024).toFixed(0)} MB) streamed`, seconds, 's');
  figure('ZIP time to first byte', firstByte, 'ms');
} finally {
  await app.close();
  await rm(dataDir, { recursive: true, force: true });
}
