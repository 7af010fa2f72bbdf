// `npm run bench [-- name] [-- --smoke]`: runs every benchmark under bench/ (or those whose file name contains
// `name`), each in a process of its own, and ends with one table of every figure: value, target, met or not.
// --smoke (BENCH_SMOKE=1) runs each with tiny sizes and once, so CI notices a benchmark that no longer runs to
// its end; its figures are printed but mean nothing.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildIfChanged, ROOT } from './build-info.mjs';

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
// Benchmarks that start the built shop build it when it is stale; once here, before any runs beside another.
buildIfChanged();
const outcomes = [];
/** One benchmark in a process of its own; `buffered`: its output is kept and printed when it ends. */
function runBench(file, index, buffered) {
  const name = file.replace(/\.(bench\.ts|mjs)$/, '');
  const title = `\n== bench/${file}${smoke ? ' (smoke)' : ''} ==`;
  if (!buffered) console.log(title);
  const started = performance.now();
  // TypeScript benchmarks use the app's modules in-process (seeding what has no HTTP route yet).
  const command = file.endsWith('.ts') ? ['--import', 'tsx', '--import', './scripts/ignore-styles.mjs', path.join('bench', file)] : [path.join('bench', file)];
  // Run side by side, each gets ports of its own (two benchmarks' default ports coincide).
  const env = { ...process.env, BENCH_REPORT: report, BENCH_NAME: name, ...(smoke ? { BENCH_SMOKE: '1' } : {}), ...(buffered ? { BENCH_PORT: String(4100 + index * 40) } : {}) };
  const child = spawn(process.execPath, command, { cwd: ROOT, stdio: buffered ? ['ignore', 'pipe', 'pipe'] : 'inherit', env });
  const output = [];
  child.stdout?.on('data', (chunk) => output.push(chunk));
  child.stderr?.on('data', (chunk) => output.push(chunk));
  return new Promise((resolve) => {
    child.on('close', (status, signal) => {
      if (buffered) process.stdout.write(`${title}\n${Buffer.concat(output).toString()}`);
      outcomes.push({ name, status: status ?? 1, signal, seconds: (performance.now() - started) / 1000 });
      resolve();
    });
  });
}
// Measured figures need the machine to themselves: one at a time. A smoke run only proves each runs to its end:
// three at a time (much of a benchmark's time is a shop starting or waiting), 89 s instead of 191 for all twelve
// on two cores (2026-12-07).
const parallel = smoke ? 3 : 1;
let next = 0;
await Promise.all(
  Array.from({ length: parallel }, async () => {
    while (next < files.length) {
      const index = next++;
      await runBench(files[index], index, parallel > 1);
    }
  }),
);
outcomes.sort((a, b) => files.findIndex((f) => f.startsWith(`${a.name}.`)) - files.findIndex((f) => f.startsWith(`${b.name}.`)));

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
