// Test databases: embedded PGlite always, PostgreSQL when DATABASE_URL is set.
// Each open() gives a fresh copy of the migrated template.
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import pg from 'pg';
import { inject } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../db/client.js';

export interface TestDatabase {
  name: 'pglite' | 'postgres';
  open(): Promise<DatabaseHandle>;
}

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

const pglite: TestDatabase = {
  name: 'pglite',
  async open() {
    const tar = await readFile(inject('pgliteTemplate'));
    return openDatabase({ kind: 'pglite', dataDir: null, loadDataDir: new Blob([tar]) });
  },
};

function postgres(url: string, template: string): TestDatabase {
  return {
    name: 'postgres',
    async open() {
      // The template's creator pid keeps names apart when two suites share one server.
      const pid = template.replace('shop_tpl_', '');
      const name = `shop_t_${pid}_${randomBytes(4).toString('hex')}`;
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`create database ${name} template ${template}`);
      await admin.end();
      const handle = await openDatabase({ kind: 'postgres', url: withDatabase(url, name), poolSize: 5 });
      return {
        ...handle,
        async close() {
          await handle.close();
          const cleanup = new pg.Client({ connectionString: url });
          await cleanup.connect();
          await cleanup.query(`drop database if exists ${name} with (force)`);
          await cleanup.end();
        },
      };
    },
  };
}

export function testDatabases(): TestDatabase[] {
  const pgTemplate = inject('pgTemplate');
  return pgTemplate ? [pglite, postgres(pgTemplate.url, pgTemplate.template)] : [pglite];
}
