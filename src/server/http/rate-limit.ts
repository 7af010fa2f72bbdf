// Fixed-window counters in the database, so every app process shares them (no process memory).
import { eq, inArray, sql, type Placeholder, type SQL } from 'drizzle-orm';
import { type Database } from '../db/client.js';
import { rateLimits } from '../db/schema.js';

export interface RateLimitResult {
  allowed: boolean;
  hits: number;
  resetAt: Date;
}

/** A value in a statement: given, or a placeholder that a prepared statement fills in each time it runs. */
type Param<T> = T | Placeholder;

/**
 * The statement that counts `amount` under a key in its fixed window (`at` is now, `resetAt` the end of a window
 * that starts now), for a caller to end with `returning` (`hits`, `reset_at`). The key may be an expression the
 * database computes, and `when` counts only while it holds, so one statement can read a row and count under it,
 * or count a second key only within the first's limit (a tracking attempt: customer-orders/tracking.ts).
 */
export function countStatement({ key, amount, at, resetAt, when }: { key: Param<string> | SQL; amount: Param<number>; at: Param<string>; resetAt: Param<string>; when?: SQL }): SQL {
  return sql`insert into ${rateLimits} (key, hits, reset_at)
      select (${key})::text, ${amount}::integer, ${resetAt}::timestamptz${when ? sql` where ${when}` : sql``}
      on conflict (key) do update set
        hits = case when ${rateLimits.resetAt} <= ${at}::timestamptz then ${amount}::integer else ${rateLimits.hits} + ${amount}::integer end,
        reset_at = case when ${rateLimits.resetAt} <= ${at}::timestamptz then excluded.reset_at else ${rateLimits.resetAt} end`;
}

/**
 * A legitimate attempt settled: one key's counter cleared, another's hit taken back (never below zero). Two
 * common table expressions, so that the settlement can also ride in the statement of a read (tracking's answer).
 */
export function settlementSteps(db: Database, { reset, undo }: { reset: Param<string>; undo: Param<string> }) {
  return [
    db.$with('cleared').as(db.delete(rateLimits).where(eq(rateLimits.key, reset))),
    db.$with('undone').as(
      db
        .update(rateLimits)
        .set({ hits: sql`greatest(${rateLimits.hits} - 1, 0)` })
        .where(eq(rateLimits.key, undo)),
    ),
  ];
}

/**
 * The limiter's two statements for every hit, prepared once: each connection parses and plans them once (an
 * upload looks and counts, 150 times a second in a rush of customers).
 */
function hitStatements(db: Database) {
  const p = sql.placeholder;
  const look = db
    .select({ hits: rateLimits.hits, resetAt: rateLimits.resetAt })
    .from(rateLimits)
    .where(eq(rateLimits.key, p('key')))
    .prepare('rate_limit_look');
  const counted = db
    .$with('counted', { hits: sql<number>`hits`.as('hits'), resetAt: sql<Date | string>`reset_at`.as('reset_at') })
    .as(sql`${countStatement({ key: p('key'), amount: p('amount'), at: p('at'), resetAt: p('resetAt') })} returning hits, reset_at`);
  const count = db.with(counted).select({ hits: counted.hits, resetAt: counted.resetAt }).from(counted).prepare('rate_limit_count');
  return { look, count };
}

export function createRateLimiter(db: Database, now: () => Date) {
  const statements = hitStatements(db);
  return {
    /**
     * Counts `amount` (one hit, or a quantity such as kilobytes received) for the key and says whether the
     * window's total is within the limit. An amount of 0 only looks.
     */
    async hit(key: string, limit: number, windowMs: number, amount = 1): Promise<RateLimitResult> {
      const at = now();
      const resetAt = new Date(at.getTime() + windowMs);
      if (amount === 0) {
        // Only a look: a read, which writes nothing and waits for no other process's count of the same key (an
        // upload's first look, three at a time from one address).
        const [row] = await statements.look.execute({ key });
        const current = row && row.resetAt > at ? row : { hits: 0, resetAt };
        return { allowed: current.hits <= limit, hits: current.hits, resetAt: current.resetAt };
      }
      const [row] = await statements.count.execute({ key, amount, at: at.toISOString(), resetAt: resetAt.toISOString() });
      const hits = Number(row!.hits);
      return { allowed: hits <= limit, hits, resetAt: new Date(row!.resetAt) };
    },
    /** Takes back one hit (an attempt that turned out legitimate), never below zero. */
    async undo(key: string): Promise<void> {
      await db.update(rateLimits).set({ hits: sql`greatest(${rateLimits.hits} - 1, 0)` }).where(sql`${rateLimits.key} = ${key}`);
    },
    async reset(...keys: string[]): Promise<void> {
      if (keys.length) await db.delete(rateLimits).where(inArray(rateLimits.key, keys));
    },
    /** A legitimate attempt settled in one statement: one key's counter cleared, another's hit taken back. */
    async settle(keys: { reset: string; undo: string }): Promise<void> {
      await db
        .with(...settlementSteps(db, keys))
        .select({ settled: sql`true` })
        .from(sql`(select) as settled`);
    },
    /** Old windows are only clutter; the retention job calls this. */
    async prune(): Promise<void> {
      await db.delete(rateLimits).where(sql`${rateLimits.resetAt} < ${now().toISOString()}`);
    },
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;
