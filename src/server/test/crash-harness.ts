// The shop as a child process (the built server, as `npm start` runs it) on a PostgreSQL test database reached
// through the statement-counting fault proxy, beside an in-process app on the same database and files (to place orders, sign provider events and
// look at the result). For *.pg.test.ts files that kill the shop or cut its connection mid-work.
import type { DatabaseHandle } from '../db/client.js';
import type { AppOverrides } from '../app-types.js';
import { buildTestApp, type TestApp } from './app.js';
import { openPostgresTestDatabase } from './databases.js';
import { startFaultProxy, type FaultProxy } from './pg-fault-proxy.js';
import { freePort, startBuiltShopProcess, waitHealthy, type ShopProcess } from './shop-process.js';

export interface CrashHarness {
  db: DatabaseHandle;
  /** The database's own URL (not through the proxy), for terminating its backends. */
  databaseUrl: string;
  /** In-process app on the same database and files (its clock can be moved with `clockOffsetMs`). */
  seed: TestApp;
  proxy: FaultProxy;
  port: number;
  /** The shop process now running. */
  readonly shop: ShopProcess;
  /** Starts a new shop process (after a kill) and waits until it is healthy. */
  restart(): Promise<void>;
  /** SIGKILLs the running shop (from inside a proxy fault: it never sends the held statement). */
  killNow(): void;
  clockOffsetMs: number;
  close(): Promise<void>;
}

export async function startCrashHarness(options: { env?: Record<string, string>; seedEnv?: Record<string, string>; seedOverrides?: Omit<AppOverrides, 'db' | 'now'> } = {}): Promise<CrashHarness> {
  const { handle: db, url: databaseUrl } = await openPostgresTestDatabase();
  const harness = { clockOffsetMs: 0 } as CrashHarness & { shop: ShopProcess };
  const seed = await buildTestApp(db, options.seedEnv ?? {}, { ...options.seedOverrides, now: () => new Date(Date.now() + harness.clockOffsetMs) });
  const target = new URL(databaseUrl);
  const proxy = await startFaultProxy({ host: target.hostname, port: Number(target.port || 5432) });
  const port = await freePort();

  const restart = async () => {
    harness.shop = await startBuiltShopProcess({
      NODE_ENV: 'test',
      PORT: String(port),
      // The seed app's folder: the same files (customer photos, invoices) and the same secret.
      DATA_DIR: seed.dataDir,
      DATABASE_URL: proxy.urlFor(databaseUrl),
      APP_SECRET: seed.config.appSecret,
      PUBLIC_URL: 'http://shop.test',
      RETENTION_INTERVAL_MINUTES: '0',
      LOG_LEVEL: 'warn',
      // Every request comes from 127.0.0.1.
      LIMIT_DRAFTS_PER_HOUR: '100000',
      LIMIT_UPLOAD_MB_PER_HOUR: '1000000',
      ...options.env,
    });
    await waitHealthy(port, harness.shop);
  };
  Object.assign(harness, {
    db,
    databaseUrl,
    seed,
    proxy,
    port,
    restart,
    killNow: () => harness.shop.child.kill('SIGKILL'),
    async close() {
      harness.shop?.child.kill('SIGKILL');
      await harness.shop?.exited;
      await proxy.close();
      await seed.close();
      await db.close();
    },
  });
  await restart();
  return harness;
}
