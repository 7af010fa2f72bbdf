// One app for a whole suite of integration tests: its own copy of a test database, built before the suite's first
// test and closed, with the database, after its last.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import type { AppOverrides } from '../app-types.js';
import type { AppConfig } from '../config.js';
import type { DatabaseHandle } from '../db/client.js';
import { buildTestApp, type TestApp } from './app.js';
import type { TestDatabase } from './databases.js';

/** The suite's app, config and database; there from the suite's first test on. */
export interface SuiteApp {
  readonly app: FastifyInstance;
  readonly config: AppConfig;
  readonly dataDir: string;
  readonly db: DatabaseHandle;
}

/** Call in a describe block: registers the hooks that open and close the suite's app (buildTestApp's arguments). */
export function suiteApp(testDb: TestDatabase, env: Record<string, string> = {}, overrides: Omit<AppOverrides, 'db'> = {}): SuiteApp {
  let db: DatabaseHandle | undefined;
  let t: TestApp | undefined;
  beforeAll(async () => {
    db = await testDb.open();
    t = await buildTestApp(db, env, overrides);
  });
  afterAll(async () => {
    await t?.close();
    await db?.close();
  });
  const built = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the suite app is built before the first test: use it inside a test or a hook');
    return value;
  };
  return {
    get app() {
      return built(t).app;
    },
    get config() {
      return built(t).config;
    },
    get dataDir() {
      return built(t).dataDir;
    },
    get db() {
      return built(db);
    },
  };
}
