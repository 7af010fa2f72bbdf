// Issue 22 figures: Lighthouse 12 with its default mobile settings (simulated slow 4G, a 4x slower CPU) on
// every public page (the sitemap's, which is PUBLIC_PAGES) and every step of the order wizard, as a new visitor
// gets them (Lighthouse clears the origin's storage before each run, so the wizard is empty), driving Debian's
// Chromium. Each page is measured LIGHTHOUSE_RUNS times (3); the median of each figure is recorded.
// Smoke (BENCH_SMOKE=1): the home page only, measured once (LIGHTHOUSE_RUNS still wins when set).
// Pages behind a secret link (an order's or a team's status, a join link) are left out: a new visitor has none.
// First, the machine's floor: a plain page (a heading and a paragraph, no script, no stylesheet) served by this
// process, measured the same way. Its TBT is the browser's own work on this machine, which no page can go below
// (2026-11-29, seventeenth stop: 0–98 ms over five runs on a slower machine where the shop's pages had 28–366 ms).
import { existsSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { ROOT, SMOKE, printFigure, startShop, tempDataDir } from './lib.mjs';
import { once, stopChild, stopOnExit } from './support/processes.mjs';

const port = Number(process.env.BENCH_PORT ?? 3906);
const runs = Number(process.env.LIGHTHOUSE_RUNS ?? (SMOKE ? 1 : 3));
const chromePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const missingChromium = `Chromium not found at ${chromePath}: install it with \`apt-get update && apt-get install -y chromium\` (or set CHROMIUM_PATH)`;
const dataDir = tempDataDir('lighthouse');
let shop = null;
let chrome = null;
let plain = null;
// Chrome runs in a process group of its own (chrome-launcher detaches it): a Ctrl-C reaches it only through this.
const cleanup = once(async () => {
  await chrome?.kill();
  await new Promise((resolve) => (plain ? plain.close(resolve) : resolve()));
  await stopChild(shop?.child);
  rmSync(dataDir, { recursive: true, force: true });
});
stopOnExit(cleanup);

/** Issue 22's budgets for JavaScript on first load: home, guides and legal pages, and the wizard; others have none. */
const LIGHT_PAGES = ['/', '/bewerbungsfotos-erstellen', '/linkedin-profilbild-erstellen', '/ki-bewerbungsfotos-test', '/impressum', '/datenschutz', '/agb', '/barrierefreiheit', '/ueber-uns', '/widerruf'];
function jsBudget(pagePath) {
  if (LIGHT_PAGES.includes(pagePath)) return '<= 60 KiB';
  if (pagePath.startsWith('/order/')) return '<= 90 KiB';
  return '';
}

/** The wizard's steps, read from the route table the app uses (this file runs without TypeScript). */
function wizardPaths() {
  const source = readFileSync(path.join(ROOT, 'src/web/routes.ts'), 'utf8');
  const list = /ORDER_STEP_PATHS = \[([^\]]+)\]/.exec(source)?.[1];
  if (!list) throw new Error('ORDER_STEP_PATHS not found in src/web/routes.ts');
  return [...list.matchAll(/'([a-z-]+)'/g)].map((m) => `/order/${m[1]}`);
}

/** The public pages as the sitemap lists them (German addresses; the ?lang= variants render the same page). */
async function publicPaths(base) {
  const xml = await fetch(`${base}/sitemap.xml`).then((r) => r.text());
  const paths = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1].replace(/&amp;/g, '&'))).filter((url) => !url.search);
  if (paths.length === 0) throw new Error('the sitemap lists no page');
  return paths.map((url) => url.pathname);
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Console errors and browser issues (a CSP violation is both) of one run, as short lines. */
function problems(lhr) {
  const lines = [];
  for (const item of lhr.audits['errors-in-console']?.details?.items ?? []) lines.push(`console ${item.source ?? ''}: ${String(item.description).slice(0, 160)}`);
  for (const group of lhr.audits['inspector-issues']?.details?.items ?? []) {
    for (const sub of group.subItems?.items ?? []) lines.push(`issue ${group.issueType}: ${String(sub.url ?? sub.directive ?? JSON.stringify(sub)).slice(0, 160)}`);
  }
  return lines;
}

