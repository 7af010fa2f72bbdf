// drizzle-kit/meta (drizzle.config.ts) holds the snapshot that `npx drizzle-kit generate` drafts the next migration
// from: the schema after the latest migration. These tests fail when it has fallen behind schema.ts or migrations/,
// so that a draft is never the difference to an old schema again.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { generateDrizzleJson, generateMigration } from 'drizzle-kit/api';
import { expect, test } from 'vitest';
import { loadMigrations } from './migrate.js';
import * as schema from './schema.js';

const META_DIR = path.join(import.meta.dirname, 'drizzle-kit', 'meta');
const HOW =
  'run `npx drizzle-kit generate --name <name>` (or `--custom --name <name>` for a migration schema.ts cannot express), ' +
  'copy drizzle-kit/NNNN_<name>.sql to migrations/ under the same name, and commit the new meta/NNNN_snapshot.json and meta/_journal.json';

type Snapshot = Parameters<typeof generateMigration>[0];

function journalTags(): string[] {
  const journal = JSON.parse(readFileSync(path.join(META_DIR, '_journal.json'), 'utf8')) as { entries: { tag: string }[] };
  return journal.entries.map((e) => e.tag);
}

/** The snapshot drizzle-kit drafts from: the last one by file name. */
function latestSnapshot(): { file: string; snapshot: Snapshot } {
  const file = readdirSync(META_DIR).filter((f) => f.endsWith('_snapshot.json')).sort().at(-1)!;
  return { file, snapshot: JSON.parse(readFileSync(path.join(META_DIR, file), 'utf8')) as Snapshot };
}

/**
 * Names both removed and added in one collection: drizzle-kit would ask whether that is a rename, and its differ
 * throws without a terminal (or waits for an answer on one) instead of drafting SQL. Listed so the test says why.
 */
function renameQuestions(prev: Snapshot, cur: Snapshot): string[] {
  type Collections = Record<string, Record<string, Record<string, Record<string, unknown>>>>;
  const [p, c] = [prev as unknown as Collections, cur as unknown as Collections];
  const questions: string[] = [];
  const compare = (what: string, a: Record<string, unknown> = {}, b: Record<string, unknown> = {}) => {
    const removed = Object.keys(a).filter((k) => !(k in b));
    const added = Object.keys(b).filter((k) => !(k in a));
    if (removed.length > 0 && added.length > 0) questions.push(`${what}: removed ${removed.join(', ')}; added ${added.join(', ')}`);
  };
  for (const kind of ['schemas', 'enums', 'sequences', 'roles', 'policies', 'views', 'tables']) compare(kind, p[kind], c[kind]);
  for (const [name, table] of Object.entries(c.tables ?? {})) {
    const before = p.tables?.[name];
    if (!before) continue;
    compare(`columns of ${name}`, before.columns, table.columns);
    compare(`policies of ${name}`, before.policies, table.policies);
  }
  return questions;
}

test('the latest drizzle-kit snapshot is of the latest migration', async () => {
  const migrations = await loadMigrations();
  const latest = migrations.at(-1)!;
  const tags = journalTags();
  // drizzle-kit numbers a draft one after the journal's last entry, so its number is then the next migration's.
  expect(tags.at(-1), `drizzle-kit/meta/_journal.json's last entry is not migrations/' latest file (${latest.version}_${latest.name}.sql): ${HOW}`).toBe(
    `${latest.version}_${latest.name}`,
  );
  expect(latestSnapshot().file).toBe(`${latest.version}_snapshot.json`);
});

test('the latest drizzle-kit snapshot holds every change of schema.ts (npx drizzle-kit generate drafts nothing)', async () => {
  const { file, snapshot } = latestSnapshot();
  const current = generateDrizzleJson(schema as Record<string, unknown>, snapshot.id);
  const hint = `schema.ts has changes that drizzle-kit/meta/${file} lacks: ${HOW}`;
  expect(renameQuestions(snapshot, current), hint).toEqual([]);
  expect(await generateMigration(snapshot, current), hint).toEqual([]);
});
