// schema.ts (what the code's queries are typed by, and what drizzle-kit drafts migrations from) and the numbered SQL
// migrations (what the database really is) describe the same tables: drizzle-kit reads a migrated PostgreSQL
// database back (`drizzle-kit pull`), and every table, column, index, foreign key and check it finds is declared
// in schema.ts under the same name and shape, and nothing more. The constraints' expressions are PostgreSQL's to
// print; their names and the tables they guard are compared.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { generateDrizzleJson } from 'drizzle-kit/api';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { PROJECT_ROOT } from '../paths.js';
import { openPostgresTestDatabase } from '../test/databases.js';
import type { DatabaseHandle } from './client.js';
import * as schema from './schema.js';

/** Our migrator's own bookkeeping (migrate.ts), not part of the shop's schema. */
const MIGRATOR_TABLES = ['public.schema_migrations'];

interface IndexColumn {
  expression: string;
  asc: boolean;
  nulls: string;
}
interface Table {
  columns: Record<string, { type: string; notNull: boolean; primaryKey: boolean; default?: unknown }>;
  indexes: Record<string, { columns: IndexColumn[]; isUnique: boolean; method?: string }>;
  foreignKeys: Record<string, { tableTo: string; columnsFrom: string[]; columnsTo: string[]; onDelete?: string }>;
  checkConstraints: Record<string, unknown>;
  uniqueConstraints: Record<string, unknown>;
}
type Snapshot = { tables: Record<string, Table> };

let db: DatabaseHandle;
let pulled: Snapshot;
let dir: string;

/** `drizzle-kit pull` into a scratch folder: its snapshot of the database at `url`. */
async function pull(url: string): Promise<Snapshot> {
  dir = await mkdtemp(path.join(os.tmpdir(), 'schema-pull-'));
  const bin = path.join(PROJECT_ROOT, 'node_modules/drizzle-kit/bin.cjs');
  const child = spawn(process.execPath, [bin, 'pull', '--dialect', 'postgresql', '--url', url, '--out', dir], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`drizzle-kit pull failed (${code}):\n${output.slice(-2000)}`);
  const snapshot = (await readdir(path.join(dir, 'meta'))).find((f) => f.endsWith('_snapshot.json'))!;
  return JSON.parse(await readFile(path.join(dir, 'meta', snapshot), 'utf8')) as Snapshot;
}

beforeAll(async () => {
  const opened = await openPostgresTestDatabase();
  db = opened.handle;
  pulled = await pull(opened.url);
}, 60_000);

afterAll(async () => {
  await db?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Every difference between the database's tables and schema.ts's, one line each. */
function differences(database: Snapshot, declared: Snapshot): string[] {
  const found: string[] = [];
  const names = (what: string, table: string, a: Record<string, unknown> = {}, b: Record<string, unknown> = {}) => {
    for (const name of Object.keys(a)) if (!(name in b)) found.push(`${table}: ${what} ${name} is in the database, not in schema.ts`);
    for (const name of Object.keys(b)) if (!(name in a)) found.push(`${table}: ${what} ${name} is in schema.ts, not in the database`);
  };
  const same = (what: string, a: unknown, b: unknown) => {
    if (JSON.stringify(a) !== JSON.stringify(b)) found.push(`${what}: database ${JSON.stringify(a)}, schema.ts ${JSON.stringify(b)}`);
  };
  // lower("email") and lower(email) are one expression.
  const indexShape = (index: Table['indexes'][string]) => ({
    unique: index.isUnique,
    method: index.method ?? 'btree',
    columns: index.columns.map((c) => [c.expression.replaceAll('"', ''), c.asc, c.nulls]),
  });
  for (const [key, table] of Object.entries(database.tables)) {
    if (MIGRATOR_TABLES.includes(key)) continue;
    const mine = declared.tables[key];
    if (!mine) {
      found.push(`${key}: a table of the database, not in schema.ts`);
      continue;
    }
    names('column', key, table.columns, mine.columns);
    names('index', key, table.indexes, mine.indexes);
    names('foreign key', key, table.foreignKeys, mine.foreignKeys);
    names('check', key, table.checkConstraints, mine.checkConstraints);
    names('unique constraint', key, table.uniqueConstraints, mine.uniqueConstraints);
    for (const [name, column] of Object.entries(table.columns)) {
      const other = mine.columns[name];
      if (other) same(`${key}.${name}`, [column.type, column.notNull, column.primaryKey, column.default ?? null], [other.type, other.notNull, other.primaryKey, other.default ?? null]);
    }
    for (const [name, index] of Object.entries(table.indexes)) if (mine.indexes[name]) same(`${key} index ${name}`, indexShape(index), indexShape(mine.indexes[name]));
    for (const [name, fk] of Object.entries(table.foreignKeys)) {
      const other = mine.foreignKeys[name];
      if (other) same(`${key} foreign key ${name}`, [fk.tableTo, fk.columnsFrom, fk.columnsTo, fk.onDelete], [other.tableTo, other.columnsFrom, other.columnsTo, other.onDelete]);
    }
  }
  for (const key of Object.keys(declared.tables)) if (!database.tables[key]) found.push(`${key}: in schema.ts, not a table of the database`);
  return found;
}

test('every table, column, index, foreign key and check of the migrated database is declared in schema.ts, and nothing else', () => {
  expect(Object.keys(pulled.tables).length).toBeGreaterThan(20);
  expect(differences(pulled, generateDrizzleJson(schema) as unknown as Snapshot)).toEqual([]);
});

test('the comparison sees each kind of difference', () => {
  const declared = generateDrizzleJson(schema) as unknown as Snapshot;
  const changed = structuredClone(pulled);
  const orders = changed.tables['public.orders']!;
  delete orders.indexes['orders_email_trgm_idx'];
  orders.foreignKeys['orders_team_order_id_fkey']!.onDelete = 'cascade';
  orders.checkConstraints['orders_extra_check'] = {};
  orders.columns['order_number']!.notNull = !orders.columns['order_number']!.notNull;
  orders.indexes['orders_placed_idx']!.columns[0]!.nulls = 'last';
  expect(differences(changed, declared)).toEqual([
    'public.orders: index orders_email_trgm_idx is in schema.ts, not in the database',
    'public.orders: check orders_extra_check is in the database, not in schema.ts',
    expect.stringMatching(/^public\.orders\.order_number: database \["text",/),
    expect.stringMatching(/^public\.orders index orders_placed_idx: /),
    expect.stringMatching(/^public\.orders foreign key orders_team_order_id_fkey: database \["orders",\["team_order_id"\],\["id"\],"cascade"\]/),
  ]);
});
