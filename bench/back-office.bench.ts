// Issue 5 figure: p99 latency of the staff order list with 10 000 orders in PostgreSQL.
// Uses DATABASE_URL's server, or the local one, and a database of its own that it drops afterwards.
// Smoke (BENCH_SMOKE=1): 200 orders and 1 s per autocannon run.
import { rm } from 'node:fs/promises';
import autocannon from 'autocannon';
import pg from 'pg';
import { SMOKE, benchApp, figure } from './in-process.js';
import { once, stopOnExit } from './support/processes.mjs';

const serverUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const database = `shop_bench_${process.pid}`;
const admin = new pg.Client({ connectionString: serverUrl });
await admin.connect();
await admin.query(`create database ${database}`);
const url = new URL(serverUrl);
url.pathname = `/${database}`;
const port = Number(process.env.BENCH_PORT ?? 3906);
const orderCount = SMOKE ? 200 : 10_000;
const orderCountShown = SMOKE ? String(orderCount) : '10 000';
const seconds = SMOKE ? 1 : 4;
let bench: Awaited<ReturnType<typeof benchApp>> | null = null;
// autocannon ends a run by destroying its connections, not by waiting for their answers: up to `connections`
// requests are still at work in the app when it returns. Fastify's close waits for open connections only, so
// closing at once ended the pg pool under them ("Cannot use a pool after calling end on the pool"). Requests
// are counted from arrival until their answer is sent (whether or not anyone is still there to read it), and
// the app closes once none is left.
let inFlight = 0;
async function requestsAnswered(timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (inFlight > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  if (inFlight > 0) console.log(`  (${inFlight} requests still unanswered after ${timeoutMs / 1000} s; closing anyway)`);
}
// Also on Ctrl-C: the database of its own goes with the app.
const cleanup = once(async () => {
  if (bench) await requestsAnswered();
  await bench?.app.close();
  // The pool's end resolves once its clients are told to close, not once the server has seen them go: a forced
  // drop right away cut the last ones ("terminating connection due to administrator command" on their sockets).
  for (let i = 0; i < 250; i++) {
    const { rows } = await admin.query<{ n: number }>('select count(*)::int as n from pg_stat_activity where datname = $1', [database]);
    if (rows[0]?.n === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await admin.query(`drop database if exists ${database} with (force)`);
  await admin.end();
  if (bench) await rm(bench.dataDir, { recursive: true, force: true });
});
stopOnExit(cleanup);
try {
  bench = await benchApp('office', { DATABASE_URL: url.toString() });
  const { app } = bench;
  app.server.on('request', () => inFlight++);
  app.addHook('onSend', async () => {
    inFlight--;
  });
  await app.db.migrate();
  // 10 000 placed orders (smoke: 200) over the last year, mixed packages and statuses.
  await app.db.db.execute(
    `insert into orders (id, order_number, status, payment_status, email, package, total_cents, package_cents, ordered_at, created_at, paid_at)
     select gen_random_uuid(), 'BF-' || upper(substr(md5(i::text), 1, 8)),
            (array['created','paid','in_progress','completed','cancelled'])[1 + i % 5],
            case when i % 5 in (1,2,3) then 'paid' else 'pending' end,
            'kunde' || i || '@example.de', (array['basic','pro','premium'])[1 + i % 3], 1490, 1490,
            now() - (i || ' minutes')::interval, now() - (i || ' minutes')::interval, now() - (i || ' minutes')::interval
     from generate_series(1, ${orderCount}) as i` as never,
  );
  await app.auth.createStaff({ email: 'bench@example.de', password: 'bench-password-123' });
  await app.listen({ port, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${port}`;
  const login = await fetch(`${base}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'bench@example.de', password: 'bench-password-123' }) });
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
  // One staff member clicking through, and ten at once.
  for (const connections of [1, 10]) {
    for (const [name, query] of [
      ['first page', 'page=1'],
      ['page 200', 'page=200'],
      ['status filter', 'status=paid&page=3'],
      ['search by e-mail', 'q=kunde4711'],
    ] as const) {
      const result = await autocannon({ url: `${base}/api/admin/orders?${query}`, connections, duration: seconds, headers: { cookie } });
      if (result.non2xx) throw new Error(`${result.non2xx} failed requests for ${name}`);
      figure(`order list, ${orderCountShown} orders (PG), ${name}, ${connections} conn.: p99`, result.latency.p99, 'ms');
    }
  }
} finally {
  await cleanup();
}
