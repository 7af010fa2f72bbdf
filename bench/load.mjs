// Issue 22, part 4: how cost grows with customers at once. On PostgreSQL, as the README's "several processes"
// section runs it: two web processes (RUN_JOBS=false, UPLOAD_INLINE_CHECKS=0) and one worker, sharing a database of their own, one
// DATA_DIR (files on local disk) and one APP_SECRET. 1, 10 and 50 customers at once (smoke: 1 and 2), each
// from an address of its own (X-Forwarded-For, TRUST_PROXY=1: the benchmark is the one proxy in front) and
// with its requests spread over the two web processes as a load balancer would: a draft, 6 phone-sized
// photographs of one real man uploaded three at a time (as the wizard does; a photo a busy web process hands
// to the worker's check is asked for until it has its verdict, as the wizard asks), the sandbox
// checkout, the provider's signed "paid" event, then a staff poll every 500 ms until the studio's drafts exist.
// Figures per customer count: p50/p95 of each step (an upload's answer, and its verdict: at once or from the worker), orders per minute from payment to drafts, CPU-seconds per
// order (the two web processes, the worker and the PostgreSQL backends serving this database), peak resident
// memory of each process; then how they grow from 10 to 50 customers, and the web processes at rest.
// Smoke (BENCH_SMOKE=1): 1 and 2 customers, photos at 1.3 MP instead of 12 MP.
// To see where a figure goes: BENCH_WEB_LOG=info logs every request of the web processes with its time, and
// BENCH_KEEP_LOGS=1 keeps the processes' logs (their folder is printed at the end); BENCH_SHOP_NODE_ARGS profiles.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import sharp from 'sharp';
import { buildIfChanged } from '../scripts/build-info.mjs';
import { ROOT, SHOP_ENV, SMOKE, WEB_NODE_FLAGS, printFigure, shopNodeArgs } from './lib.mjs';
import { benchDatabase } from './support/bench-database.mjs';
import { cpuSeconds, machineBusySeconds, rssMb, rssSampler } from './support/proc-stats.mjs';
import { once, stopChild, stopOnExit } from './support/processes.mjs';
import { phonePhotos, send } from './support/customer.mjs';
import { sandboxPaidEvent } from './support/sandbox-payment.mjs';

const started = performance.now();
const basePort = Number(process.env.BENCH_PORT ?? 3920);
const PORTS = [basePort, basePort + 1];
// BENCH_LOAD_CUSTOMERS=10,50 runs other counts (the growth figures compare the last two).
const COUNTS = process.env.BENCH_LOAD_CUSTOMERS ? process.env.BENCH_LOAD_CUSTOMERS.split(',').map(Number) : SMOKE ? [1, 2] : [1, 10, 50];
const PHOTOS_PER_ORDER = 6;
const PARALLEL_UPLOADS = 3; // as the wizard sends them (src/web/pages/order/use-photo-uploads.ts)
const POLL_MS = 500;
// As the wizard asks for a waiting photo's verdict (checkPollDelayMs in src/web/pages/order/draft-uploads.ts): after 1 s, then
// less and less often, at most every 5 s.
const checkPollDelayMs = (asked) => Math.min(5000, 1000 * 1.5 ** asked);
const DRAFTS_TIMEOUT_MS = SMOKE ? 90_000 : 360_000;
const REST_SECONDS = SMOKE ? 1 : 10;
// The smallest package: the studio makes its 3 drafts (src/domain/catalog.ts), and no campaign applies to it.
const PACKAGE = 'basic';
const PRICE_CENTS = 1490;
const SELECTION = { gender: 'male', style: 'professional', package: PACKAGE, location: null, outfit: null, extras: [] };
const ABUSE_CODES = new Set(['tooManyDrafts', 'uploadLimitReached']);
const STAFF = { email: 'load-bench@example.de', password: randomBytes(12).toString('hex') };
const STAFF_ADDRESS = '192.0.2.10';

const serverUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const appSecret = randomBytes(32).toString('hex');
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'shop-bench-load-'));
const logDir = mkdtempSync(path.join(os.tmpdir(), 'shop-bench-load-logs-'));

// A connection to the server that samples the backends' CPU; benchDatabase creates and drops the database.
const admin = new pg.Client({ connectionString: serverUrl });
const processes = [];
let database = null;
let sampler = null;
let backends = null;

