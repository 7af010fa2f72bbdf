// Issue 13 figures: how much one network address gets out of the shop before it is slowed down, with the
// default limits (LIMIT_DRAFTS_PER_HOUR, LIMIT_UPLOAD_MB_PER_HOUR): drafts, then bytes of uploads, and how
// cheaply the shop refuses what comes after.
// Smoke (BENCH_SMOKE=1): the draft limit as it is (30 drafts are cheap), refusals for 1 s instead of 3, and the
// upload limit lowered to 20 MB an hour, so the refusal still comes, after 3 bodies instead of about 56.
import { randomBytes } from 'node:crypto';
import { SMOKE, printFigure, startBenchShop } from './lib.mjs';

const port = Number(process.env.BENCH_PORT ?? 3905);
const SMOKE_UPLOAD_MB_PER_HOUR = 20;
const refusalSeconds = SMOKE ? 1 : 3;
if (SMOKE) console.log(`smoke: refusals measured for ${refusalSeconds} s; upload limit lowered to ${SMOKE_UPLOAD_MB_PER_HOUR} MB an hour (default 500)`);
const { shop, cleanup } = await startBenchShop('abuse', {
  port,
  env: { LOG_LEVEL: 'error', TRUST_PROXY: 'true', ...(SMOKE ? { LIMIT_UPLOAD_MB_PER_HOUR: String(SMOKE_UPLOAD_MB_PER_HOUR) } : {}) },
});
const base = shop.url;
const DRAFT = JSON.stringify({
  language: 'de',
  selection: { gender: null, style: null, package: null, location: null, outfit: null, extras: [] },
  photoConsent: true,
  photoConsentVersion: '2026-11-01',
});

const createDraft = () => fetch(`${base}/api/orders`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: DRAFT });

try {
  // Drafts as fast as one client can make them, four at a time, until the first refusal.
  let made = 0;
  let refusedAt = null;
  const started = performance.now();
  while (refusedAt === null && made < 10_000) {
    const answers = await Promise.all(Array.from({ length: 4 }, () => createDraft()));
    for (const answer of answers) {
      if (answer.status === 201) made++;
      else if (answer.status === 429 && refusedAt === null) refusedAt = performance.now();
      await answer.arrayBuffer();
    }
  }
  const seconds = ((refusedAt ?? performance.now()) - started) / 1000;
  printFigure('drafts one address makes before it is slowed', made, 'drafts', '30 an hour');
  printFigure('drafts per second until then', Math.round(made / seconds), 'drafts/s');

  // After the limit: refusals for 3 s (smoke: 1 s), none of them creating anything.
  let refusals = 0;
  let created = 0;
  const until = performance.now() + refusalSeconds * 1000;
  while (performance.now() < until) {
    const answers = await Promise.all(Array.from({ length: 4 }, () => createDraft()));
    for (const answer of answers) {
      if (answer.status === 429) refusals++;
      if (answer.status === 201) created++;
      await answer.arrayBuffer();
    }
  }
  printFigure('drafts per second after the limit', created / refusalSeconds, 'drafts/s', '0');
  printFigure('refusals per second (429, nothing stored)', Math.round(refusals / refusalSeconds), 'req/s');

  // Upload bytes: 9 MB bodies from another address (the shop believes X-Forwarded-For here), counted as received.
  const draft = await (await fetch(`${base}/api/orders`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.50' }, body: DRAFT })).json();
  const body = randomBytes(9 * 1024 * 1024);
  let acceptedBytes = 0;
  const uploadStarted = performance.now();
  for (let i = 0; i < 200; i++) {
    const answer = await fetch(`${base}/api/orders/${draft.orderId}/uploads`, {
      method: 'POST',
      headers: { 'content-type': 'image/jpeg', 'x-file-name': 'selfie.jpg', 'x-draft-token': draft.draftToken, 'x-forwarded-for': '203.0.113.50' },
      body,
    });
    const code = (await answer.json()).error?.code;
    if (answer.status === 429) break;
    if (code !== 'notAnImage') throw new Error(`unexpected answer ${answer.status} ${code}`);
    acceptedBytes += body.length;
  }
  const uploadSeconds = (performance.now() - uploadStarted) / 1000;
  printFigure('upload volume one address sends before it is refused', Math.round(acceptedBytes / 1024 / 1024), 'MB', SMOKE ? `${SMOKE_UPLOAD_MB_PER_HOUR} MB an hour` : '500 MB an hour');
  printFigure('upload rate until then (refused as no photo)', Math.round(acceptedBytes / 1024 / 1024 / uploadSeconds), 'MB/s');
} finally {
  await cleanup();
}
