// The shop's processes run with the Node flags measured for them (bench/lib.mjs, README "Performance"): npm's
// start and worker scripts, the README's production commands and the benchmarks' shops all use the same ones.
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { SHOP_ENV, SHOP_NODE_FLAGS } from '../bench/lib.mjs';

test('npm start, npm run worker, the README and the benchmarks run the shop with the same Node flags and allocator setting', () => {
  const scripts = JSON.parse(readFileSync('package.json', 'utf8')).scripts as Record<string, string>;
  const flags = SHOP_NODE_FLAGS.join(' ');
  const env = Object.entries(SHOP_ENV)
    .map(([name, value]) => `${name}=${value}`)
    .join(' ');
  expect(flags).toMatch(/^--max-semi-space-size=\d+$/);
  expect(env).toBe('MALLOC_ARENA_MAX=2');
  expect(scripts.start).toBe(`${env} node ${flags} scripts/start.mjs`);
  expect(scripts.worker).toBe(`${env} node ${flags} scripts/worker.mjs`);
  const readme = readFileSync('README.md', 'utf8');
  const production = readme.split('\n').filter((line) => /^(RUN_JOBS=false )?(\w+=\S+ )*node .*dist\/server\/(main|worker)\.js/.test(line));
  expect(production.length).toBeGreaterThanOrEqual(2);
  for (const line of production) expect(line).toContain(`${env} node ${flags} dist/server/`);
});
