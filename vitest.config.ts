import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.{ts,tsx}'],
    // Tests of what only a PostgreSQL server can do (connections dropped, backends terminated, a process
    // killed inside a transaction) run when DATABASE_URL names one, as in the second CI run.
    exclude: process.env.DATABASE_URL ? ['**/node_modules/**'] : ['**/node_modules/**', 'src/**/*.pg.test.ts'],
    globalSetup: ['./src/server/test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // See s3-storage.ts: the lockfile pins an SDK release that supports Node 20.
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
  },
});
