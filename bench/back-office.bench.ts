// A year of orders on PostgreSQL (issue 22): the staff order list (first page, a deep page, a status filter,
// search by part of an e-mail) and customers' tracking lookups at 100 000 orders, with 1 and 10 connections at
// once, against the built shop in a process of its own (as `npm start` runs it), so the load generator does not
// share its event loop. Also the web process's memory at rest and under this load.
// Uses DATABASE_URL's server, or the local one, and a database of its own that it drops afterwards.
// Smoke (BENCH_SMOKE=1): 500 orders and 1 s per autocannon run.
import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import autocannon from 'autocannon';
import pg from 'pg';
import { ORDER_NUMBER_ALPHABET, ORDER_NUMBER_LENGTH } from '../src/domain/order-number.js';
import { SMOKE, idleResidentMb, printFigure, residentMb, startShop, tempDataDir } from './lib.mjs';
import { benchApp, productionBenchEnv } from './in-process.js';
import { once, stopChild, stopOnExit } from './support/processes.mjs';
import { benchDatabase } from './support/bench-database.mjs';
import { cpuMilliseconds as cpuMs } from './support/proc-stats.mjs';

const database = await benchDatabase('office');
const port = Number(process.env.BENCH_PORT ?? 3906);
const orderCount = SMOKE ? 500 : 100_000;
const shownCount = SMOKE ? String(orderCount) : '100 000';
const seconds = SMOKE ? 1 : 5;
const dataDir = tempDataDir('office');
let shop: Awaited<ReturnType<typeof startShop>> | null = null;
const cleanup = once(async () => {
  await stopChild(shop?.child);
  await database.drop();
  rmSync(dataDir, { recursive: true, force: true });
});
stopOnExit(cleanup);

/**
 * The i-th seeded order's e-mail address, as the insert below writes it: as varied as customers' addresses are
 * (a search's trigrams are as selective as with real ones, not all "kunde…@example.de").
 */
function email(i: number) {
  const domains = ['gmail.com', 'web.de', 'gmx.de', 't-online.de', 'outlook.de'];
  return `${createHash('md5').update(`kunde${i}`).digest('hex').slice(0, 8)}.${i}@${domains[i % 5]}`;
}

/** The i-th seeded order's number, as the insert below writes it (base 30 in the order-number alphabet). */
function orderNumber(i: number) {
  let digits = '';
  for (let k = 0; k < ORDER_NUMBER_LENGTH; k++) digits += ORDER_NUMBER_ALPHABET[Math.floor(i / 30 ** k) % 30];
  return `BF-${digits}`;
}

