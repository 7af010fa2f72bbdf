// An upload rush on one web process, beside the floor of the same machine (issue 22, the seventeenth stop).
// bench/load's upload answers miss their p95 at 50 customers in the first second, when 150 photos arrive at
// once; a whole bench/load run takes minutes and its tail moves by a third from run to run. This one isolates
// that second: one web process as the README's production commands run it (RUN_JOBS=false,
// UPLOAD_INLINE_CHECKS=0, the web Node flags, on PostgreSQL) takes 50 drafts and then 150 phone photos of 2.7 MB
// at once, three per draft, in four rounds (the first warms the code and is not counted). Then a bare Node
// server on the same machine takes the same rush doing only what no web process can leave out: each body
// streamed into a file of its own in 1 MB writes, fsync, an answer; then once more without the fsync. Printed
// per process: when the last answer came, p95 of the answers, and the CPU per upload on the main thread and on
// the others (V8's collector and compiler helpers, libuv's pool for the file calls, the kernel's work on their
// behalf), medians of the three counted rounds. No target: the figures say how far the web process is from what
// this machine allows (2026-11-29, a slower machine, two runs: 2.3 and 1.9 s against 1.9 and 1.6 s with fsync,
// 1.3 and 0.8 s without).
// Smoke (BENCH_SMOKE=1): 5 drafts, small photos, two rounds.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { buildIfChanged } from '../scripts/build-info.mjs';
import { ROOT, SHOP_ENV, SMOKE, WEB_NODE_FLAGS, printFigure, shopNodeArgs, tempDataDir } from './lib.mjs';
import { benchDatabase } from './support/bench-database.mjs';
import { phonePhotos, send } from './support/customer.mjs';
import { once, stopChild, stopOnExit } from './support/processes.mjs';

const CUSTOMERS = SMOKE ? 5 : 50;
const PHOTOS_EACH = 3; // as the wizard sends them at once (src/web/pages/order/use-photo-uploads.ts)
const ROUNDS = SMOKE ? 2 : 4;
const SELECTION = { gender: 'male', style: 'professional', package: 'basic', location: null, outfit: null, extras: [] };
const port = Number(process.env.BENCH_PORT ?? 3960);
const base = `http://127.0.0.1:${port}`;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const TICKS = 100; // USER_HZ, as /proc reports utime and stime on Linux
/** CPU-seconds of a process's main thread and of all its other threads (Linux: /proc/<pid>/task). */
function threadCpu(pid) {
  const split = { main: 0, others: 0 };
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      split[Number(task) === pid ? 'main' : 'others'] += (Number(fields[11]) + Number(fields[12])) / TICKS;
    } catch {
      // a thread that ended meanwhile
    }
  }
  return split;
}

// The floor: a body streamed into a file of its own in writes of 1 MB, fsync (SYNC=1: the disk's share), close, an answer; a draft
// is only answered.
const BARE_SERVER = `
const { createServer } = require('node:http');
const { open } = require('node:fs/promises');
const { randomUUID } = require('node:crypto');
let n = 0;
createServer(async (req, res) => {
  if (req.url.endsWith('/uploads')) {
    const file = await open(process.env.FILES + '/' + n++, 'w');
    // Gathered into writes of 1 MB, as the shop's local store writes (one file call per chunk costs more).
    let batch = [];
    let size = 0;
    for await (const chunk of req) {
      batch.push(chunk);
      size += chunk.length;
      if (size >= 1048576) {
        await file.writev(batch);
        batch = [];
        size = 0;
      }
    }
    if (batch.length) await file.writev(batch);
    if (process.env.SYNC === '1') await file.sync();
    await file.close();
    res.writeHead(202, { 'content-type': 'application/json' }).end(JSON.stringify({ state: 'checking', id: randomUUID() }));
  } else if (req.url === '/api/health') {
    res.end('ok');
  } else {
    req.resume();
    req.on('end', () => res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ orderId: randomUUID(), draftToken: 'none' })));
  }
}).listen(${port}, '127.0.0.1');
`;

const dataDir = tempDataDir('photo-rush');
let database = null;
let child = null;
const cleanup = once(async () => {
  await stopChild(child);
  await database?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});
