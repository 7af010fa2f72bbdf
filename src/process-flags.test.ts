// The shop's processes run with the Node flags measured for them (bench/lib.mjs, README "Performance"): npm's
// start and worker scripts, the README's production commands and the benchmarks' shops all use the same ones.
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { SHOP_ENV, SHOP_NODE_FLAGS, WEB_NODE_FLAGS } from '../bench/lib.mjs';

test('npm start, npm run worker, the README and the benchmarks run the shop with the same Node flags and allocator settings', () => {
  const scripts = JSON.parse(readFileSync('package.json', 'utf8')).scripts as Record<string, string>;
  const flags = SHOP_NODE_FLAGS.join(' ');
  const env = Object.entries(SHOP_ENV)
    .map(([name, value]) => `${name}=${value}`)
    .join(' ');
  expect(flags).toMatch(/^--max-semi-space-size=\d+ --expose-gc$/);
  expect(env).toBe('MALLOC_ARENA_MAX=2 MALLOC_MMAP_THRESHOLD_=262144');
  expect(WEB_NODE_FLAGS).toEqual([expect.stringMatching(/^--max-old-space-size=\d+$/), expect.stringMatching(/^--heap-growing-percent=\d+$/)]);
  expect(scripts.start).toBe(`${env} node ${flags} scripts/start.mjs`);
  expect(scripts.worker).toBe(`${env} node ${flags} scripts/worker.mjs`);
  const readme = readFileSync('README.md', 'utf8');
  const production = readme.split('\n').filter((line) => /^(RUN_JOBS=false )?(\w+=\S+ )*node .*dist\/server\/(main|worker)\.js/.test(line));
  expect(production.length).toBeGreaterThanOrEqual(2);
  // A web process (no jobs) also caps its old generation and fixes how far it grows between collections; a worker does not.
  for (const line of production) {
    const web = line.startsWith('RUN_JOBS=false');
    expect(line).toContain(web ? `${env} node ${flags} ${WEB_NODE_FLAGS.join(' ')} dist/server/main.js` : `${env} node ${flags} dist/server/worker.js`);
  }
  expect(production.some((line) => line.startsWith('RUN_JOBS=false'))).toBe(true);
});
