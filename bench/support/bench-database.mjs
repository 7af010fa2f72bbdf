// A PostgreSQL database of a benchmark's own, on DATABASE_URL's server or the local one, dropped afterwards.
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';

/**
 * Creates `shop_bench_<name>_<pid>` and returns its name, its address and `drop()`, which waits (up to 5 s) until the
 * processes that used it have closed their connections, then drops it (forcing what is left) and disconnects.
 */
export async function benchDatabase(name) {
  const serverUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const database = `shop_bench_${name}_${process.pid}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${database}`);
  } catch (error) {
    await admin.end().catch(() => {});
    throw error;
  }
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  let dropped = false;
  return {
    name: database,
    url: url.toString(),
    async drop() {
      if (dropped) return;
      dropped = true;
      try {
        for (let i = 0; i < 100; i++) {
          const { rows } = await admin.query('select count(*)::int as n from pg_stat_activity where datname = $1', [database]);
          if (rows[0].n === 0) break;
          await sleep(50);
        }
        await admin.query(`drop database if exists ${database} with (force)`);
      } finally {
        await admin.end().catch(() => {});
      }
    },
  };
}
