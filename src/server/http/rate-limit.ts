// Fixed-window counters in the database, so every app process shares them (no process memory).
import { inArray, sql } from 'drizzle-orm';
import { queryRows, type Database } from '../db/client.js';
import { rateLimits } from '../db/schema.js';

export interface RateLimitResult {
  allowed: boolean;
  hits: number;
  resetAt: Date;
}

export function createRateLimiter(db: Database, now: () => Date) {
  return {
    /**
     * Counts `amount` (one hit, or a quantity such as kilobytes received) for the key and says whether the
     * window's total is within the limit. An amount of 0 only looks.
     */
    async hit(key: string, limit: number, windowMs: number, amount = 1): Promise<RateLimitResult> {
      const at = now();
      const resetAt = new Date(at.getTime() + windowMs);
      const [row] = await queryRows<{ hits: number; reset_at: Date | string }>(
        db,
        sql`insert into ${rateLimits} (key, hits, reset_at) values (${key}, ${amount}, ${resetAt.toISOString()})
            on conflict (key) do update set
              hits = case when ${rateLimits.resetAt} <= ${at.toISOString()} then ${amount} else ${rateLimits.hits} + ${amount} end,
              reset_at = case when ${rateLimits.resetAt} <= ${at.toISOString()} then excluded.reset_at else ${rateLimits.resetAt} end
            returning hits, reset_at`,
      );
      const hits = Number(row!.hits);
      return { allowed: hits <= limit, hits, resetAt: new Date(row!.reset_at) };
    },
    /** Takes back one hit (an attempt that turned out legitimate), never below zero. */
    async undo(key: string): Promise<void> {
      await db.update(rateLimits).set({ hits: sql`greatest(${rateLimits.hits} - 1, 0)` }).where(sql`${rateLimits.key} = ${key}`);
    },
    async reset(...keys: string[]): Promise<void> {
      if (keys.length) await db.delete(rateLimits).where(inArray(rateLimits.key, keys));
    },
    /** A legitimate attempt settled in one statement: one key's counter cleared, another's hit taken back. */
    async settle({ reset, undo }: { reset: string; undo: string }): Promise<void> {
      await db.execute(
        sql`with cleared as (delete from ${rateLimits} where key = ${reset})
            update ${rateLimits} set hits = greatest(hits - 1, 0) where key = ${undo}`,
      );
    },
    /** Old windows are only clutter; the retention job calls this. */
    async prune(): Promise<void> {
      await db.delete(rateLimits).where(sql`${rateLimits.resetAt} < ${now().toISOString()}`);
    },
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;
