import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { MIGRATIONS_DIR } from '../paths.js';

/** The little a migrator needs from a connection: run SQL on one session. */
export interface MigrationConnection {
  query(sql: string, params?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
  /** Runs a script of several statements. */
  exec(sql: string): Promise<void>;
}

export interface Migration {
  version: string;
  name: string;
  sql: string;
}

const FILE_PATTERN = /^(\d{4})_([a-z0-9_]+)\.sql$/;
// Any constant works; all processes of this app must use the same one.
const LOCK_KEY = 72_114_2026;

export async function loadMigrations(dir = MIGRATIONS_DIR): Promise<Migration[]> {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.sql')).sort();
  const migrations: Migration[] = [];
  for (const file of files) {
    const match = FILE_PATTERN.exec(file);
    if (!match) throw new Error(`migration file name must look like 0001_name.sql: ${file}`);
    migrations.push({ version: match[1]!, name: match[2]!, sql: await readFile(path.join(dir, file), 'utf8') });
  }
  return migrations;
}

/**
 * Applies pending migrations in order, each in its own transaction. Numbered, forward-only.
 * On PostgreSQL an advisory lock makes parallel starts of several processes safe.
 */
export async function runMigrations(
  conn: MigrationConnection,
  options: { advisoryLock: boolean; migrations?: Migration[] },
): Promise<string[]> {
  const migrations = options.migrations ?? (await loadMigrations());
  if (options.advisoryLock) await conn.query('select pg_advisory_lock($1)', [LOCK_KEY]);
  try {
    await conn.exec(
      `create table if not exists schema_migrations (
         version text primary key,
         name text not null,
         applied_at timestamptz not null default now()
       )`,
    );
    const { rows } = await conn.query('select version from schema_migrations');
    const applied = new Set(rows.map((r) => String(r.version)));
    const done: string[] = [];
    for (const migration of migrations) {
      if (applied.has(migration.version)) continue;
      await conn.exec('begin');
      try {
        await conn.exec(migration.sql);
        await conn.query('insert into schema_migrations (version, name) values ($1, $2)', [migration.version, migration.name]);
        await conn.exec('commit');
      } catch (error) {
        await conn.exec('rollback');
        throw new Error(`migration ${migration.version}_${migration.name} failed: ${(error as Error).message}`, { cause: error });
      }
      done.push(`${migration.version}_${migration.name}`);
    }
    return done;
  } finally {
    if (options.advisoryLock) await conn.query('select pg_advisory_unlock($1)', [LOCK_KEY]);
  }
}
