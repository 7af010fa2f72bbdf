// `npm run bench [-- name] [-- --smoke]`: runs every benchmark under bench/ (or those whose file name contains
// `name`), each in a process of its own, and ends with one table of every figure: value, target, met or not.
// --smoke (BENCH_SMOKE=1) runs each with tiny sizes and once, so CI notices a benchmark that no longer runs to
// its end; its figures are printed but mean nothing.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from './build-info.mjs';

const args = process.argv.slice(2);
const smoke = args.includes('--smoke');
const only = args.find((a) => !a.startsWith('--'));
const files = readdirSync(path.join(ROOT, 'bench'))
  .filter((f) => f.endsWith('.mjs') || f.endsWith('.bench.ts'))
  .filter((f) => !['lib.mjs', 'report.mjs'].includes(f))
  .filter((f) => !only || f.includes(only))
  .sort();
if (files.length === 0) {
  console.error(`no benchmark matches "${only}"`);
  process.exit(2);
}

const reportDir = mkdtempSync(path.join(os.tmpdir(), 'shop-bench-report-'));
const report = path.join(reportDir, 'figures.jsonl');
const outcomes = [];
for (const file of files) {
  const name = file.replace(/\.(bench\.ts|mjs)$/, '');
  console.log(`\n== bench/${file}${smoke ? ' (smoke)' : ''} ==`);
  const started = performance.now();
  // TypeScript benchmarks use the app's modules in-process (seeding what has no HTTP route yet).
  const command = file.endsWith('.ts') ? ['--import', 'tsx', '--import', './scripts/ignore-styles.mjs', path.join('bench', file)] : [path.join('bench', file)];
  const result = spawnSync(process.execPath, command, {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, BENCH_REPORT: report, BENCH_NAME: name, ...(smoke ? { BENCH_SMOKE: '1' } : {}) },
  });
  outcomes.push({ name, status: result.status ?? 1, signal: result.signal, seconds: (performance.now() - started) / 1000 });
}

const figures = (() => {
  try {
    return readFileSync(report, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
  } catch {
    return [];
  }
})();
rmSync(reportDir, { recursive: true, force: true });

const shown = (f) => (typeof f.value === 'number' ? `${Number.isInteger(f.value) ? f.value : f.value.toFixed(2)} ${f.unit}`.trim() : String(f.value));
const rows = [['benchmark', 'figure', 'value', 'target', 'met']];
for (const outcome of outcomes) {
  for (const f of figures.filter((x) => x.bench === outcome.name)) {
    rows.push([outcome.name, f.name, shown(f), f.target || '–', smoke ? '(smoke)' : f.verdict === 'met' ? 'yes' : f.verdict === 'not met' ? 'NO' : '–']);
  }
  rows.push([outcome.name, 'ran to its end', `${outcome.seconds.toFixed(0)} s`, 'exit 0', outcome.status === 0 ? 'yes' : `NO (${outcome.signal ?? `exit ${outcome.status}`})`]);
}
const widths = rows[0].map((_, i) => Math.min(i === 1 ? 70 : 40, Math.max(...rows.map((r) => r[i].length))));
const line = (r) => r.map((cell, i) => (cell.length > widths[i] ? `${cell.slice(0, widths[i] - 1)}…` : cell.padEnd(widths[i]))).join('  ');
console.log(`\n== all figures${smoke ? ' (smoke run: sizes too small to judge)' : ''} ==`);
console.log(line(rows[0]));
console.log(widths.map((w) => '-'.repeat(w)).join('  '));
for (const row of rows.slice(1)) console.log(line(row));
const failed = outcomes.filter((o) => o.status !== 0);
if (!smoke) {
  const missed = figures.filter((f) => f.verdict === 'not met').length;
  console.log(`\n${figures.length} figures, ${missed} targets not met, ${failed.length} of ${outcomes.length} benchmarks failed`);
} else {
  console.log(`\n${failed.length} of ${outcomes.length} benchmarks failed`);
}
process.exit(failed.length ? 1 : 0);
