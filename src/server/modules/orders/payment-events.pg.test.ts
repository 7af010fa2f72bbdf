// A paid order can never stay unpaid: the shop (the real start command, in a child process, on PostgreSQL
// through a proxy that counts statements) is killed, or loses its database connection, at every single
// statement of applying a payment event; the provider then delivers the event again, as Stripe does until
// it gets a 2xx. Each order must end paid exactly once: one event row, one history entry, one invoice, one
// studio job, and its confirmation mail sent or owed by a job (and sent once that job runs).
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { DatabaseHandle } from '../../db/client.js';
import { generatedImages, invoices, jobs, orderHistory, orders, outgoingMail, paymentEvents } from '../../db/schema.js';
import type { SandboxPaymentProvider } from '../../payment-providers/sandbox-provider.js';
import type { TestApp } from '../../test/app.js';
import { startCrashHarness, type CrashHarness } from '../../test/crash-harness.js';
import { placeOrder, type SeededOrder } from '../../test/seed.js';
import { WEBHOOK_PATH } from '../payments/routes.js';

let h: CrashHarness;
let db: DatabaseHandle;
let seed: TestApp;

beforeAll(async () => {
  // Nothing in the background: every statement through the proxy belongs to the event under test.
  h = await startCrashHarness({ env: { RUN_JOBS: 'false' } });
  ({ db, seed } = h);
}, 60_000);

afterAll(async () => {
  await h?.close();
});

/** What the provider sends when the customer pays: one signed checkout.session.completed event. */
async function paidEvent(order: SeededOrder) {
  const [row] = await db.db.select().from(orders).where(eq(orders.id, order.orderId));
  const result = await (seed.app.payments as SandboxPaymentProvider).simulate(row!.providerSessionId!, 'pay');
  expect(result!.events).toHaveLength(1);
  return { ...result!.events[0]!, id: (JSON.parse(result!.events[0]!.body) as { id: string }).id };
}

