// The shop's processes run with the Node flags measured for them (bench/lib.mjs, README "Performance"): npm's
// start and worker scripts, the README's production commands and the benchmarks' shops all use the same ones.
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { SHOP_NODE_FLAGS } from '../bench/lib.mjs';

test('npm start, npm run worker, the README and the benchmarks run the shop with the same Node flags', () => {
  const scripts = JSON.parse(readFileSync('package.json', 'utf8')).scripts as Record<string, string>;
  const flags = SHOP_NODE_FLAGS.join(' ');
  expect(flags).toMatch(/^--max-semi-space-size=\d+$/);
  expect(scripts.start).toBe(`node ${flags} scripts/start.mjs`);
  expect(scripts.worker).toBe(`node ${flags} scripts/worker.mjs`);
  const readme = readFileSync('README.md', 'utf8');
  const production = readme.split('\n').filter((line) => /^(RUN_JOBS=false )?node .*dist\/server\/(main|worker)\.js/.test(line));
  expect(production.length).toBeGreaterThanOrEqual(2);
  for (const line of production) expect(line).toContain(`node ${flags} dist/server/`);
});
