// A process that survives its database: PostgreSQL backends terminated (pg_terminate_backend, as a restart
// or a failover does) while a connection is idle inside a transaction, while a request is in flight, while
// the server is unreachable and while a studio job runs. The shop answers 503 with a retry hint, reports
// the database in its health check, and carries on by itself once the database is back.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { generatedImages, jobs, orders } from './schema.js';
import { openDatabase, STATEMENT_TIMEOUT_MS, type DatabaseHandle } from './client.js';
import { isDatabaseUnavailable } from './errors.js';
import type { SandboxPaymentProvider } from '../payment-providers/sandbox-provider.js';
import { WEBHOOK_PATH } from '../modules/payments/routes.js';
import { createRetentionService } from '../modules/retention/retention-service.js';
import { STUDIO_QUEUE } from '../modules/production/studio-service.js';
import type { TestApp } from '../test/app.js';
import { startCrashHarness, type CrashHarness } from '../test/crash-harness.js';
import type { FaultProxy } from '../test/pg-fault-proxy.js';
import { placeOrder, setOrder } from '../test/seed.js';
import { createStorage } from '../storage/create-storage.js';

let h: CrashHarness;
let db: DatabaseHandle;
let databaseUrl: string;
let seed: TestApp;
let proxy: FaultProxy;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What a restart or failover does to every session of the shop's database. */
async function terminateBackends(): Promise<number> {
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ n: number }>(
      'select count(pg_terminate_backend(pid))::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
    );
    return rows[0]!.n;
  } finally {
    await admin.end();
  }
}

async function call(method: string, url: string, body?: object, headers: Record<string, string> = {}) {
  try {
    const response = await fetch(`http://127.0.0.1:${h.port}${url}`, {
      method,
      headers: body ? { 'content-type': 'application/json', ...headers } : headers,
      body: body ? JSON.stringify(body) : null,
      signal: AbortSignal.timeout(20_000),
    });
    return { status: response.status, retryAfter: response.headers.get('retry-after'), json: (await response.json()) as Record<string, unknown> & { error?: { code: string; requestId: string } } };
  } catch (error) {
    return { status: 0, retryAfter: null, json: { failure: String(error) } as Record<string, unknown> & { error?: { code: string; requestId: string } } };
  }
}

beforeAll(async () => {
  // Jobs on (the studio job below), campaign off (prices as listed).
  h = await startCrashHarness({ seedEnv: { CAMPAIGN_PERCENT: '0' } });
  ({ db, databaseUrl, seed, proxy } = h);
}, 60_000);

afterAll(async () => {
  await h?.close();
});