const cleanup = once(async () => {
  sampler?.stop();
  await backends?.stop();
  await Promise.all(processes.map((p) => stopChild(p.child)));
  // The processes' pools close with them; drop() waits until the server has seen them go.
  await database?.drop();
  await admin.end().catch(() => {});
  rmSync(dataDir, { recursive: true, force: true });
  if (process.env.BENCH_KEEP_LOGS) console.log(`the processes' logs: ${logDir}`);
  else rmSync(logDir, { recursive: true, force: true });
});
stopOnExit(cleanup);

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

function startProcess(name, script, env, nodeFlags = []) {
  const logFile = path.join(logDir, `${name}.log`);
  const fd = openSync(logFile, 'a');
  // As the README's production commands run them (SHOP_NODE_FLAGS, SHOP_ENV, a web process's WEB_NODE_FLAGS;
  // BENCH_SHOP_NODE_ARGS last, so that it can override them).
  const child = spawn(process.execPath, [...nodeFlags, ...shopNodeArgs(), script], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...SHOP_ENV,
      NODE_ENV: 'development',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      APP_SECRET: appSecret,
      DATABASE_URL: database.url,
      TRUST_PROXY: '1',
      ADMIN_EMAIL: STAFF.email,
      ADMIN_PASSWORD: STAFF.password,
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', fd, fd],
  });
  closeSync(fd);
  const entry = { name, child, logFile };
  processes.push(entry);
  return entry;
}

const logOf = (entry) => {
  try {
    return readFileSync(entry.logFile, 'utf8');
  } catch {
    return '';
  }
};

async function until(entry, ready, what) {
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (entry.child.exitCode !== null || entry.child.signalCode !== null) throw new Error(`${entry.name} exited (${entry.child.exitCode ?? entry.child.signalCode}):\n${logOf(entry).slice(-3000)}`);
    if (await ready().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`${entry.name}: ${what} did not happen in 120 s`);
    await sleep(50);
  }
}

async function startWeb(name, port) {
  // As the README's production commands run web processes: no jobs, and every photo checked by the worker.
  const entry = startProcess(name, 'dist/server/main.js', { PORT: String(port), RUN_JOBS: 'false', UPLOAD_INLINE_CHECKS: '0', LOG_LEVEL: process.env.BENCH_WEB_LOG ?? 'warn' }, WEB_NODE_FLAGS);
  entry.url = `http://127.0.0.1:${port}`;
  await until(entry, async () => (await fetch(`${entry.url}/api/health`)).status === 200, 'healthy');
  return entry;
}

/** CPU-seconds of the PostgreSQL backends serving the benchmark's database, sampled from pg_stat_activity. */
function backendCpu() {
  const seen = new Map(); // backend pid -> CPU-seconds at its last sample
  let running = Promise.resolve();
  const sample = () =>
    (running = running.then(async () => {
      const { rows } = await admin.query('select pid from pg_stat_activity where datname = $1', [database.name]);
      for (const { pid } of rows) {
        const seconds = cpuSeconds(pid);
        if (seconds !== null) seen.set(pid, seconds);
      }
    }));
  // Backends come and go (a pool closes connections idle for 10 s): what one used after its last sample is lost.
  const timer = setInterval(() => sample().catch(() => {}), 200);
  return {
    /** A reading: every backend's CPU-seconds so far. */
    async reading() {
      await sample();
      return new Map(seen);
    },
    /** CPU-seconds used between two readings (backends born meanwhile count from zero). */
    between: (before, after) => [...after].reduce((sum, [pid, seconds]) => sum + seconds - (before.get(pid) ?? 0), 0),
    async stop() {
      clearInterval(timer);
      await running.catch(() => {});
    },
  };
}

/** Photos accepted without the quality gate (its check failed or took longer than 30 s), in any process. */
const uncheckedPhotos = () => processes.reduce((sum, p) => sum + logOf(p).split('photo accepted unchecked').length - 1, 0);

class AbuseLimit extends Error {}

/** A photo as the wizard's upload sends it: the file as the body, its name in X-File-Name. */
const photoUpload = (bytes, fileName) => ({ body: bytes, headers: { 'content-type': 'image/jpeg', 'x-file-name': encodeURIComponent(fileName) } });

/** The shop behind its two web processes, as a load balancer spreads requests: one after the other. */
function shopClient(webs) {
  let next = 0;
  return async function request(method, url, { address, json, upload, body: raw, headers = {}, expect = 200 }) {
    const web = webs[next++ % webs.length];
    const contentType = json ? { 'content-type': 'application/json' } : upload ? upload.headers : {};
    const response = await send(`${web.url}${url}`, {
      method,
      headers: { 'x-forwarded-for': address, ...contentType, ...headers },
      body: json ? JSON.stringify(json) : upload ? upload.body : raw,
    });
    const { text } = response;
    const body = text && response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text;
    if (response.status === 429 && ABUSE_CODES.has(body?.error?.code)) throw new AbuseLimit(`${method} ${url}: 429 ${body.error.code}`);
    if (![expect].flat().includes(response.status)) throw new Error(`${method} ${url} on ${web.name}: ${response.status} ${text.slice(0, 300)}`);
    return { body, headers: response.headers, status: response.status };
  };
}