/** One Lighthouse run; a run whose trace went wrong (NO_NAVSTART and the like, on a busy machine) is repeated (up to 5 times). */
async function measure(url, attempts = 5) {
  for (let attempt = 1; ; attempt++) {
    const { lhr } = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error' });
    if (!lhr.runtimeError) return lhr;
    if (attempt >= attempts) throw new Error(`${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    console.log(`  ${url}: ${lhr.runtimeError.code}, measuring again`);
  }
}

const PLAIN_PAGE =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
  '<title>A plain page</title><meta name="description" content="A heading and a paragraph"></head>' +
  '<body><main><h1>A plain page</h1><p>A heading and a paragraph, no script and no stylesheet.</p></main></body></html>';

/** The plain page on an address of its own (localhost, as the shop's), for the machine's floor. */
async function servePlainPage() {
  plain = http.createServer((request, response) => {
    if (request.url !== '/') return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PLAIN_PAGE);
  });
  await new Promise((resolve) => plain.listen(0, '127.0.0.1', resolve));
  return `http://localhost:${plain.address().port}/`;
}

const rows = [];
try {
  if (!existsSync(chromePath)) throw new Error(missingChromium);
  // The shop as `npm start` runs it (production bundle, compression, service worker); the canonical address
  // matches the one Lighthouse opens.
  shop = await startShop({ port, dataDir, env: { PUBLIC_URL: `http://localhost:${port}` } });
  chrome = await chromeLauncher
    .launch({
      chromePath,
      // Interrupts are this script's to handle (the shop stops too), not chrome-launcher's.
      handleSIGINT: false,
      chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    })
    .catch((error) => {
      throw existsSync(chromePath) ? error : new Error(missingChromium);
    });
  // localhost, not 127.0.0.1: Lighthouse counts localhost as a secure origin, as a real https host is.
  const base = `http://localhost:${port}`;
  const publicPages = await publicPaths(base);
  // LIGHTHOUSE_PAGES=/widerruf,/tracking: only these (a closer look at a few pages).
  const only = process.env.LIGHTHOUSE_PAGES?.split(',').map((page) => page.trim()).filter(Boolean);
  const pages = SMOKE ? ['/'] : only?.length ? only : [...publicPages, ...wizardPaths()];
  console.log(`Lighthouse 12, mobile, median of ${runs} run${runs === 1 ? '' : 's'}, ${pages.length} page${pages.length === 1 ? '' : 's'}`);
  const floor = [];
  const plainUrl = await servePlainPage();
  for (let i = 0; i < runs; i++) floor.push(await measure(plainUrl));
  const floorTbt = floor.map((lhr) => Math.round(lhr.audits['total-blocking-time'].numericValue));
  printFigure("this machine's floor: a plain page's TBT", median(floorTbt), 'ms', '');
  if (runs > 1) console.log(`  runs: ${floorTbt.join(', ')} ms`);
  for (const pagePath of pages) {
    const html = await fetch(`${base}${pagePath}`).then((r) => r.text());
    const indexable = !/<meta name="robots" content="[^"]*noindex/.test(html);
    const results = [];
    for (let i = 0; i < runs; i++) results.push(await measure(`${base}${pagePath}`));
    const pick = (read) => median(results.map(read));
    const score = (category) => pick((lhr) => Math.round(lhr.categories[category].score * 100));
    const jsBytes = (lhr) => (lhr.audits['resource-summary'].details.items.find((item) => item.resourceType === 'script')?.transferSize ?? 0);
    const row = {
      page: pagePath,
      perf: score('performance'),
      lcp: pick((lhr) => lhr.audits['largest-contentful-paint'].numericValue / 1000),
      tbt: Math.round(pick((lhr) => lhr.audits['total-blocking-time'].numericValue)),
      cls: Math.round(pick((lhr) => lhr.audits['cumulative-layout-shift'].numericValue) * 1000) / 1000,
      js: Math.round(pick(jsBytes) / 1024),
      a11y: score('accessibility'),
      bp: score('best-practices'),
      seo: indexable ? score('seo') : null,
      problems: [...new Set(results.flatMap(problems))],
      failing: new Set(
        results.flatMap((lhr) =>
          Object.values(lhr.categories).flatMap((category) =>
            category.id === 'performance' || (category.id === 'seo' && !indexable)
              ? []
              : category.auditRefs.filter((ref) => ref.weight > 0 && lhr.audits[ref.id].score !== null && lhr.audits[ref.id].score < 1).map((ref) => ref.id),
          ),
        ),
      ),
    };
    rows.push(row);
    const name = pagePath === '/' ? 'home' : pagePath;
    printFigure(`${name} perf`, row.perf, '', '>= 99');
    printFigure(`${name} LCP`, row.lcp, 's', '< 1.0 s');
    printFigure(`${name} TBT`, row.tbt, 'ms', '< 50 ms');
    printFigure(`${name} CLS`, row.cls, '', '0');
    printFigure(`${name} JS`, row.js, 'KiB', jsBudget(pagePath));
    printFigure(`${name} a11y`, row.a11y, '', '100');
    printFigure(`${name} BP`, row.bp, '', '100');
    if (row.seo !== null) printFigure(`${name} SEO`, row.seo, '', '100');
    printFigure(`${name} errors (console, CSP)`, row.problems.length, '', '0');
    if (row.failing.size) console.log(`  audits not passed: ${[...row.failing].join(', ')}`);
    // LIGHTHOUSE_TASKS=1: each run's blocking time and its long tasks (what TBT is made of), for a closer look.
    if (process.env.LIGHTHOUSE_TASKS) {
      for (const lhr of results) {
        const tasks = lhr.audits['long-tasks']?.details?.items ?? [];
        const listed = tasks.map((task) => `${Math.round(task.duration)} ms at ${Math.round(task.startTime)} (${String(task.url).replace(base, '') || 'page'})`);
        console.log(`  run: TBT ${Math.round(lhr.audits['total-blocking-time'].numericValue)} ms; long tasks: ${listed.join(', ') || 'none'}`);
      }
    }
    for (const line of row.problems) console.log(`  ${line}`);
  }
  // One line per page, for the README and for comparing runs.
  console.log('\npage                              perf  LCP s  TBT ms  CLS    JS KiB  a11y  BP   SEO  errors');
  for (const r of rows) {
    console.log(
      `${r.page.padEnd(34)}${String(r.perf).padEnd(6)}${r.lcp.toFixed(2).padEnd(7)}${String(r.tbt).padEnd(8)}${String(r.cls).padEnd(7)}${String(r.js).padEnd(8)}${String(r.a11y).padEnd(6)}${String(r.bp).padEnd(5)}${String(r.seo ?? '–').padEnd(5)}${r.problems.length}`,
    );
  }
} catch (error) {
  console.error(error.message === missingChromium ? missingChromium : error);
  process.exitCode = 1;
} finally {
  await cleanup();
}
