// Issue 6 figures: Lighthouse (mobile settings: simulated slow 4G and a 4x slower CPU) on the home page and
// one guide, driving Debian's Chromium. Each page is measured three times; the median run is printed.
// Smoke (BENCH_SMOKE=1): the home page only, measured once (LIGHTHOUSE_RUNS still wins when set).
import { existsSync, rmSync } from 'node:fs';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { SMOKE, printFigure, startShop, tempDataDir } from './lib.mjs';
import { once, stopChild, stopOnExit } from './support/processes.mjs';

const port = Number(process.env.BENCH_PORT ?? 3906);
const runs = Number(process.env.LIGHTHOUSE_RUNS ?? (SMOKE ? 1 : 3));
const chromePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const missingChromium = `Chromium not found at ${chromePath}: install it with \`apt-get update && apt-get install -y chromium\` (or set CHROMIUM_PATH)`;
const dataDir = tempDataDir('lighthouse');
let shop = null;
let chrome = null;
// Chrome runs in a process group of its own (chrome-launcher detaches it): a Ctrl-C reaches it only through this.
const cleanup = once(async () => {
  await chrome?.kill();
  await stopChild(shop?.child);
  rmSync(dataDir, { recursive: true, force: true });
});
stopOnExit(cleanup);

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

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
  const pages = [
    ['home', '/'],
    ['guide', '/bewerbungsfotos-erstellen'],
  ];
  for (const [name, path] of SMOKE ? pages.slice(0, 1) : pages) {
    const results = [];
    for (let i = 0; i < runs; i++) {
      // localhost, not 127.0.0.1: Lighthouse counts localhost as a secure origin, as a real https host is.
      const { lhr } = await lighthouse(`http://localhost:${port}${path}`, { port: chrome.port, output: 'json', logLevel: 'error' });
      results.push(lhr);
    }
    console.log(`Lighthouse, mobile, ${name} page ${path} (median of ${runs} runs):`);
    const pick = (read) => median(results.map(read));
    const score = (category) => pick((lhr) => Math.round(lhr.categories[category].score * 100));
    printFigure(`  ${name}: performance`, score('performance'), '', '>= 95');
    printFigure(`  ${name}: accessibility`, score('accessibility'), '', '100');
    printFigure(`  ${name}: best practices`, score('best-practices'), '', '100');
    printFigure(`  ${name}: SEO`, score('seo'), '', '100');
    printFigure(`  ${name}: largest contentful paint`, pick((lhr) => lhr.audits['largest-contentful-paint'].numericValue / 1000), 's', '< 1.5 s');
    printFigure(`  ${name}: cumulative layout shift`, pick((lhr) => lhr.audits['cumulative-layout-shift'].numericValue), '', '0');
    printFigure(`  ${name}: total blocking time`, Math.round(pick((lhr) => lhr.audits['total-blocking-time'].numericValue)), 'ms');
    const failing = new Set(
      results.flatMap((lhr) =>
        Object.values(lhr.categories).flatMap((category) =>
          category.id === 'performance' ? [] : category.auditRefs.filter((ref) => ref.weight > 0 && lhr.audits[ref.id].score !== null && lhr.audits[ref.id].score < 1).map((ref) => ref.id),
        ),
      ),
    );
    if (failing.size) console.log(`  audits not passed: ${[...failing].join(', ')}`);
  }
} catch (error) {
  console.error(error.message === missingChromium ? missingChromium : error);
  process.exitCode = 1;
} finally {
  await cleanup();
}
