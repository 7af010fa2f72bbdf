// `npm test`: every test. Unit and integration tests (PGlite always, PostgreSQL too when DATABASE_URL
// is set), then the production build, then browser journeys in Debian's Chromium.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { buildIsCurrent, ROOT } from './build-info.mjs';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const args = process.argv.slice(2);
const e2eOnly = args.includes('--e2e-only');
const skipE2e = args.includes('--no-e2e');

function run(command, commandArgs, env = {}) {
  const started = Date.now();
  const result = spawnSync(command, commandArgs, { cwd: ROOT, stdio: 'inherit', env: { ...process.env, ...env } });
  console.log(`(${command} ${commandArgs[0] ?? ''}: ${Math.round((Date.now() - started) / 1000)} s)`);
  return result.status ?? 1;
}

function ensureChromium() {
  if (existsSync(CHROMIUM)) return;
  const install = 'apt-get update && apt-get install -y chromium';
  if (typeof process.getuid === 'function' && process.getuid() === 0) {
    console.log(`Chromium is missing; installing Debian's chromium (${install})...`);
    const status = run('sh', ['-c', `DEBIAN_FRONTEND=noninteractive ${install.replace('install -y', 'install -y -q')}`]);
    if (status === 0 && existsSync(CHROMIUM)) return;
  }
  console.error(`The browser tests need Debian's Chromium at ${CHROMIUM}. Install it with:\n  sudo sh -c '${install}'`);
  process.exit(1);
}

function counts(file, kind) {
  try {
    const report = JSON.parse(readFileSync(file, 'utf8'));
    if (kind === 'vitest') return { passed: report.numPassedTests, failed: report.numFailedTests + (report.numRuntimeErrorTestSuites ?? 0) };
    const stats = report.stats ?? {};
    return { passed: stats.expected ?? 0, failed: (stats.unexpected ?? 0) + (stats.flaky ?? 0) };
  } catch {
    return { passed: 0, failed: 1 };
  }
}

// The project brings its runtime (the `node` package, docs/decisions/016-runtime.md): npm puts it first on the path.
console.log(`Node ${process.version} (${process.execPath})`);

const tmp = path.join(ROOT, '.tmp');
mkdirSync(tmp, { recursive: true });
const vitestReport = path.join(tmp, 'vitest.json');
const playwrightReport = path.join(tmp, 'playwright.json');
rmSync(vitestReport, { force: true });
rmSync(playwrightReport, { force: true });

if (!skipE2e) ensureChromium();

let failedSteps = 0;
let passed = 0;
let failed = 0;

if (!e2eOnly) {
  console.log(`\n== unit and integration tests (${process.env.DATABASE_URL ? 'PGlite and PostgreSQL' : 'PGlite'}) ==`);
  const status = run('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestReport}`]);
  if (status !== 0) failedSteps++;
  const c = counts(vitestReport, 'vitest');
  passed += c.passed;
  failed += c.failed;
}

if (!skipE2e) {
  // The browser journeys run the production bundle; one built from exactly these sources (its fingerprint,
  // as `npm start` checks it) is used as it is: CI's second run does not build the same bundle again.
  const current = buildIsCurrent();
  console.log(`\n== production build${current ? ': current, built from these sources' : ''} ==`);
  if (!current && run('node', ['scripts/build.mjs']) !== 0) {
    failedSteps++;
    failed++;
  } else {
    console.log('\n== browser tests (Chromium) ==');
    const status = run('npx', ['playwright', 'test']);
    if (status !== 0) failedSteps++;
    const c = counts(playwrightReport, 'playwright');
    passed += c.passed;
    failed += c.failed;
  }
}

if (failedSteps > 0 && failed === 0) failed = failedSteps;
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failedSteps > 0 ? 1 : 0);