describe('the database goes away (PostgreSQL)', () => {
  test('a connection idle inside a transaction when its backend is terminated: the transaction fails cleanly, the pool goes on', async () => {
    const handle = await openDatabase({ kind: 'postgres', url: databaseUrl, poolSize: 2 });
    try {
      const attempt = handle.db.transaction(async (tx) => {
        await tx.execute(sql`select 1`);
        await terminateBackends();
        // The server's goodbye arrives while no query runs on this connection: before the fix, an
        // unhandled 'error' event that ended the process.
        await sleep(300);
        await tx.execute(sql`select 1`);
      });
      const error = await attempt.then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).not.toBeNull();
      expect(isDatabaseUnavailable(error)).toBe(true);
      const again = (await handle.db.execute(sql`select 2 as n`)) as unknown as { rows: { n: number }[] };
      expect(again.rows[0]!.n).toBe(2);
    } finally {
      await handle.close();
    }
  });

  test('no statement waits forever: the server ends one after a minute, with keepalive on the connection', async () => {
    const handle = await openDatabase({ kind: 'postgres', url: databaseUrl, poolSize: 1 });
    try {
      const shown = (await handle.db.execute(sql`show statement_timeout`)) as unknown as { rows: { statement_timeout: string }[] };
      expect(STATEMENT_TIMEOUT_MS).toBe(60_000);
      expect(shown.rows[0]!.statement_timeout).toBe('1min');
    } finally {
      await handle.close();
    }
  });

  test('backends terminated in the middle of a request: 503 with our error shape and a retry hint; the process lives; the retry succeeds', { timeout: 60_000 }, async () => {
    const order = await placeOrder(seed.app);
    const [row] = await db.db.select().from(orders).where(eq(orders.id, order.orderId));
    const [event] = (await (seed.app.payments as SandboxPaymentProvider).simulate(row!.providerSessionId!, 'pay'))!.events;
    const headers = { 'stripe-signature': event!.signature };
    // Inside the event's transaction: the statement after the event row, on that connection (the job runner's
    // polls on other connections once took the count and the request went through unheld).
    let terminating: Promise<number> | undefined;
    proxy.arm(
      2,
      {
        kind: 'hold',
        onFault: () => {
          terminating = terminateBackends().finally(() => proxy.release());
          // Its failure is reported where it is awaited below, not as an unhandled rejection meanwhile.
          terminating.catch(() => {});
        },
      },
      { from: /insert into "payment_events"/i },
    );
    const answer = await call('POST', WEBHOOK_PATH, JSON.parse(event!.body) as object, headers);
    expect(proxy.fired).toBe(true);
    // The shop can answer before the admin connection that terminated its backends has said goodbye: the
    // count is awaited, not read from a variable that the termination's callback may not have set yet.
    expect(await terminating).toBeGreaterThan(0);
    expect(answer.status).toBe(503);
    expect(answer.json.error).toMatchObject({ code: 'serviceUnavailable', requestId: expect.any(String) });
    expect(Number(answer.retryAfter)).toBeGreaterThan(0);
    expect(h.shop.child.exitCode).toBeNull();
    expect(h.shop.output()).not.toMatch(/Unhandled 'error' event|uncaught/i);
    // Signed over the exact bytes: the provider sends the same body again.
    const retry = await fetch(`http://127.0.0.1:${h.port}${WEBHOOK_PATH}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: event!.body });
    expect(retry.status).toBe(200);
    expect(await retry.json()).toMatchObject({ outcome: 'paid' });
  });

  test('while the server is unreachable: health says so, requests get a 503 within seconds; afterwards everything works without a restart', { timeout: 60_000 }, async () => {
    proxy.accept(false);
    await terminateBackends();
    const health = await call('GET', '/api/health');
    expect(health.status).toBe(503);
    expect(health.json).toMatchObject({ status: 'degraded', database: 'failed' });
    const started = Date.now();
    const draft = await call('POST', '/api/orders', { language: 'de', selection: { gender: null, style: null, package: null, location: null, outfit: null, extras: [] }, photoConsent: true, photoConsentVersion: '2026-11-01' });
    expect(draft.status).toBe(503);
    expect(draft.json.error?.code).toBe('serviceUnavailable');
    expect(draft.retryAfter).toBeTruthy();
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(h.shop.child.exitCode).toBeNull();

    proxy.accept(true);
    expect((await call('GET', '/api/health')).json).toMatchObject({ status: 'ok', database: 'ok' });
    const created = await call('POST', '/api/orders', { language: 'de', selection: { gender: null, style: null, package: null, location: null, outfit: null, extras: [] }, photoConsent: true, photoConsentVersion: '2026-11-01' });
    expect(created.status).toBe(201);
  });

  test('backends terminated again and again while a studio job runs: the job carries on and makes each draft exactly once', { timeout: 120_000 }, async () => {
    const order = await placeOrder(seed.app, { selection: { gender: 'female', style: 'professional', package: 'pro', location: 'creative', outfit: null, extras: [] } });
    await setOrder(seed.app, order.orderId, { productionMode: 'studio' });
    const [row] = await db.db.select().from(orders).where(eq(orders.id, order.orderId));
    const [event] = (await (seed.app.payments as SandboxPaymentProvider).simulate(row!.providerSessionId!, 'pay'))!.events;
    // Paid through the shop process, whose job runner (RUN_JOBS on) takes the studio job.
    const paid = await fetch(`http://127.0.0.1:${h.port}${WEBHOOK_PATH}`, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': event!.signature }, body: event!.body });
    expect(paid.status).toBe(200);
    const job = async () => (await db.db.select().from(jobs).where(and(eq(jobs.orderId, order.orderId), eq(jobs.queue, STUDIO_QUEUE))))[0];
    const deadline = Date.now() + 100_000;
    let terminations = 0;
    while (Date.now() < deadline) {
      const current = await job().catch(() => undefined);
      if (current?.status === 'done') break;
      if (current?.status === 'running' && terminations < 3) {
        await terminateBackends();
        terminations++;
        await sleep(700);
        continue;
      }
      await sleep(200);
    }
    expect(terminations).toBe(3);
    expect((await job())!.status).toBe('done');
    const drafts = await db.db.select().from(generatedImages).where(eq(generatedImages.orderId, order.orderId));
    expect(drafts).toHaveLength(10);
    // One image per output slot (the unique generation key) and one file per image: nothing made twice.
    expect(new Set(drafts.map((d) => d.generationKey)).size).toBe(10);
    expect(new Set(drafts.map((d) => d.storageKey)).size).toBe(10);
    expect(h.shop.child.exitCode).toBeNull();
  });

  test('the deletion job: a run without the database fails cleanly, and the next one does the work', { timeout: 30_000 }, async () => {
    const handle = await openDatabase({ kind: 'postgres', url: proxy.urlFor(databaseUrl), poolSize: 2 });
    const filesDir = await mkdtemp(path.join(os.tmpdir(), 'shop-dbloss-files-'));
    try {
      const draft = await placeOrder(seed.app);
      // An unpaid order placed long ago is due for deletion.
      await setOrder(seed.app, draft.orderId, { orderedAt: new Date(Date.now() - 30 * 24 * 3600 * 1000), createdAt: new Date(Date.now() - 30 * 24 * 3600 * 1000), providerSessionId: null });
      const retention = createRetentionService({ db: handle, storage: createStorage({ driver: 'local', dir: filesDir }, { secret: 'x'.repeat(32), defaultTtlSeconds: 60 }), now: () => new Date() });
      proxy.accept(false);
      await terminateBackends();
      const failed = await retention.run().then(
        () => null,
        (error: unknown) => error,
      );
      expect(isDatabaseUnavailable(failed)).toBe(true);
      proxy.accept(true);
      const run = await retention.run();
      expect(run.purged.map((p) => p.orderId)).toContain(draft.orderId);
    } finally {
      proxy.accept(true);
      await handle.close();
      await rm(filesDir, { recursive: true, force: true });
    }
  });
});
