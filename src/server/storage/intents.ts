// Files that may outlive a failed write: a file is stored before the row that lists it commits (an upload
// is checked and stored first, then recorded). The key is noted before the write; the transaction that
// records the row removes the note. A note left over after STALE_AFTER_MS marks a file nobody will list:
// the deletion job removes it, so no customer photo outlives the deletion promise unseen.
import { inArray, lt, sql } from 'drizzle-orm';
import { preparedPer, type Executor } from '../db/client.js';
import { storageIntents } from '../db/schema.js';
import type { Storage } from './storage.js';

/** Longer than any upload takes between its write and its commit. */
export const STALE_AFTER_MS = 60 * 60 * 1000;

/** One key's note, prepared once per database handle (one for every photo of an upload rush). */
const noteStatement = preparedPer((db) =>
  db
    .insert(storageIntents)
    .values({ key: sql.placeholder('key'), createdAt: sql.placeholder('createdAt') })
    .onConflictDoNothing()
    .prepare('storage_intent_note'),
);

/** Before writing: these keys may be stored without a row. */
export async function noteIntent(db: Executor, keys: string[], now: Date): Promise<void> {
  if (keys.length === 1) {
    await noteStatement(db).execute({ key: keys[0], createdAt: now });
    return;
  }
  await db
    .insert(storageIntents)
    .values(keys.map((key) => ({ key, createdAt: now })))
    .onConflictDoNothing();
}

/** In the transaction that records the row (or after the files are deleted again): the keys are accounted for. */
export async function settleIntent(db: Executor, keys: string[]): Promise<void> {
  await db.delete(storageIntents).where(inArray(storageIntents.key, keys));
}

/** The deletion job: files of writes that never committed, and their notes. */
export async function sweepAbandonedWrites(db: Executor, storage: Storage, now: Date): Promise<number> {
  const stale = await db
    .select({ key: storageIntents.key })
    .from(storageIntents)
    .where(lt(storageIntents.createdAt, new Date(now.getTime() - STALE_AFTER_MS)))
    .limit(1000);
  for (const { key } of stale) await storage.delete(key);
  if (stale.length) await settleIntent(db, stale.map((row) => row.key));
  return stale.length;
}