stopOnExit(cleanup);

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** The rounds against whatever listens on the port: answer times and the server's CPU per upload, per round. */
async function rush(photos, label) {
  const rounds = [];
  for (let round = 0; round < ROUNDS; round++) {
    // Drafts first, each from an address of its own (the abuse limits count per address), then a pause.
    const drafts = await Promise.all(
      Array.from({ length: CUSTOMERS }, async (_, i) => {
        const address = `198.51.${100 + round}.${i + 1}`;
        const answer = await send(`${base}/api/orders`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
          body: JSON.stringify({ language: 'de', selection: SELECTION, photoConsent: true, photoConsentVersion: '2026-11-01' }),
        });
        if (answer.status !== 201) throw new Error(`${label}: draft ${answer.status} ${answer.text.slice(0, 300)}`);
        return { ...JSON.parse(answer.text), address };
      }),
    );
    await sleep(1500);
    const before = threadCpu(child.pid);
    const started = performance.now();
    const times = [];
    await Promise.all(
      drafts.flatMap((draft) =>
        photos.map(async (photo, k) => {
          const sent = performance.now();
          const answer = await send(`${base}/api/orders/${draft.orderId}/uploads`, {
            method: 'POST',
            headers: { 'content-type': 'image/jpeg', 'x-file-name': `IMG_${4000 + k}.jpg`, 'x-forwarded-for': draft.address, 'x-draft-token': draft.draftToken },
            body: photo,
          });
          if (answer.status !== 202) throw new Error(`${label}: upload ${answer.status} ${answer.text.slice(0, 300)}`);
          times.push(performance.now() - sent);
        }),
      ),
    );
    const last = performance.now() - started;
    await sleep(300); // the last answers' close and fsync are counted too
    const after = threadCpu(child.pid);
    times.sort((a, b) => a - b);
    const count = times.length;
    const result = {
      last,
      p95: times[Math.ceil(count * 0.95) - 1],
      main: ((after.main - before.main) * 1000) / count,
      others: ((after.others - before.others) * 1000) / count,
    };
    console.log(
      `${label} round ${round + 1}${round === 0 && ROUNDS > 1 ? ' (warm-up, not counted)' : ''}: last answer ${result.last.toFixed(0)} ms, p95 ${result.p95.toFixed(0)} ms; CPU per upload ${result.main.toFixed(1)} ms main thread, ${result.others.toFixed(1)} ms other threads`,
    );
    rounds.push(result);
  }
  const counted = rounds.length > 1 ? rounds.slice(1) : rounds;
  return Object.fromEntries(['last', 'p95', 'main', 'others'].map((key) => [key, median(counted.map((r) => r[key]))]));
}

async function healthy(what) {
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${what} exited (${child.exitCode ?? child.signalCode})`);
    if (await fetch(`${base}/api/health`).then((r) => r.ok, () => false)) return;
    if (Date.now() > deadline) throw new Error(`${what} did not answer in 120 s`);
    await sleep(100);
  }
}

try {
  const photos = await phonePhotos(PHOTOS_EACH);
  const mb = photos.reduce((sum, p) => sum + p.length, 0) / photos.length / 1024 / 1024;
  const { width, height } = await sharp(photos[0]).metadata();
  console.log(`${CUSTOMERS} drafts, then ${CUSTOMERS * PHOTOS_EACH} photos of ${width}×${height} (${mb.toFixed(1)} MB on average) at once; ${ROUNDS} rounds`);

  buildIfChanged();
  database = await benchDatabase('photo_rush');
  child = spawn(process.execPath, [...WEB_NODE_FLAGS, ...shopNodeArgs(), 'dist/server/main.js'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      ...SHOP_ENV,
      NODE_ENV: 'development',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: path.join(dataDir, 'shop'),
      APP_SECRET: randomBytes(32).toString('hex'),
      DATABASE_URL: database.url,
      TRUST_PROXY: '1',
      LOG_LEVEL: 'warn',
      RUN_JOBS: 'false',
      UPLOAD_INLINE_CHECKS: '0',
    },
  });
  await healthy('the web process');
  const shop = await rush(photos, 'web process');
  await stopChild(child);

  // The floor twice: with fsync, as the shop stores a photo (the disk's pace), and without (the CPU's alone).
  const bare = {};
  for (const sync of [true, false]) {
    const files = path.join(dataDir, sync ? 'bare-sync' : 'bare');
    mkdirSync(files);
    writeFileSync(path.join(dataDir, 'bare-server.cjs'), BARE_SERVER);
    child = spawn(process.execPath, [...WEB_NODE_FLAGS, path.join(dataDir, 'bare-server.cjs')], { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, FILES: files, SYNC: sync ? '1' : '0' } });
    await healthy('the bare server');
    bare[sync ? 'sync' : 'nosync'] = await rush(photos, sync ? 'bare server' : 'bare server without fsync');
    await stopChild(child);
    rmSync(files, { recursive: true, force: true });
  }

  const uploads = CUSTOMERS * PHOTOS_EACH;
  const perUpload = (r) => `${r.main.toFixed(1)} / ${r.others.toFixed(1)}`;
  printFigure(`web process: last of ${uploads} answers, p95`, `${Math.round(shop.last)} / ${Math.round(shop.p95)}`, 'ms', '');
  printFigure('web process: CPU per upload, main / other threads', perUpload(shop), 'ms', '');
  printFigure(`bare server: last of ${uploads} answers, p95`, `${Math.round(bare.sync.last)} / ${Math.round(bare.sync.p95)}`, 'ms', '');
  printFigure('bare server: CPU per upload, main / other threads', perUpload(bare.sync), 'ms', '');
  printFigure(`bare server without fsync: last answer, p95`, `${Math.round(bare.nosync.last)} / ${Math.round(bare.nosync.p95)}`, 'ms', '');
  printFigure('bare server without fsync: CPU per upload', perUpload(bare.nosync), 'ms', '');
  printFigure('web process against the bare server: CPU per upload', Math.round(((shop.main + shop.others) / (bare.sync.main + bare.sync.others)) * 10) / 10, 'x', '');
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  await cleanup();
}
