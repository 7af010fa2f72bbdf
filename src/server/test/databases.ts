// Test databases: embedded PGlite always, PostgreSQL when DATABASE_URL is set.
// Each open() gives a fresh copy of the migrated template.
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { expect, inject } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../db/client.js';
import { PROJECT_ROOT } from '../paths.js';

export interface TestDatabase {
  name: 'pglite' | 'postgres';
  open(): Promise<DatabaseHandle>;
}

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/**
 * CI's PostgreSQL run leaves out test files that cannot reach a database (src/testing/database-tests.ts): a file
 * that opens one anyway fails here, in every run, instead of being skipped silently there.
 */
function checkReachable(): void {
  const file = expect.getState().testPath;
  if (!file) return;
  const relative = path.relative(PROJECT_ROOT, file).split(path.sep).join('/');
  if (!inject('databaseTestFiles').includes(relative)) {
    throw new Error(`${relative} opens a test database, but src/testing/database-tests.ts does not see it reach src/server/db/ or src/server/test/, so CI's PostgreSQL run would leave it out: import the helper it uses statically`);
  }
}

const pglite: TestDatabase = {
  name: 'pglite',
  async open() {
    checkReachable();
    const tar = await readFile(inject('pgliteTemplate'));
    return openDatabase({ kind: 'pglite', dataDir: null, loadDataDir: new Blob([tar]) });
  },
};

/** A fresh PostgreSQL database copied from the migrated template, with its URL (for a shop in a child process). */
async function copyTemplate(url: string, template: string): Promise<{ handle: DatabaseHandle; url: string }> {
  // The template's creator pid keeps names apart when two suites share one server.
  const pid = template.replace('shop_tpl_', '');
  const name = `shop_t_${pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${name} template ${template}`);
  await admin.end();
  const databaseUrl = withDatabase(url, name);
  const handle = await openDatabase({ kind: 'postgres', url: databaseUrl, poolSize: 5 });
  return {
    url: databaseUrl,
    handle: {
      ...handle,
      async close() {
        await handle.close();
        const cleanup = new pg.Client({ connectionString: url });
        await cleanup.connect();
        await cleanup.query(`drop database if exists ${name} with (force)`);
        await cleanup.end();
      },
    },
  };
}

function postgres(url: string, template: string): TestDatabase {
  return {
    name: 'postgres',
    async open() {
      checkReachable();
      return (await copyTemplate(url, template)).handle;
    },
  };
}

/**
 * For tests that exist only on PostgreSQL (connections that drop, processes killed mid-transaction): they
 * live in `*.pg.test.ts` files, which vitest.config.ts runs only when DATABASE_URL is set.
 */
export async function openPostgresTestDatabase(): Promise<{ handle: DatabaseHandle; url: string }> {
  checkReachable();
  const pgTemplate = inject('pgTemplate');
  if (!pgTemplate) throw new Error('*.pg.test.ts files need DATABASE_URL (vitest.config.ts runs them only then)');
  return copyTemplate(pgTemplate.url, pgTemplate.template);
}

/**
 * The databases a test runs on: PGlite, and PostgreSQL too when DATABASE_URL is set. TEST_ONLY_POSTGRES=1
 * leaves PGlite out: CI's second run (.ci/run), whose first run did every test on PGlite already.
 */
export function testDatabases(): TestDatabase[] {
  checkReachable();
  const pgTemplate = inject('pgTemplate');
  if (!pgTemplate) return [pglite];
  const pg = postgres(pgTemplate.url, pgTemplate.template);
  return process.env.TEST_ONLY_POSTGRES === '1' ? [pg] : [pglite, pg];
}
