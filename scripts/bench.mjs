// `npm run bench`: runs every benchmark under bench/ and prints its figures.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './build-info.mjs';

const only = process.argv[2];
const files = readdirSync(path.join(ROOT, 'bench'))
  .filter((f) => (f.endsWith('.mjs') || f.endsWith('.bench.ts')) && f !== 'lib.mjs')
  .filter((f) => !only || f.includes(only))
  .sort();
let failures = 0;
for (const file of files) {
  console.log(`\n== bench/${file} ==`);
  // TypeScript benchmarks use the app's modules in-process (seeding what has no HTTP route yet).
  const args = file.endsWith('.ts') ? ['--import', 'tsx', path.join('bench', file)] : [path.join('bench', file)];
  const result = spawnSync(process.execPath, args, { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) failures++;
}
process.exit(failures ? 1 : 0);