async function timed(list, fn) {
  const t = performance.now();
  const result = await fn();
  list.push(performance.now() - t);
  return result;
}

/** One customer's order from draft to drafts; every step's time goes into `times`. */
async function customer({ request, staffCookie, photos, address, index, times, paidAt, draftsAt }) {
  const draft = (await timed(times.draft, () => request('POST', '/api/orders', { address, expect: 201, json: { language: 'de', selection: SELECTION, photoConsent: true, photoConsentVersion: '2026-11-01' } }))).body;
  const token = { 'x-draft-token': draft.draftToken };
  const queue = [...photos];
  await Promise.all(
    Array.from({ length: PARALLEL_UPLOADS }, async () => {
      for (let item = queue.shift(); item; item = queue.shift()) {
        const sent = performance.now();
        const answer = await timed(times.upload, () => request('POST', `/api/orders/${draft.orderId}/uploads`, { address, upload: item.upload, headers: token, expect: [201, 202] }));
        // 202: taken, its check runs in the worker; the verdict is asked for as the wizard asks.
        if (answer.status === 202) {
          times.deferred.push(1);
          for (let asked = 0; ; asked++) {
            await sleep(checkPollDelayMs(asked));
            const { body } = await request('GET', `/api/orders/${draft.orderId}/uploads/${answer.body.id}`, { address, headers: token });
            if (body.state === 'accepted') break;
            if (body.state === 'refused') throw new Error(`photo ${item.fileName} of ${draft.orderId} refused by the worker: ${body.code}`);
          }
        }
        times.verdict.push(performance.now() - sent);
      }
    }),
  );
  const session = (
    await timed(times.checkout, () =>
      request('POST', `/api/orders/${draft.orderId}/checkout`, {
        address,
        headers: token,
        json: { language: 'de', selection: SELECTION, email: `load-${index}@example.de`, waiverAccepted: true, waiverTextVersion: '2026-11-01' },
      }),
    )
  ).body;

  // What the sandbox's checkout page sends when the customer pays.
  const event = sandboxPaidEvent({ appSecret, sessionId: session.sessionId, orderId: draft.orderId, amountCents: PRICE_CENTS, tag: `load_${index}` });
  const paid = performance.now();
  paidAt.push(paid);
  const answer = await timed(times.webhook, () =>
    request('POST', '/api/payments/webhook', {
      address: '198.18.0.1',
      headers: { 'content-type': 'application/json', 'stripe-signature': event.signature },
      body: event.body,
    }),
  );
  if (answer.body.outcome !== 'paid') throw new Error(`payment event for ${draft.orderId}: ${answer.body.outcome}`);

  // Staff's view of the order's studio job: its drafts exist when the job is done.
  const staff = { address: STAFF_ADDRESS, headers: { cookie: staffCookie } };
  const deadline = paid + DRAFTS_TIMEOUT_MS;
  for (;;) {
    await sleep(POLL_MS);
    const { jobs } = (await request('GET', `/api/admin/orders/${draft.orderId}/studio`, staff)).body;
    const job = jobs.find((j) => j.queue === 'studio.drafts');
    if (job?.status === 'done') break;
    if (job && !['pending', 'running'].includes(job.status)) throw new Error(`studio job of ${draft.orderId}: ${job.status} ${job.lastError ?? ''}`);
    if (performance.now() > deadline) throw new Error(`no drafts for ${draft.orderId} ${DRAFTS_TIMEOUT_MS / 1000} s after payment (job ${job?.status ?? 'missing'})`);
  }
  const done = performance.now();
  times.drafts.push(done - paid);
  draftsAt.push(done);
  const detail = (await request('GET', `/api/admin/orders/${draft.orderId}`, staff)).body;
  const drafts = (detail.results ?? detail.order?.results ?? []).filter((r) => r.status === 'draft').length;
  if (drafts < 3) throw new Error(`order ${draft.orderId}: ${drafts} drafts after its job was done`);
}

