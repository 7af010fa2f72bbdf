import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { databaseTestFiles } from './src/testing/database-tests.js';
import { SlowestFirst } from './src/testing/test-sequencer.js';

// CI's second run (.ci/run) repeats on PostgreSQL only the test files that can reach a database: its first run
// did every test on PGlite, and a file that never opens a database would only run again unchanged.
const onlyPostgres = process.env.TEST_ONLY_POSTGRES === '1' && Boolean(process.env.DATABASE_URL);

export default defineConfig({
  test: {
    include: onlyPostgres ? databaseTestFiles(path.dirname(fileURLToPath(import.meta.url))) : ['src/**/*.test.{ts,tsx}'],
    // Tests of what only a PostgreSQL server can do (connections dropped, backends terminated, a process
    // killed inside a transaction) run when DATABASE_URL names one, as in the second CI run.
    exclude: process.env.DATABASE_URL ? ['**/node_modules/**'] : ['**/node_modules/**', 'src/**/*.pg.test.ts'],
    globalSetup: ['./src/server/test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // One test file per core (vitest's default leaves one core free): each file has a database of its own, and
    // much of a file's time is spent waiting on its database or its shop, so on 2 cores the PGlite run took
    // 7.2 min instead of 10.5 and the PostgreSQL run 9.3 min, with every test passing (2026-11-28).
    maxWorkers: os.availableParallelism(),
    // The slowest files first, so none runs alone at the end (test-sequencer.ts).
    sequence: { sequencer: SlowestFirst },
    // Transformed modules kept on disk (node_modules/.experimental-vitest-cache, keyed by content): CI's second run and every
    // rerun here skip compiling what the first compiled (on src/web and src/domain: 12 % less CPU on a rerun).
    experimental: { fsModuleCache: true },
  },
});
