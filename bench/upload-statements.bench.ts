// The database work of one upload (issue 22, the tenth stop): the address's volume look and count (rate-limit.ts),
// the file's note (storage/intents.ts) and the photo check's record with its job (order-repository.ts), run the
// way the shop runs them, on PostgreSQL with one connection. Prints the CPU time per upload of this process (the
// web process's share: building the statements, the driver) and of the PostgreSQL backend that serves the
// connection (parsing, planning, running), and the wall time; then checks that the four are the connection's
// named prepared statements. Were they built and planned anew for every upload, as before the tenth stop, both
// CPU figures would grow by about half (1.2-1.5 ms instead of 0.8-1.0 ms each, measured then) and the last
// figure would fall short of 4.
// Uses DATABASE_URL's server, or the local one, and a database of its own that it drops afterwards.
// Smoke (BENCH_SMOKE=1): 50 uploads instead of 3 x 1 000.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { openDatabase, queryRows } from '../src/server/db/client.js';
import { orders } from '../src/server/db/schema.js';
import { createRateLimiter } from '../src/server/http/rate-limit.js';
import { PHOTO_CHECK_QUEUE } from '../src/server/modules/orders/draft-uploads.js';
import { createOrderRepository } from '../src/server/modules/orders/order-repository.js';
import { noteIntent } from '../src/server/storage/intents.js';
import { SMOKE, figure } from './in-process.js';
import { benchDatabase } from './support/bench-database.mjs';
import { cpuMilliseconds as cpuMs } from './support/proc-stats.mjs';
import { once, stopOnExit } from './support/processes.mjs';

const database = await benchDatabase('statements');
const handle = await openDatabase({ kind: 'postgres', url: database.url, poolSize: 1 });
const cleanup = once(async () => {
  await handle.close();
  await database.drop();
});
stopOnExit(cleanup);

const rounds = SMOKE ? 1 : 3;
const perRound = SMOKE ? 50 : 1000;
const HOUR_MS = 60 * 60 * 1000;

try {
  await handle.migrate();
  const db = handle.db;
  const limiter = createRateLimiter(db, () => new Date());
  const repository = createOrderRepository(db);
  const backendPid = (await queryRows<{ pid: number }>(db, sql`select pg_backend_pid() as pid`))[0]!.pid;
  const ownPid = process.pid;

  /** A draft order; each takes twenty photos here (the bench's own limit, so every photo finds room). */
  async function newOrder(i: number) {
    const id = randomUUID();
    await db.insert(orders).values({ id, orderNumber: `BF-BENCH${i}`, gender: 'male', styleBase: 'casual', package: 'basic' });
    return id;
  }

  /** One upload's statements, as routes.ts and draft-uploads.ts run them for a photo of about 2.7 MB. */
  async function upload(orderId: string, address: string) {
    const key = `upload-kb:ip:${address}`;
    await limiter.hit(key, 500_000, HOUR_MS, 0);
    await limiter.hit(key, 500_000, HOUR_MS, 2700);
    const id = randomUUID();
    const storageKey = `checks/${orderId}/${id}.jpg`;
    const now = new Date();
    await noteIntent(db, [storageKey], now);
    const verdict = await repository.recordPhotoCheck({ id, orderId, fileName: 'selfie.jpg', storageKey, createdAt: now }, 20, {
      queue: PHOTO_CHECK_QUEUE,
      payload: { checkId: id },
      orderId,
      dedupeKey: id,
      maxAttempts: 3,
    });
    if (verdict !== 'recorded') throw new Error(`the photo check was not recorded: ${verdict}`);
  }

  // Warm-up: the first uploads prepare the statements on the connection.
  const warmUp = await newOrder(0);
  for (let i = 0; i < 20; i++) await upload(warmUp, '203.0.113.1');

  const ownPerUpload: number[] = [];
  const backendPerUpload: number[] = [];
  const wallPerUpload: number[] = [];
  let made = 1;
  for (let round = 0; round < rounds; round++) {
    const orderIds: string[] = [];
    for (let i = 0; i < perRound / 20; i++) orderIds.push(await newOrder(made++));
    const own = cpuMs(ownPid);
    const backend = cpuMs(backendPid);
    const started = performance.now();
    for (let i = 0; i < perRound; i++) await upload(orderIds[Math.floor(i / 20)]!, `198.51.${round}.${i % 250}`);
    wallPerUpload.push((performance.now() - started) / perRound);
    ownPerUpload.push((cpuMs(ownPid) - own) / perRound);
    backendPerUpload.push((cpuMs(backendPid) - backend) / perRound);
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  figure(`this process's CPU per upload (median of ${rounds} x ${perRound})`, median(ownPerUpload), 'ms');
  figure("PostgreSQL backend's CPU per upload", median(backendPerUpload), 'ms');
  figure('wall time of the four statements per upload', median(wallPerUpload), 'ms');
  const prepared = await queryRows<{ name: string }>(db, sql`select name from pg_prepared_statements order by name`);
  const expected = ['photo_check_record', 'rate_limit_count', 'rate_limit_look', 'storage_intent_note'];
  const found = expected.filter((name) => prepared.some((row) => row.name === name));
  figure('named prepared statements of an upload on the connection', found.length, `of ${expected.length}`, String(expected.length));
  if (found.length !== expected.length) {
    console.error(`not prepared: ${expected.filter((name) => !found.includes(name)).join(', ')}`);
    process.exitCode = 1;
  }
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  await cleanup();
}
