import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { cogUploadUrl } from './src/server/generator/upload-address.js';

// Browser journeys against the production build, served by the real server on a fresh data folder.
const port = Number(process.env.E2E_PORT ?? 3999);
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(path.join(os.tmpdir(), 'shop-e2e-'));
const day = 24 * 3600 * 1000;
const baseURL = `http://127.0.0.1:${port}`;
const consentPort = port - 1;
// The shop with analytics and chat configured (consent.spec.ts; e2e/helpers.ts knows the port).
const consentBaseURL = `http://127.0.0.1:${consentPort}`;
// The shop whose pictures a generator makes (generator.spec.ts; e2e/helpers.ts knows the port), against a
// stand-in of a Cog model container's HTTP API on the next port down.
const generatorPort = port - 2;
const generatorBaseURL = `http://127.0.0.1:${generatorPort}`;
const cogPort = port - 3;
const generatorSecret = 'e2e-generator-webhook-secret-0123456789';

const shared = {
  NODE_ENV: 'test',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'warn',
  // One "proxy" in front: the lockout journey sends its own X-Forwarded-For, so it locks only itself.
  TRUST_PROXY: '1',
  // A campaign that runs now, whatever day the suite runs.
  CAMPAIGN_PERCENT: '20',
  CAMPAIGN_PACKAGES: 'pro,premium',
  CAMPAIGN_STARTS_AT: new Date(Date.now() - day).toISOString(),
  CAMPAIGN_ENDS_AT: new Date(Date.now() + 30 * day).toISOString(),
  // Orders are made by hand unless a journey switches one to the studio (studio.spec.ts): the other
  // journeys see a paid order stay paid.
  DEFAULT_PRODUCTION_MODE: 'manual',
  // Every journey comes from 127.0.0.1: the per-address limits would end the suite (they are tested in
  // src/server/modules/orders/abuse-limits.test.ts).
  LIMIT_DRAFTS_PER_HOUR: '100000',
  LIMIT_UPLOAD_MB_PER_HOUR: '1000000',
  ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
};

/**
 * Journeys about the pages themselves: accessibility, what loads first, CSP, offline, consent, the home page.
 * They place, pay, work and look up no order; on a fresh PostgreSQL database they wrote only page-view counters
 * and rate-limit buckets, whose SQL metrics.spec.ts and the integration tests run on PostgreSQL (2026-11-29).
 * CI's second run (TEST_ONLY_POSTGRES=1, as in vitest.config.ts) leaves them out: its first run did them on PGlite,
 * and in the browser they do the same on either database.
 */
const PAGE_ONLY_JOURNEYS = ['accessibility.spec.ts', 'csp.spec.ts', 'offline.spec.ts', 'consent.spec.ts', 'home.spec.ts'];
const onlyPostgres = process.env.TEST_ONLY_POSTGRES === '1' && Boolean(process.env.DATABASE_URL);

/** The production build, started fresh for the run. */
const shopProcess = { command: 'node dist/server/main.js', reuseExistingServer: false, timeout: 60_000, stdout: 'ignore', stderr: 'pipe' } as const;

export default defineConfig({
  testDir: 'e2e',
  testIgnore: onlyPostgres ? PAGE_ONLY_JOURNEYS.map((file) => `**/${file}`) : [],
  // A journey takes about 20 s alone here; two at once on a busy 2-core machine take longer.
  timeout: 60_000,
  expect: { timeout: 5_000 },
  fullyParallel: false,
  workers: 2,
  retries: 0,
  reporter: process.env.CI ? [['list'], ['json', { outputFile: '.tmp/playwright.json' }]] : [['list'], ['json', { outputFile: '.tmp/playwright.json' }]],
  outputDir: 'test-results',
  use: {
    baseURL,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
  webServer: [
    {
      ...shopProcess,
      url: `${baseURL}/api/health`,
      env: {
        ...shared,
        PORT: String(port),
        PUBLIC_URL: baseURL,
        DATA_DIR: dataDir,
        // The first staff account, for the back-office journey.
        ADMIN_EMAIL: 'team@example.de',
        ADMIN_PASSWORD: 'e2e-staff-password-123',
      },
    },
    {
      // A second shop process on the same database, configured with the optional third-party services that
      // need consent (their hosts are answered by the tests themselves: nothing leaves this machine).
      ...shopProcess,
      url: `${consentBaseURL}/api/health`,
      env: {
        ...shared,
        PORT: String(consentPort),
        PUBLIC_URL: consentBaseURL,
        DATA_DIR: `${dataDir}-consent`,
        // Its files are not the first process's (local disk): with a shared PostgreSQL it must not take
        // the first process's jobs. In production several processes share S3 and the queue.
        RUN_JOBS: 'false',
        ANALYTICS_SCRIPT_URL: 'https://stats.example.org/tag.js',
        ANALYTICS_NAME: 'Beispiel Analytics GmbH',
        CHAT_SCRIPT_URL: 'https://chat.example.com/widget.js',
        CHAT_NAME: 'Beispiel Chat AG',
      },
    },
    {
      // Started as the README starts a model image: with the upload address `npm run generator:check` prints.
      command: `npx tsx scripts/cog-stand-in.ts ${cogPort} 100 --upload-url ${cogUploadUrl(generatorBaseURL, generatorSecret)}`,
      url: `http://127.0.0.1:${cogPort}/health-check`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      // Its own embedded database even in the PostgreSQL run: the other shops' job runners have no generator
      // and must not take its jobs (in production every process of one shop has the same settings).
      ...shopProcess,
      command: `env -u DATABASE_URL ${shopProcess.command}`,
      url: `${generatorBaseURL}/api/health`,
      env: {
        ...shared,
        PORT: String(generatorPort),
        PUBLIC_URL: generatorBaseURL,
        DATA_DIR: `${dataDir}-generator`,
        ADMIN_EMAIL: 'team@example.de',
        ADMIN_PASSWORD: 'e2e-staff-password-123',
        DEFAULT_PRODUCTION_MODE: 'generator',
        // Every photo's check goes to the job runner, as on a busy shop: the wizard shows "being checked"
        // and asks for the verdict (the other shops check photos while the upload waits).
        UPLOAD_INLINE_CHECKS: '0',
        GENERATOR: 'cog',
        COG_URL: `http://127.0.0.1:${cogPort}`,
        GENERATOR_MODEL: 'zsxkib/instant-id',
        GENERATOR_NAME: 'E2E Model Host',
        GENERATOR_WEBHOOK_SECRET: generatorSecret,
      },
    },
  ],
});
