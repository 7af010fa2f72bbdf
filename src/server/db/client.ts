import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { sql, type SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { runMigrations, type MigrationConnection } from './migrate.js';
import * as schema from './schema.js';

/** Longer than any query of the shop takes; a statement still running then is stuck. */
export const STATEMENT_TIMEOUT_MS = 60_000;

export type Schema = typeof schema;
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction or the database itself: repositories accept either. */
export type Executor = Pick<Database, 'select' | 'insert' | 'update' | 'delete' | 'execute' | 'transaction' | '$with' | 'with'>;

/**
 * A statement built and prepared once per database handle or transaction, on first use. drizzle binds a prepared
 * statement to the handle it was built on; PostgreSQL then parses and plans it once per connection, by its name.
 */
export function preparedPer<Statement>(build: (db: Executor) => Statement): (db: Executor) => Statement {
  const built = new WeakMap<Executor, Statement>();
  return (db) => {
    let statement = built.get(db);
    if (!statement) built.set(db, (statement = build(db)));
    return statement;
  };
}

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  migrate(): Promise<string[]>;
  ping(): Promise<void>;
  close(): Promise<void>;
  /** Embedded only: a tarball of the data directory (test templates). */
  dumpDataDir?(): Promise<Blob>;
}

export type DatabaseOptions =
  | { kind: 'postgres'; url: string; poolSize?: number; onConnectionError?: (error: Error) => void }
  | { kind: 'pglite'; dataDir: string | null; loadDataDir?: Blob };

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  return options.kind === 'postgres' ? openPostgres(options.url, options.poolSize ?? 10, options.onConnectionError) : openPglite(options.dataDir, options.loadDataDir);
}

/**
 * The embedded server's settings. PostgreSQL's default 128 MB of shared buffers is sized for a machine of
 * its own; a shop's tables fit in a fraction, and the rest is read through the operating system's cache.
 */
function pgliteStartParams(PGlite: { defaultStartParams: string[] }): string[] {
  return [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'];
}

/**
 * PGlite and its drizzle driver load when an embedded database is opened: a process on PostgreSQL never needs
 * their code (issue 22). An error loading them rejects openDatabase, as it stopped the start before.
 */
async function loadPglite() {
  const [{ PGlite }, { pg_trgm }, { drizzle }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite/contrib/pg_trgm'),
    import('drizzle-orm/pglite'),
  ]);
  return { PGlite, pg_trgm, drizzlePglite: drizzle };
}

/**
 * A new data directory is made (initdb) in a thread that then ends: initdb's WebAssembly instance takes
 * several hundred MB that would otherwise stay with the shop's process for good.
 */
async function initializeDataDir(dataDir: string, startParams: string[]): Promise<void> {
  if (existsSync(path.join(dataDir, 'PG_VERSION'))) return;
  const code = `
    const { workerData } = require('node:worker_threads');
    import(workerData.pglite).then(async ({ PGlite }) => {
      const db = await PGlite.create(workerData.dataDir, { startParams: workerData.startParams });
      await db.close();
    });`;
  const worker = new Worker(code, { eval: true, workerData: { pglite: import.meta.resolve('@electric-sql/pglite'), dataDir, startParams } });
  await new Promise<void>((resolve, reject) => {
    worker.once('error', reject);
    worker.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`creating the embedded database failed (exit code ${code})`))));
  });
}

async function openPglite(dataDir: string | null, loadDataDir?: Blob): Promise<DatabaseHandle> {
  const { PGlite, pg_trgm, drizzlePglite } = await loadPglite();
  const startParams = pgliteStartParams(PGlite);
  if (dataDir) {
    await mkdir(dataDir, { recursive: true });
    if (!loadDataDir) await initializeDataDir(dataDir, startParams);
  }
  // pg_trgm serves the back office's "contains" search (migration 0014); PGlite ships it in its package.
  const client = await PGlite.create(dataDir ?? undefined, { startParams, extensions: { pg_trgm }, ...(loadDataDir ? { loadDataDir } : {}) });
  const db = drizzlePglite(client, { schema }) as unknown as Database;
  const conn: MigrationConnection = {
    query: async (text, params) => ({ rows: (await client.query<Record<string, unknown>>(text, params)).rows }),
    exec: async (text) => {
      await client.exec(text);
    },
  };
  return {
    db,
    kind: 'pglite',
    // One embedded process owns the data directory, so no lock is needed.
    migrate: () => runMigrations(conn, { advisoryLock: false }),
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    close: () => client.close(),
    dumpDataDir: async () => (await client.dumpDataDir('none')) as Blob,
  };
}

async function openPostgres(url: string, poolSize: number, onConnectionError?: (error: Error) => void): Promise<DatabaseHandle> {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    // While the server is away a request waits this long for a connection, then gets a clean 503.
    connectionTimeoutMillis: 5_000,
    // A server that stops answering without closing the connection (a dead host, a dropped route) is noticed:
    // TCP keepalive finds the dead peer, the server ends a statement after a minute, and the client gives up
    // on a query a little later still, so no request or job waits forever.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    statement_timeout: STATEMENT_TIMEOUT_MS,
    query_timeout: STATEMENT_TIMEOUT_MS + 5_000,
  });
  // A connection that drops (a restart, a failover, pg_terminate_backend) must not crash the process: an idle
  // client reports to the pool, a checked-out one (inside a transaction, between its queries) to itself.
  // Its query under way, or its next one, fails with the connection error; the pool replaces it.
  pool.on('error', (error) => onConnectionError?.(error));
  pool.on('connect', (client) => {
    client.on('error', (error) => onConnectionError?.(error));
  });
  const db = drizzlePg(pool, { schema }) as unknown as Database;
  return {
    db,
    kind: 'postgres',
    migrate: async () => {
      const client = await pool.connect();
      try {
        const conn: MigrationConnection = {
          query: async (text, params) => ({ rows: (await client.query(text, params)).rows }),
          exec: async (text) => {
            await client.query(text);
          },
        };
        return await runMigrations(conn, { advisoryLock: true });
      } finally {
        client.release();
      }
    },
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    close: () => pool.end(),
  };
}

/** Rows of a raw SQL query; both drivers answer with { rows }. */
export async function queryRows<T extends Record<string, unknown>>(db: Pick<Database, 'execute'>, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}