/** Delivers it as the provider would; a connection the shop never answers is a failed delivery. */
async function deliver(event: { body: string; signature: string }): Promise<{ status: number; body: { outcome?: string; error?: { code: string } } | null; retryAfter: string | null }> {
  try {
    const response = await fetch(`http://127.0.0.1:${h.port}${WEBHOOK_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': event.signature },
      body: event.body,
      signal: AbortSignal.timeout(15_000),
    });
    return { status: response.status, body: (await response.json()) as never, retryAfter: response.headers.get('retry-after') };
  } catch {
    return { status: 0, body: null, retryAfter: null };
  }
}

async function expectPaidOnce(order: SeededOrder, eventId: string) {
  const [row] = await db.db.select().from(orders).where(eq(orders.id, order.orderId));
  expect(row).toMatchObject({ paymentStatus: 'paid', status: 'paid' });
  const events = await db.db.select().from(paymentEvents).where(eq(paymentEvents.eventId, eventId));
  expect(events).toHaveLength(1);
  expect(events[0]).toMatchObject({ outcome: 'paid', orderId: order.orderId, processedAt: expect.any(Date) });
  const history = await db.db.select().from(orderHistory).where(and(eq(orderHistory.orderId, order.orderId), eq(orderHistory.event, 'payment_received')));
  expect(history).toHaveLength(1);
  expect(await db.db.select().from(invoices).where(eq(invoices.orderId, order.orderId))).toHaveLength(1);
  const studio = await db.db.select().from(jobs).where(and(eq(jobs.orderId, order.orderId), eq(jobs.queue, 'studio.drafts')));
  expect(studio).toHaveLength(1);
  // The confirmation mail: sent, or owed by its job (never neither).
  const key = `payment-confirmed:${order.orderId}`;
  const sent = await db.db.select().from(outgoingMail).where(eq(outgoingMail.dedupeKey, key));
  const owed = await db.db.select().from(jobs).where(and(eq(jobs.queue, 'mail'), eq(jobs.dedupeKey, key)));
  expect(sent.length).toBeLessThanOrEqual(1);
  expect(owed).toHaveLength(1);
}

/** Statements of one whole delivery (the transaction, then the mail, the invoice PDF and their rows). */
let steps = 0;
let normal: { order: SeededOrder; event: Awaited<ReturnType<typeof paidEvent>>; first: Awaited<ReturnType<typeof deliver>> };
const checked: SeededOrder[] = [];

describe('a payment event on PostgreSQL', () => {
  beforeAll(async () => {
    const order = await placeOrder(seed.app);
    const event = await paidEvent(order);
    h.proxy.resetCount();
    const first = await deliver(event);
    steps = h.proxy.statements;
    normal = { order, event, first };
  }, 60_000);

  test('delivered normally: counted statements, paid once, a second delivery is a duplicate', { timeout: 60_000 }, async () => {
    expect(normal.first).toMatchObject({ status: 200, body: { outcome: 'paid' } });
    expect(steps).toBeGreaterThan(10);
    expect((await deliver(normal.event)).body).toMatchObject({ outcome: 'duplicate' });
    await expectPaidOnce(normal.order, normal.event.id);
    checked.push(normal.order);
  });

  test('the process killed at every statement of applying it: the retry makes it paid, once', { timeout: 600_000 }, async () => {
    const outcomes: string[] = [];
    for (let n = 1; n <= steps; n++) {
      const order = await placeOrder(seed.app);
      const event = await paidEvent(order);
      const dying = h.shop;
      h.proxy.arm(n, { kind: 'kill', onFault: h.killNow });
      const cut = await deliver(event);
      expect(h.proxy.fired, `statement ${n} was reached`).toBe(true);
      expect(cut.status, `killed at statement ${n}`).toBe(0);
      await dying.exited;
      await h.restart();
      const retry = await deliver(event);
      expect(retry.status, `retry after a kill at statement ${n}`).toBe(200);
      outcomes.push(`${n}:${retry.body!.outcome}`);
      await expectPaidOnce(order, event.id);
      checked.push(order);
    }
    // Before the commit the retry applies it; after the commit it is a duplicate. Both happen.
    expect(outcomes.some((o) => o.endsWith(':paid'))).toBe(true);
    expect(outcomes.some((o) => o.endsWith(':duplicate'))).toBe(true);
  });

  test('the connection dropped at every statement: a 503 with a retry hint or a 200, the process lives on, the retry makes it paid once', { timeout: 300_000 }, async () => {
    const answers: number[] = [];
    for (let n = 1; n <= steps; n++) {
      const order = await placeOrder(seed.app);
      const event = await paidEvent(order);
      h.proxy.arm(n, { kind: 'drop' });
      const cut = await deliver(event);
      expect(h.proxy.fired, `statement ${n} was reached`).toBe(true);
      answers.push(cut.status);
      // Before the commit nothing counts and the provider is told to come back; afterwards the work is done.
      if (cut.status !== 200) {
        expect(cut.status, `dropped at statement ${n}`).toBe(503);
        expect(cut.body?.error?.code).toBe('serviceUnavailable');
        expect(Number(cut.retryAfter)).toBeGreaterThan(0);
      }
      expect(h.shop.child.exitCode, 'the process is alive').toBeNull();
      const retry = await deliver(event);
      expect(retry.status, `retry after a drop at statement ${n}`).toBe(200);
      await expectPaidOnce(order, event.id);
      checked.push(order);
    }
    expect(answers).toContain(503);
    expect(answers).toContain(200);
  });

  test('every owed confirmation mail goes out exactly once when its job runs', { timeout: 120_000 }, async () => {
    expect(checked.length).toBeGreaterThan(steps * 2);
    const ids = checked.map((o) => o.orderId);
    // The studio jobs are not the subject here; the mail jobs are due two minutes after their payment.
    await db.db.update(jobs).set({ status: 'done' }).where(and(inArray(jobs.orderId, ids), eq(jobs.queue, 'studio.drafts')));
    h.clockOffsetMs = 10 * 60 * 1000;
    await seed.app.jobRunner!.drain();
    const mails = await db.db
      .select({ orderId: outgoingMail.orderId, n: sql<number>`count(*)::int` })
      .from(outgoingMail)
      .where(and(inArray(outgoingMail.orderId, ids), eq(outgoingMail.template, 'payment-confirmed')))
      .groupBy(outgoingMail.orderId);
    expect(mails).toHaveLength(ids.length);
    expect(mails.every((m) => m.n === 1)).toBe(true);
    const pending = await db.db.select().from(jobs).where(and(eq(jobs.queue, 'mail'), inArray(jobs.status, ['pending', 'running', 'dead'])));
    expect(pending).toEqual([]);
    // Nothing was produced twice either: no draft images exist (the studio never ran), no event row is unprocessed.
    expect(await db.db.select().from(generatedImages).where(inArray(generatedImages.orderId, ids))).toEqual([]);
  });
});
