// Small helpers shared by the benchmarks: start the built shop, wait for health, stop it.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { record } from './report.mjs';
import { once, stopChild, stopOnExit } from './support/processes.mjs';

export { SMOKE } from './report.mjs';

/**
 * Node's flags for a shop process, as package.json's start and worker scripts and the README's production
 * commands give them: young-generation semi-spaces of 4 MB instead of up to 16 (measured: 22 MB less at rest,
 * 40 MB less under load, about 5 % more CPU per request; 1 MB saved more but cost 40 % more CPU); and `gc()`,
 * with which a process running jobs collects the image buffers a job left (src/server/jobs/garbage.ts).
 */
export const SHOP_NODE_FLAGS = ['--max-semi-space-size=4', '--expose-gc'];

/**
 * A web process without jobs (RUN_JOBS=false, the README's production web command) also caps V8's old generation
 * at 128 MB: under bench/load's 50 customers its heap grew to about 150 MB of mostly garbage before V8 collected
 * it (web peak 290–307 MB); capped, V8 collects sooner (peak 171–206 MB) for about 0.2 CPU-seconds more per
 * order in the web processes (of about 6.3 in all). The same cap at 96 MB gave the same peak: what lives is far
 * below it. The worker and the embedded shop keep V8's default (their heap holds little garbage: the cap saved
 * the worker nothing).
 * With the cap alone V8 let the old generation grow by only about a third of what lives before collecting, and
 * the buffers of request bodies count against that growth: a full collection every five or six uploads (its
 * helper threads took about 30 % of both cores while 150 photos arrived). `--heap-growing-percent=70` lets it
 * grow by 70 %: about a quarter as many collections, 11–16 ms of CPU per 2.7 MB upload instead of 20–27, web
 * peak 210–239 MB at 50 customers instead of 186–206 (docs/decisions/013-small-server.md).
 */
export const WEB_NODE_FLAGS = ['--max-old-space-size=128', '--heap-growing-percent=70'];

/**
 * The environment those commands set for glibc's allocator. At most two arenas: sharp's decoding threads each got
 * an arena of their own and kept freed memory in it (bench/load, 10 customers: web processes 679/622 MB at peak
 * without, 556/542 MB with; the worker's peak 510 to 1 055 MB without, 362 MB with); sharp's documentation names
 * the same remedy. And a fixed threshold of 256 KB above which a block is mapped on its own and given back when
 * freed: glibc's default threshold rises with every large block freed (up to 32 MB), so the image buffers of a
 * render ended in the heap and stayed there (worker peak under bench/load 449–459 MB before, 412–445 after; a
 * check and three drafts of a 12 MP photo in one process peaked at 452–461 MB before, 407–418 after, with no more
 * CPU).
 */
export const SHOP_ENV = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '262144' };

/**
 * The Node arguments of a benchmark's shop process: SHOP_NODE_FLAGS, then BENCH_SHOP_NODE_ARGS (e.g.
 * `--cpu-prof --cpu-prof-dir=/tmp/prof` to see where a figure goes).
 */
export function shopNodeArgs() {
  return [...SHOP_NODE_FLAGS, ...(process.env.BENCH_SHOP_NODE_ARGS ?? '').split(' ').filter(Boolean)];
}

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export function tempDataDir(name) {
  return mkdtempSync(path.join(os.tmpdir(), `shop-bench-${name}-`));
}

/** Starts `node scripts/start.mjs` (what `npm start` runs) and resolves once /api/health answers 200. */
export async function startShop({ port, dataDir, env = {} }) {
  const started = performance.now();
  const child = spawn(process.execPath, [...shopNodeArgs(), 'scripts/start.mjs'], {
    cwd: ROOT,
    env: { ...process.env, ...SHOP_ENV, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', NODE_ENV: 'development', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the shop exited with ${child.exitCode}`);
    try {
      const response = await fetch(`${url}/api/health`);
      if (response.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('the shop did not become healthy in 120 s');
    await new Promise((r) => setTimeout(r, 25));
  }
  const seconds = (performance.now() - started) / 1000;
  return {
    url,
    seconds,
    child,
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGINT');
      await exited;
    },
  };
}

/**
 * startShop on a data folder of its own, with the cleanup (the shop stopped, the folder removed) registered for
 * Ctrl-C and kills at once; the benchmark calls `cleanup` itself when it ends, also after a failure.
 */
export async function startBenchShop(name, { port, env = {} }) {
  const dataDir = tempDataDir(name);
  let shop = null;
  const cleanup = once(async () => {
    await stopChild(shop?.child);
    rmSync(dataDir, { recursive: true, force: true });
  });
  stopOnExit(cleanup);
  shop = await startShop({ port, dataDir, env });
  return { shop, cleanup };
}

export function printFigure(name, value, unit, target) {
  const shown = typeof value === 'number' ? (Number.isInteger(value) ? String(value) : value.toFixed(2)) : value;
  console.log(`${name.padEnd(52)} ${`${shown} ${unit}`.padEnd(18)} ${target ? `(target ${target})` : ''}`);
  record(name, value, unit, target);
}

/** Resident memory of a process (Linux), in MB. */
export function residentMb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  return Math.round(kb / 1024);
}

/** Resident memory after the process sat idle for `seconds` (timers, the first retention run and GC settle). */
export async function idleResidentMb(pid, seconds = 10) {
  await new Promise((r) => setTimeout(r, seconds * 1000));
  return residentMb(pid);
}