try {
  const env = {
    ...productionBenchEnv(dataDir),
    DATABASE_URL: database.url,
    // Jobs run in worker processes (bench/load); this process only answers requests.
    RUN_JOBS: 'false',
    // Customers behind a proxy, each from an address of its own: the per-address limits are not the subject.
    TRUST_PROXY: 'true',
  };
  // Schema and a staff login through the app's own code, then the orders in one statement: a year of placed
  // orders, mixed packages and statuses, one every five minutes.
  const seeding = await benchApp('office-seed', env);
  try {
    await seeding.app.db.migrate();
    await seeding.app.auth.createStaff({ email: 'bench@example.de', password: 'bench-password-123' });
  } finally {
    await seeding.app.close();
    rmSync(seeding.dataDir, { recursive: true, force: true });
  }
  const seedStart = performance.now();
  const seeder = new pg.Client({ connectionString: database.url });
  await seeder.connect();
  await seeder.query(
    `insert into orders (id, order_number, status, payment_status, email, package, total_cents, package_cents, ordered_at, created_at, paid_at)
     select gen_random_uuid(),
            'BF-' || (select string_agg(substr($1, 1 + ((i / power(30, k)::bigint) % 30)::int, 1), '' order by k) from generate_series(0, $2 - 1) as k),
            (array['created','paid','in_progress','completed','cancelled'])[1 + i % 5],
            case when i % 5 in (1,2,3) then 'paid' else 'pending' end,
            substr(md5('kunde' || i), 1, 8) || '.' || i || '@' || (array['gmail.com','web.de','gmx.de','t-online.de','outlook.de'])[1 + i % 5],
            (array['basic','pro','premium'])[1 + i % 3], 1490, 1490,
            now() - (i * 5 || ' minutes')::interval, now() - (i * 5 || ' minutes')::interval, now() - (i * 5 || ' minutes')::interval
     from generate_series(1, ${orderCount}) as i`,
    [ORDER_NUMBER_ALPHABET, ORDER_NUMBER_LENGTH],
  );
  // As autovacuum leaves a year-old table: statistics current, the trigram indexes' pending entries merged (a
  // freshly filled GIN index keeps up to 4 MB of them in a list every search reads through).
  await seeder.query('vacuum analyze orders');
  await seeder.end();
  console.log(`  ${shownCount} orders seeded in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);

  shop = await startShop({ port, dataDir, env });
  const pid = shop.child.pid!;
  printFigure('web process (PostgreSQL) at rest: RSS', await idleResidentMb(pid, SMOKE ? 1 : 10), 'MB', '<= 120 MB');
  let peak = residentMb(pid);
  const sampler = setInterval(() => (peak = Math.max(peak, residentMb(pid))), 100);

  const base = shop.url;
  const login = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': '10.255.0.1' },
    body: JSON.stringify({ email: 'bench@example.de', password: 'bench-password-123' }),
  });
  if (login.status !== 200) throw new Error(`staff login: ${login.status}`);
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
  const deepPage = Math.min(200, Math.ceil(orderCount / 25));
  // One staff member clicking through, and ten at once.
  for (const connections of [1, 10]) {
    for (const [name, query] of [
      ['first page', 'page=1'],
      [`page ${deepPage}`, `page=${deepPage}`],
      ['status filter', 'status=paid&page=3'],
      ['e-mail search', `q=${email(4711).slice(0, 6)}`],
    ] as const) {
      const cpuBefore = cpuMs(pid);
      const result = await autocannon({ url: `${base}/api/admin/orders?${query}`, connections, duration: seconds, headers: { cookie } });
      if (result.non2xx || result.errors) throw new Error(`${result.non2xx} failed requests and ${result.errors} errors for ${name}`);
      printFigure(`order list, ${shownCount} orders, ${name}, ${connections} conn.: p99`, result.latency.p99, 'ms', connections === 10 ? '< 50 ms' : '');
      if (connections === 10) printFigure(`  ${name}: web process CPU per request`, (cpuMs(pid) - cpuBefore) / result.requests.total, 'ms');
    }
  }

  // Customers looking up their orders: each lookup a different order from a different address.
  let n = 0;
  const cpuBefore = cpuMs(pid);
  const lookups = await autocannon({
    url: `${base}/api/tracking`,
    connections: 10,
    duration: seconds * 2,
    requests: [
      {
        method: 'POST',
        setupRequest: (request) => {
          const i = 1 + (n++ % orderCount);
          return {
            ...request,
            headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}` },
            body: JSON.stringify({ orderId: orderNumber(i), email: email(i) }),
          };
        },
      },
    ],
  });
  if (lookups.non2xx || lookups.errors) throw new Error(`${lookups.non2xx} tracking lookups not answered 200, ${lookups.errors} errors`);
  printFigure(`tracking lookups, ${shownCount} orders, 10 conn.: p99`, lookups.latency.p99, 'ms', '< 50 ms');
  printFigure('tracking lookups per second, 10 conn.', Math.round(lookups.requests.average), 'req/s');
  printFigure('  tracking: web process CPU per lookup', (cpuMs(pid) - cpuBefore) / lookups.requests.total, 'ms');
  clearInterval(sampler);
  printFigure('web process (PostgreSQL) under this load: peak RSS', peak, 'MB', '<= 250 MB');
} finally {
  await cleanup();
}
