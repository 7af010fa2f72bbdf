// Issue 7 figures. (1) The quality gate per 1024 px photo and (2) rendering per output, in this process.
// (3) Seconds from payment to all drafts of a pro order and (4) the worker's peak memory, measured on the
// production layout: a web process (RUN_JOBS=false) and a separate `worker` process sharing PostgreSQL.
// Without a reachable PostgreSQL, (3) and (4) run embedded, where PGlite's own ~750 MB count too.
// Smoke (BENCH_SMOKE=1): 2 gate checks, 1 render per format, and a basic order (3 photos, 3 pictures).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import sharp from 'sharp';
import { PHOTO_CONSENT_VERSION, WAIVER_TEXT_VERSION } from '../src/domain/order-selection.js';
import { OUTPUT_FORMAT_KEYS } from '../src/studio/formats.js';
import { createInference } from '../src/studio/inference/client.js';
import { assessPhoto } from '../src/studio/quality-gate.js';
import { renderDraft } from '../src/studio/render.js';
import { PORTRAIT } from '../src/testing/images.js';
import { SMOKE, figure } from './in-process.js';
import { once, stopChild, stopOnExit } from './support/processes.mjs';
import { PROJECT_ROOT as ROOT, STUDIO_INFERENCE_WORKER, STUDIO_MODELS_DIR } from '../src/server/paths.js';

function stats(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  return { mean: samples.reduce((a, b) => a + b, 0) / samples.length, p95: sorted[Math.floor(sorted.length * 0.95)] ?? sorted.at(-1)! };
}

// (1) and (2)
const inference = createInference({ workerFile: STUDIO_INFERENCE_WORKER, modelDir: STUDIO_MODELS_DIR });
let started: number;
try {
  const photo = await sharp(PORTRAIT).resize(1024, 1280, { fit: 'cover' }).jpeg({ quality: 90 }).toBuffer();
  started = performance.now();
  await assessPhoto(photo, inference);
  figure('models loaded + first gate check', (performance.now() - started) / 1000, 's');
  const gate: number[] = [];
  for (let i = 0; i < (SMOKE ? 2 : 30); i++) {
    started = performance.now();
    await assessPhoto(photo, inference);
    gate.push(performance.now() - started);
  }
  figure('quality gate per 1024 px photo, mean', stats(gate).mean, 'ms', '<= 100 ms');
  figure('quality gate per 1024 px photo, p95', stats(gate).p95, 'ms');
  const big = await sharp(PORTRAIT).resize(3000, 3750, { fit: 'cover' }).jpeg({ quality: 90 }).toBuffer();
  const bigFace = (await assessPhoto(big, inference)).face!;
  // A photo gives all its drafts: its faces, bodies, head and level copy are found with the first (and kept
  // for the rest), so that draft is timed on its own and the formats after it.
  started = performance.now();
  await renderDraft({ photo: big, face: bigFace, spec: { format: 'square', backdrop: { kind: 'creative', variant: 0 }, style: 'casual' }, inference });
  figure("first draft of an 11 MP photo (the photo's people and head found once)", performance.now() - started, 'ms');
  for (const format of OUTPUT_FORMAT_KEYS) {
    const times: number[] = [];
    for (let i = 0; i < (SMOKE ? 1 : 5); i++) {
      started = performance.now();
      await renderDraft({ photo: big, face: bigFace, spec: { format, backdrop: { kind: 'studio', variant: i }, style: 'professional' }, inference });
      times.push(performance.now() - started);
    }
    figure(`render a ${format} draft (11 MP photo, after its first), mean`, stats(times).mean, 'ms', '<= 1000 ms');
  }
} finally {
  await inference.close();
}

// (3) and (4)
const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
let databaseUrl: string | null = null;
const dbName = `shop_bench_studio_${process.pid}`;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'shop-bench-studio-'));
const children: ChildProcess[] = [];
const cleanup = once(async () => {
  await Promise.all(children.map((child) => stopChild(child)));
  if (databaseUrl) {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`drop database if exists ${dbName} with (force)`);
    await admin.end();
  }
  rmSync(dataDir, { recursive: true, force: true });
});
stopOnExit(cleanup);
try {
  const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 2000 });
  await admin.connect();
  await admin.query(`create database ${dbName}`);
  await admin.end();
  const u = new URL(adminUrl);
  u.pathname = `/${dbName}`;
  databaseUrl = u.toString();
} catch {
  console.log('  (no PostgreSQL reachable: payment-to-drafts runs embedded, memory includes PGlite)');
}

