// Issue 3 figures: 10 photos of 8 MB uploaded to one order over HTTP (time and server memory),
// and payment webhook events handled per second.
// Smoke (BENCH_SMOKE=1): 2 photos of 8 MB, and the webhook events of 3 customers' orders instead of 40.
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { SMOKE, printFigure, startBenchShop } from './lib.mjs';
import { sandboxPaidEvent } from './support/sandbox-payment.mjs';

const port = Number(process.env.BENCH_PORT ?? 3902);
const photoCount = SMOKE ? 2 : 10;
const customerCount = SMOKE ? 3 : 40;
const appSecret = randomBytes(32).toString('hex');
const { shop, cleanup } = await startBenchShop('orders', {
  port,
  env: {
    APP_SECRET: appSecret,
    LOG_LEVEL: 'error',
    // The orders of 40 customers, all from this one machine: the per-address limits (bench/abuse-limits.mjs) are not the subject.
    LIMIT_DRAFTS_PER_HOUR: '1000',
    LIMIT_UPLOAD_MB_PER_HOUR: '100000',
  },
});
const base = shop.url;

function rssKb(pid) {
  const match = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) : 0;
}

async function newDraft() {
  const response = await fetch(`${base}/api/orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      language: 'de',
      selection: { gender: 'female', style: 'professional', package: 'basic', location: null, outfit: null, extras: [] },
      photoConsent: true,
      photoConsentVersion: '2026-11-01',
    }),
  });
  if (response.status !== 201) throw new Error(`draft: ${response.status}`);
  return response.json();
}

async function upload(draft, buffer, name) {
  // As the wizard sends a photo: the file as the body, its name in X-File-Name.
  const headers = { 'content-type': 'image/jpeg', 'x-file-name': encodeURIComponent(name), 'x-draft-token': draft.draftToken };
  const response = await fetch(`${base}/api/orders/${draft.orderId}/uploads`, { method: 'POST', headers, body: buffer });
  if (response.status !== 201) throw new Error(`upload: ${response.status} ${await response.text()}`);
}

try {
  // Ten distinct phone-sized photos of about 8 MB: the public-domain portrait at 12 megapixels with sensor-like
  // noise (which does not compress), so the upload checks find a face as in a real selfie.
  const portrait = await sharp('test/fixtures/portrait-astronaut.png').resize(3000, 4000, { fit: 'cover' }).removeAlpha().raw().toBuffer();
  const photos = [];
  for (let i = 0; i < photoCount; i++) {
    const grain = randomBytes(portrait.length);
    const pixels = Buffer.alloc(portrait.length);
    for (let j = 0; j < portrait.length; j++) pixels[j] = Math.min(255, Math.max(0, portrait[j] + (grain[j] % 97) - 48));
    photos.push(await sharp(pixels, { raw: { width: 3000, height: 4000, channels: 3 } }).jpeg({ quality: 92 }).toBuffer());
  }
  const averageMb = photos.reduce((s, p) => s + p.length, 0) / photos.length / 1024 / 1024;

  const draft = await newDraft();
  const idle = rssKb(shop.child.pid);
  let peak = idle;
  const sampler = setInterval(() => (peak = Math.max(peak, rssKb(shop.child.pid))), 20);
  const started = performance.now();
  // Three at a time, as the wizard sends them.
  const queue = photos.map((p, i) => [p, `selfie-${i}.jpg`]);
  try {
    await Promise.all(
      Array.from({ length: 3 }, async () => {
        for (let item = queue.shift(); item; item = queue.shift()) await upload(draft, ...item);
      }),
    );
  } finally {
    clearInterval(sampler);
  }
  const seconds = (performance.now() - started) / 1000;
  printFigure(`${photoCount} photos of ${averageMb.toFixed(1)} MB uploaded to one order`, seconds, 's', '<= 4 s');
  printFigure('server memory above idle during the uploads', Math.round((peak - idle) / 1024), 'MB', '<= 200 MB');

  // Webhook throughput: orders placed through the real checkout, then signed "paid" events, each sent 3 times.
  const small = await sharp('test/fixtures/portrait-astronaut.png').resize(1100, 1100).jpeg().toBuffer();
  const orders = [];
  for (let i = 0; i < customerCount; i++) {
    const d = await newDraft();
    for (let j = 0; j < 3; j++) await upload(d, small, `s${j}.jpg`);
    const response = await fetch(`${base}/api/orders/${d.orderId}/checkout`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-draft-token': d.draftToken },
      body: JSON.stringify({
        language: 'de',
        selection: { gender: 'female', style: 'professional', package: 'basic', location: null, outfit: null, extras: [] },
        email: `bench${i}@example.de`,
        waiverAccepted: true,
        waiverTextVersion: '2026-11-01',
      }),
    });
    const session = await response.json();
    orders.push({ orderId: d.orderId, sessionId: session.sessionId });
  }
  const events = orders.flatMap((o, i) => {
    const event = sandboxPaidEvent({ appSecret, sessionId: o.sessionId, orderId: o.orderId, amountCents: 1490, tag: `bench_${i}` });
    return [0, 1, 2].map(() => event);
  });
  const eventStart = performance.now();
  const outcomes = {};
  const pending = [...events];
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let e = pending.shift(); e; e = pending.shift()) {
        const response = await fetch(`${base}/api/payments/webhook`, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': e.signature }, body: e.body });
        const { outcome } = await response.json();
        outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
      }
    }),
  );
  const eventSeconds = (performance.now() - eventStart) / 1000;
  printFigure(`webhook events handled per second (${events.length}: ${Object.entries(outcomes).map(([k, v]) => `${v} ${k}`).join(', ')})`, events.length / eventSeconds, 'ev/s');
} finally {
  await cleanup();
}
