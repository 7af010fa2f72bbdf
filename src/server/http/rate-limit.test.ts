import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { queryRows, type DatabaseHandle } from '../db/client.js';
import { testDatabases } from '../test/databases.js';
import { createRateLimiter } from './rate-limit.js';

describe.each(testDatabases())('rate limits on $name', (testDb) => {
  let handle: DatabaseHandle;
  let clock = new Date('2026-11-26T10:00:00Z');
  beforeAll(async () => {
    handle = await testDb.open();
  });
  afterAll(async () => handle.close());

  test('counts per key within its window, refuses past the limit and starts again after it', async () => {
    const limiter = createRateLimiter(handle.db, () => clock);
    expect((await limiter.hit('a', 2, 60_000)).allowed).toBe(true);
    expect((await limiter.hit('a', 2, 60_000)).allowed).toBe(true);
    const third = await limiter.hit('a', 2, 60_000);
    expect(third).toMatchObject({ allowed: false, hits: 3 });
    expect((await limiter.hit('b', 2, 60_000)).hits).toBe(1);
    clock = new Date(clock.getTime() + 61_000);
    expect(await limiter.hit('a', 2, 60_000)).toMatchObject({ allowed: true, hits: 1 });
  });

  test('settle clears one key and takes one hit back from another, never below zero, in one statement', async () => {
    const limiter = createRateLimiter(handle.db, () => clock);
    for (let i = 0; i < 3; i++) await limiter.hit('order', 5, 60_000);
    await limiter.hit('address', 5, 60_000);
    await limiter.hit('address', 5, 60_000);
    await limiter.settle({ reset: 'order', undo: 'address' });
    expect((await limiter.hit('order', 5, 60_000, 0)).hits).toBe(0);
    expect((await limiter.hit('address', 5, 60_000, 0)).hits).toBe(1);
    await limiter.settle({ reset: 'order', undo: 'address' });
    await limiter.settle({ reset: 'order', undo: 'address' });
    expect((await limiter.hit('address', 5, 60_000, 0)).hits).toBe(0);
  });

  test('an amount of 0 only looks: it writes no row, and a window that ended counts as empty', async () => {
    const limiter = createRateLimiter(handle.db, () => clock);
    const keyRows = async (key: string) => (await queryRows<{ n: number }>(handle.db, sql`select count(*)::int as n from rate_limits where key = ${key}`))[0]!.n;
    expect(await limiter.hit('look', 1, 60_000, 0)).toMatchObject({ allowed: true, hits: 0, resetAt: new Date(clock.getTime() + 60_000) });
    expect(await keyRows('look')).toBe(0);
    await limiter.hit('look', 1, 60_000, 2);
    const window = new Date(clock.getTime() + 60_000);
    clock = new Date(clock.getTime() + 30_000);
    expect(await limiter.hit('look', 1, 60_000, 0)).toMatchObject({ allowed: false, hits: 2, resetAt: window });
    clock = new Date(clock.getTime() + 31_000);
    expect(await limiter.hit('look', 1, 60_000, 0)).toMatchObject({ allowed: true, hits: 0 });
    expect((await queryRows<{ hits: number }>(handle.db, sql`select hits from rate_limits where key = 'look'`))[0]!.hits).toBe(2);
  });

  test('the counters are kept out of the write-ahead log (an unlogged table)', async () => {
    const [row] = await queryRows<{ persistence: string }>(handle.db, sql`select relpersistence as persistence from pg_class where relname = 'rate_limits'`);
    expect(row?.persistence).toBe('u');
  });
});