const port = Number(process.env.BENCH_PORT ?? 3907);
const base = `http://127.0.0.1:${port}`;
const STAFF = { email: 'bench@example.de', password: 'bench-staff-password-1' };
const env = { ...process.env, NODE_ENV: 'development', ADMIN_EMAIL: STAFF.email, ADMIN_PASSWORD: STAFF.password, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', RETENTION_INTERVAL_MINUTES: '0' };
const run = (script: string, extra: Record<string, string>) => {
  const child = spawn(process.execPath, [script], { cwd: ROOT, env: { ...env, ...extra }, stdio: ['ignore', 'ignore', 'inherit'] });
  children.push(child);
  return child;
};
/** Throws when a process the benchmark waits for has ended: waiting on would only run into the timeout. */
const ensureRunning = (child: ChildProcess, what: string) => {
  if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the ${what} exited (${child.signalCode ?? `exit code ${child.exitCode}`})`);
};
const peakMb = (pid: number) => Math.round(Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024);

try {
  // The start script builds the shop when needed; the worker then reuses that build.
  const web = run('scripts/start.mjs', databaseUrl ? { DATABASE_URL: databaseUrl, RUN_JOBS: 'false' } : {});
  for (let i = 0; ; i++) {
    if (await fetch(`${base}/api/health`).then((r) => r.ok, () => false)) break;
    ensureRunning(web, 'shop');
    if (i > 1200) throw new Error('the shop did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
  const worker = databaseUrl ? run(path.join('dist', 'server', 'worker.js'), { DATABASE_URL: databaseUrl }) : web;

  // No outfit: without a generator the shop offers none (outfitNotOffered).
  const selection = { gender: 'female', style: 'professional', package: SMOKE ? 'basic' : 'pro', location: SMOKE ? null : 'studio', outfit: null, extras: [] };
  const pictures = SMOKE ? 3 : 10;
  const json = (response: Response) => response.json() as Promise<Record<string, string>>;
  const draft = await json(await fetch(`${base}/api/orders`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ language: 'de', selection, photoConsent: true, photoConsentVersion: PHOTO_CONSENT_VERSION }) }));
  for (let i = 0; i < (SMOKE ? 3 : 5); i++) {
    const selfie = await sharp(PORTRAIT).resize(1600 + i * 16, 2000, { fit: 'cover' }).jpeg({ quality: 88 }).toBuffer();
    const upload = await fetch(`${base}/api/orders/${draft.orderId}/uploads`, {
      method: 'POST',
      headers: { 'content-type': 'image/jpeg', 'x-file-name': `selfie-${i}.jpg`, 'x-draft-token': draft.draftToken! },
      body: selfie,
    });
    if (upload.status !== 201) throw new Error(`upload failed: ${await upload.text()}`);
  }
  const checkout = await json(
    await fetch(`${base}/api/orders/${draft.orderId}/checkout`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-draft-token': draft.draftToken! },
      body: JSON.stringify({ language: 'de', selection, email: 'bench@example.de', waiverAccepted: true, waiverTextVersion: WAIVER_TEXT_VERSION }),
    }),
  );
  started = performance.now();
  const pay = await fetch(`${base}/sandbox/checkout/${checkout.sessionId}/pay`, { method: 'POST', redirect: 'manual' });
  if (pay.status !== 303) throw new Error(`payment failed: ${pay.status}`);
  // Staff see the job's progress; it is done when all drafts are stored.
  const login = await fetch(`${base}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(STAFF) });
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
  for (;;) {
    const studio = await (await fetch(`${base}/api/admin/orders/${draft.orderId}/studio`, { headers: { cookie } })).json();
    const job = studio.jobs?.[0];
    if (job?.status === 'done' && job.progress?.done === pictures) break;
    if (job?.status === 'dead') throw new Error(`the drafts job failed: ${job.lastError}`);
    ensureRunning(web, 'shop');
    ensureRunning(worker, 'worker');
    if (performance.now() - started > 300_000) throw new Error('drafts not ready after 5 minutes');
    await new Promise((r) => setTimeout(r, 100));
  }
  figure(`payment to all ${pictures} drafts of a ${selection.package} order${databaseUrl ? '' : ' (embedded)'}`, (performance.now() - started) / 1000, 's', '<= 60 s');
  figure(`peak memory of the ${databaseUrl ? 'worker process' : 'embedded shop (with PGlite)'}`, peakMb(worker.pid!), 'MB', '<= 1024 MB');
} finally {
  await cleanup();
}
