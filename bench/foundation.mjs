// Issue 2 figures: cold start (first and later run), GET /api/catalog under load, home page JS size;
// issue 13: memory of the idle embedded shop (PGlite) on its first and later runs.
// Smoke (BENCH_SMOKE=1): dist/ is kept (the first start builds only if the sources changed; a smoke run must not
// pull the build from under a shop someone else runs from this checkout), 1 s idle instead of 10, 1 s of load.
import { rmSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import autocannon from 'autocannon';
import { ROOT, SMOKE, idleResidentMb, printFigure, startShop, tempDataDir } from './lib.mjs';
import { once, stopChild, stopOnExit } from './support/processes.mjs';

const port = Number(process.env.BENCH_PORT ?? 3901);
const dataDir = tempDataDir('foundation');
const idleSeconds = SMOKE ? 1 : 10;
const loadSeconds = SMOKE ? 1 : 10;

let first = null;
let later = null;
const cleanup = once(async () => {
  await stopChild(first?.child);
  await stopChild(later?.child);
  rmSync(dataDir, { recursive: true, force: true });
});
stopOnExit(cleanup);

try {
  // First run: no build, no database yet (what a fresh clone meets after npm install).
  if (SMOKE) console.log('smoke: dist/ kept, the first start builds only if the sources changed');
  else rmSync(path.join(ROOT, 'dist'), { recursive: true, force: true });
  first = await startShop({ port, dataDir });
  const firstIdle = await idleResidentMb(first.child.pid, idleSeconds);
  await stopChild(first.child);
  printFigure(`cold start to healthy, first run (${SMOKE ? 'new DB' : 'build + new DB'})`, first.seconds, 's', '<= 30 s');
  printFigure('memory of the idle embedded shop, first run', firstIdle, 'MB', '<= 400 MB');

  later = await startShop({ port, dataDir });
  printFigure('cold start to healthy, later run', later.seconds, 's', '<= 5 s');
  printFigure('memory of the idle embedded shop, later run', await idleResidentMb(later.child.pid, idleSeconds), 'MB', '<= 400 MB');

  const result = await autocannon({ url: `${later.url}/api/catalog`, connections: 20, duration: loadSeconds });
  printFigure(`GET /api/catalog requests per second (${loadSeconds} s, 20 conn.)`, Math.round(result.requests.average), 'req/s');
  printFigure('GET /api/catalog p99 latency', result.latency.p99, 'ms');
  if (result.non2xx || result.errors) printFigure('GET /api/catalog failed requests', result.non2xx + result.errors, '');

  // What the home page runs: the entry, the app it loads right after the first paint, and their static imports
  // (pages the visitor has not opened are loaded on demand and not counted).
  const html = await (await fetch(`${later.url}/`)).text();
  const entries = [...html.matchAll(/<script[^>]+src="([^"]+\.js)"/g), ...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g)].map((m) => m[1]);
  const seen = new Set();
  let gzipped = 0;
  const visit = async (src, followDynamic) => {
    const url = new URL(src, later.url).href;
    if (seen.has(url)) return;
    seen.add(url);
    const body = Buffer.from(await (await fetch(url)).arrayBuffer());
    gzipped += gzipSync(body, { level: 9 }).length;
    const code = body.toString('utf8');
    const imports = [...code.matchAll(/(?:from|import)\s*["'`](\.\/[^"'`]+\.js)["'`]/g)].map((m) => m[1]);
    if (followDynamic) imports.push(...[...code.matchAll(/import\(\s*["'`](\.\/[^"'`]+\.js)["'`]\s*\)/g)].map((m) => m[1]));
    for (const next of imports) await visit(new URL(next, url).href, false);
  };
  for (const src of new Set(entries)) await visit(src, true);
  printFigure(`home page JavaScript, gzipped (${seen.size} files)`, Math.round(gzipped / 102.4) / 10, 'KB', '<= 100 KB');
} finally {
  await cleanup();
}
