// `node scripts/test-durations.mjs [report.json…]`: refreshes src/testing/test-durations.json (the test files of
// 5 s and more, slowest first; test-sequencer.ts starts them first) from vitest's JSON reports (default: the one
// `npm test` writes, .tmp/vitest.json). Run it after a PGlite and a PostgreSQL run; the longer time counts.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './build-info.mjs';

const target = path.join(ROOT, 'src/testing/test-durations.json');
const reports = process.argv.slice(2).length ? process.argv.slice(2) : [path.join(ROOT, '.tmp/vitest.json')];
const seconds = JSON.parse(readFileSync(target, 'utf8'));
for (const report of reports) {
  for (const file of JSON.parse(readFileSync(report, 'utf8')).testResults) {
    const name = path.relative(ROOT, file.name).split(path.sep).join('/');
    const took = Math.round((file.endTime - file.startTime) / 1000);
    if (took >= 5) seconds[name] = Math.max(took, seconds[name] ?? 0);
  }
}
// Files that were split or removed since go.
const sorted = Object.fromEntries(Object.entries(seconds).filter(([name]) => existsSync(path.join(ROOT, name))).sort(([, a], [, b]) => b - a));
writeFileSync(target, `${JSON.stringify(sorted, null, 2)}\n`);
console.log(`${Object.keys(sorted).length} files in ${path.relative(ROOT, target)}`);