try {
  await admin.connect();
  buildIfChanged();
  database = await benchDatabase('load');
  const photoFiles = await phonePhotos();
  const photoMb = photoFiles.reduce((sum, p) => sum + p.length, 0) / photoFiles.length / 1024 / 1024;
  const photoMeta = await sharp(photoFiles[0]).metadata();
  // The same photos for every customer: the benchmark's own memory and CPU stay small.
  const photos = photoFiles.map((bytes, i) => ({ fileName: `IMG_${4000 + i}.jpg`, upload: photoUpload(bytes, `IMG_${4000 + i}.jpg`) }));
  console.log(`${PHOTOS_PER_ORDER} photos per order, ${photoMeta.width}×${photoMeta.height}, ${photoMb.toFixed(1)} MB on average; package ${PACKAGE}`);

  // The first web process migrates the new database and creates the staff account; then the others start.
  const web1 = await startWeb('web 1', PORTS[0]);
  const [web2] = await Promise.all([
    startWeb('web 2', PORTS[1]),
    (async () => {
      const worker = startProcess('worker', 'dist/server/worker.js', { LOG_LEVEL: 'info' });
      await until(worker, async () => logOf(worker).includes('worker is running'), 'start');
    })(),
  ]);
  const worker = processes.find((p) => p.name === 'worker');
  const webs = [web1, web2];
  const pids = { web1: web1.child.pid, web2: web2.child.pid, worker: worker.child.pid };
  console.log(`web 1 :${PORTS[0]} pid ${pids.web1}, web 2 :${PORTS[1]} pid ${pids.web2}, worker pid ${pids.worker}; database ${database.name}`);

  await sleep(REST_SECONDS * 1000);
  const rest = { web1: rssMb(pids.web1), web2: rssMb(pids.web2), worker: rssMb(pids.worker) };
  console.log(`at rest after ${REST_SECONDS} s: web 1 ${rest.web1.toFixed(0)} MB, web 2 ${rest.web2.toFixed(0)} MB, worker ${rest.worker.toFixed(0)} MB`);

  const request = shopClient(webs);
  const login = await request('POST', '/api/auth/login', { address: STAFF_ADDRESS, json: STAFF });
  const staffCookie = (login.headers.get('set-cookie') ?? '').split(';')[0];

  sampler = rssSampler(pids, 100);
  backends = backendCpu();
  const results = [];
  let abuseRefusals = 0;
  let nextCustomer = 0;
  for (const count of COUNTS) {
    const times = { draft: [], upload: [], verdict: [], deferred: [], checkout: [], webhook: [], drafts: [] };
    const paidAt = [];
    const draftsAt = [];
    sampler.reset();
    const uncheckedBefore = uncheckedPhotos();
    const cpuBefore = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuSeconds(pid)]));
    const pgBefore = await backends.reading();
    const machineBefore = machineBusySeconds();
    const benchBefore = process.cpuUsage();
    const phaseStart = performance.now();
    const outcomes = await Promise.allSettled(
      Array.from({ length: count }, () => {
        const index = nextCustomer++;
        // A distinct documentation-range address per customer (198.51.100.0/24, then 203.0.113.0/24).
        const address = index < 250 ? `198.51.100.${index + 1}` : `203.0.113.${index - 249}`;
        return customer({ request, staffCookie, photos, address, index, times, paidAt, draftsAt });
      }),
    );
    const phaseSeconds = (performance.now() - phaseStart) / 1000;
    const failures = outcomes.filter((o) => o.status === 'rejected').map((o) => o.reason);
    abuseRefusals += failures.filter((e) => e instanceof AbuseLimit).length;
    const errors = failures.filter((e) => !(e instanceof AbuseLimit));
    if (errors.length) {
      for (const e of errors.slice(0, 5)) console.error(e);
      throw new Error(`${errors.length} of ${count} customers failed`);
    }
    const cpu = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuSeconds(pid) - cpuBefore[name]]));
    cpu.postgres = backends.between(pgBefore, await backends.reading());
    const benchUsage = process.cpuUsage(benchBefore);
    const benchCpu = (benchUsage.user + benchUsage.system) / 1e6;
    const peaks = sampler.peaks();
    const orders = draftsAt.length;
    const cpuTotal = cpu.web1 + cpu.web2 + cpu.worker + cpu.postgres;
    const ordersPerMinute = orders / ((Math.max(...draftsAt) - Math.min(...paidAt)) / 60_000);
    console.log(
      `\n${count} customers at once: ${orders} orders in ${phaseSeconds.toFixed(0)} s; CPU-s per order: web ${((cpu.web1 + cpu.web2) / orders).toFixed(2)} (${((cpu.web1 + cpu.web2) / times.upload.length).toFixed(2)} per upload), worker ${(cpu.worker / orders).toFixed(2)}, PostgreSQL backends ${(cpu.postgres / orders).toFixed(2)}`,
    );
    // Whether the shop had the machine's cores to itself: the CPU time everything else used meanwhile.
    const machine = machineBusySeconds() - machineBefore;
    console.log(
      `machine: ${os.cpus().length} cores busy ${((machine / phaseSeconds / os.cpus().length) * 100).toFixed(0)} % of the phase; the shop ${(cpuTotal / phaseSeconds).toFixed(2)} cores, this benchmark ${(benchCpu / phaseSeconds).toFixed(2)}, everything else ${((machine - cpuTotal - benchCpu) / phaseSeconds).toFixed(2)}`,
    );
    const c = `${count} cust.`;
    const ms = (list) => `${Math.round(percentile(list, 50))} / ${Math.round(percentile(list, 95))} ms`;
    printFigure(`${c}: draft p50 / p95`, ms(times.draft), '');
    printFigure(`${c}: upload answer p50 / p95`, ms(times.upload), '');
    printFigure(`${c}: photo verdict p50 / p95 (checked by the worker: ${times.deferred.length} of ${times.upload.length})`, ms(times.verdict), '');
    printFigure(`${c}: checkout p50 / p95`, ms(times.checkout), '');
    printFigure(`${c}: webhook p50 / p95`, ms(times.webhook), '');
    printFigure(`${c}: payment to drafts p50 / p95`, `${(percentile(times.drafts, 50) / 1000).toFixed(1)} / ${(percentile(times.drafts, 95) / 1000).toFixed(1)} s`, '');
    printFigure(`${c}: orders per minute, payment to drafts`, ordersPerMinute, '/min');
    printFigure(`${c}: CPU-s per order (web, worker, PG)`, cpuTotal / orders, 's');
    printFigure(`${c}: photos accepted unchecked (gate timed out)`, uncheckedPhotos() - uncheckedBefore, '', '0');
    printFigure(`${c}: peak RSS web 1 / web 2 / worker`, `${peaks.web1.toFixed(0)} / ${peaks.web2.toFixed(0)} / ${peaks.worker.toFixed(0)} MB`, '');
    results.push({ count, times, ordersPerMinute, cpuPerOrder: cpuTotal / orders, peaks });
  }

  // Growth from the second largest to the largest count (10 to 50; smoke: 1 to 2).
  const [a, b] = results.length > 1 ? results.slice(-2) : [null, results[0]];
  console.log('');
  if (a) {
    const g = `${a.count}→${b.count}`;
    printFigure(`growth ${g}: CPU-s per order`, b.cpuPerOrder / a.cpuPerOrder, 'x', '<= 1.2');
    for (const step of ['draft', 'upload', 'verdict', 'checkout', 'webhook', 'drafts']) {
      printFigure(`growth ${g}: ${step === 'drafts' ? 'payment to drafts' : step} p95`, percentile(b.times[step], 95) / percentile(a.times[step], 95), 'x');
    }
    printFigure(`growth ${g}: orders per minute`, b.ordersPerMinute / a.ordersPerMinute, 'x');
  }
  printFigure(`upload answer p95 at ${b.count} customers`, Math.round(percentile(b.times.upload, 95)), 'ms', '<= 2 s');
  printFigure('web process at rest (larger of 2)', Math.round(Math.max(rest.web1, rest.web2)), 'MB', '<= 120 MB');
  printFigure('web process under load, peak (larger of 2)', Math.round(Math.max(...results.map((r) => Math.max(r.peaks.web1, r.peaks.web2)))), 'MB', '<= 250 MB');
  printFigure('worker peak', Math.round(Math.max(...results.map((r) => r.peaks.worker))), 'MB', '<= 400 MB');
  printFigure('answers refused by the abuse limits', abuseRefusals, '', '0');
  for (const p of processes) {
    const lines = logOf(p).split('\n').filter((l) => /"level":(40|50|60)/.test(l));
    if (lines.length) console.log(`${p.name}: ${lines.length} warnings or errors logged, the first: ${lines[0].slice(0, 400)}`);
  }
  console.log(`\nwhole benchmark: ${((performance.now() - started) / 1000).toFixed(0)} s`);
} catch (error) {
  for (const p of processes) {
    const log = logOf(p).trim();
    if (log) console.error(`--- last log lines of ${p.name} ---\n${log.split('\n').slice(-15).join('\n')}`);
  }
  throw error;
} finally {
  await cleanup();
}
