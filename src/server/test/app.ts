// Builds the real app for integration tests: a test database, a temporary data folder, no logs.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.js';
import type { AppOverrides } from '../app-types.js';
import { loadConfig, type AppConfig } from '../config.js';
import type { DatabaseHandle } from '../db/client.js';

export interface TestApp {
  app: FastifyInstance;
  config: AppConfig;
  dataDir: string;
  close(): Promise<void>;
}

export async function buildTestApp(
  db: DatabaseHandle,
  env: Record<string, string> = {},
  overrides: Omit<AppOverrides, 'db'> = {},
): Promise<TestApp> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'shop-test-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    APP_SECRET: 'test-secret-test-secret-test-secret-0123',
    PUBLIC_URL: 'http://shop.test',
    RETENTION_INTERVAL_MINUTES: '0',
    // Every request of a test comes from 127.0.0.1: the per-address limits are tested where a test sets
    // them (an empty value means the default).
    LIMIT_DRAFTS_PER_HOUR: '100000',
    LIMIT_UPLOAD_MB_PER_HOUR: '1000000',
    ...env,
  });
  // Jobs run when a test says so (app.jobRunner.drain()), not in the background between its steps.
  const app = await buildApp(config, { logger: false, startJobs: false, ...overrides, db });
  await app.ready();
  return {
    app,
    config,
    dataDir,
    async close() {
      await app.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
