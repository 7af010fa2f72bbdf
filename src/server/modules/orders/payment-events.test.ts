// What a payment owes after its commit is never lost: its mail, when the mail server is down, goes out
// from its job once the server is back; a payment whose event never arrives is found by asking the provider.
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { DatabaseHandle } from '../../db/client.js';
import { jobs, orderHistory, orders, outgoingMail } from '../../db/schema.js';
import { DEFERRED_MAIL_DELAY_MS, DEFERRED_MAIL_QUEUE } from '../../mail/deferred-mail.js';
import { startSmtpTestServer } from '../../mail/smtp-test-server.js';
import type { SandboxPaymentProvider } from '../../payment-providers/sandbox-provider.js';
import { buildTestApp, type TestApp } from '../../test/app.js';
import { testDatabases } from '../../test/databases.js';
import { payOrder, placeOrder } from '../../test/seed.js';
import { freePort } from '../../test/shop-process.js';
import { RECONCILE } from './payment-reconciliation.js';

describe.each(testDatabases())('payment events on $name', (testDb) => {
  let db: DatabaseHandle;
  let t: TestApp;
  let smtpPort: number;
  let clock = new Date('2026-11-24T10:00:00Z');

  beforeAll(async () => {
    db = await testDb.open();
    smtpPort = await freePort();
    // A mail server that is down at first: nothing listens on its port yet.
    t = await buildTestApp(db, { SMTP_URL: `smtp://127.0.0.1:${smtpPort}`, DEFAULT_PRODUCTION_MODE: 'manual' }, { now: () => clock });
  });
  afterAll(async () => {
    await t.close();
    await db.close();
  });

  const orderRow = async (id: string) => (await db.db.select().from(orders).where(eq(orders.id, id)))[0]!;

  test('the payment mail fails while the mail server is down; its job sends it once the server is back, exactly once', async () => {
    const order = await placeOrder(t.app);
    await payOrder(t.app, order);
    expect(await orderRow(order.orderId)).toMatchObject({ paymentStatus: 'paid' });
    const key = `payment-confirmed:${order.orderId}`;
    const [failed] = await db.db.select().from(outgoingMail).where(eq(outgoingMail.dedupeKey, key));
    expect(failed).toMatchObject({ status: 'failed' });
    const [job] = await db.db.select().from(jobs).where(and(eq(jobs.queue, DEFERRED_MAIL_QUEUE), eq(jobs.dedupeKey, key)));
    expect(job).toMatchObject({ status: 'pending', runAt: new Date(clock.getTime() + DEFERRED_MAIL_DELAY_MS) });

    // Still down when the job first runs: the attempt fails and waits.
    clock = new Date(clock.getTime() + DEFERRED_MAIL_DELAY_MS);
    await t.app.jobRunner!.drain();
    expect((await t.app.jobs.find(job!.id))!).toMatchObject({ status: 'pending', attempts: 1, lastError: expect.stringContaining('payment') });

    const smtp = await startSmtpTestServer({ port: smtpPort });
    try {
      clock = new Date(clock.getTime() + 60 * 60 * 1000);
      await t.app.jobRunner!.drain();
      expect((await t.app.jobs.find(job!.id))!.status).toBe('done');
      const [sent] = await db.db.select().from(outgoingMail).where(eq(outgoingMail.dedupeKey, key));
      expect(sent).toMatchObject({ status: 'sent', toAddress: order.email });
      // The order confirmation of the checkout was owed the same way: both arrived, once each.
      const [received] = await db.db.select().from(outgoingMail).where(and(eq(outgoingMail.orderId, order.orderId), eq(outgoingMail.template, 'order-received')));
      expect(received).toMatchObject({ status: 'sent' });
      expect(smtp.received.filter((m) => m.rcptTo.includes(order.email))).toHaveLength(2);
      // Paid again by a duplicate event later: no second mail.
      await payOrder(t.app, order);
      clock = new Date(clock.getTime() + 60 * 60 * 1000);
      await t.app.jobRunner!.drain();
      expect(smtp.received.filter((m) => m.rcptTo.includes(order.email))).toHaveLength(2);
    } finally {
      await smtp.close();
    }
  });

  test('a mail server that accepts and then never answers holds neither the checkout nor the event of the provider: both are answered, the mails go on after', { timeout: 60_000 }, async () => {
    // Takes the connection and says nothing: nodemailer waits for its greeting timeout.
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as net.AddressInfo).port;
    const slow = await buildTestApp(db, { SMTP_URL: `smtp://127.0.0.1:${port}`, DEFAULT_PRODUCTION_MODE: 'manual' }, { now: () => clock });
    try {
      const order = await placeOrder(slow.app);
      const mailRow = async (key: string) => (await db.db.select().from(outgoingMail).where(eq(outgoingMail.dedupeKey, key)))[0];
      // Checkout answered while its confirmation is still on its way.
      const [received] = await db.db.select().from(outgoingMail).where(and(eq(outgoingMail.orderId, order.orderId), eq(outgoingMail.template, 'order-received')));
      expect(received).toMatchObject({ status: 'sending' });
      await payOrder(slow.app, order);
      // The provider's event answered, the order paid, its mail still on its way (and owed by its job).
      expect(await orderRow(order.orderId)).toMatchObject({ paymentStatus: 'paid' });
      expect(await mailRow(`payment-confirmed:${order.orderId}`)).toMatchObject({ status: 'sending' });
      const [job] = await db.db.select().from(jobs).where(and(eq(jobs.queue, DEFERRED_MAIL_QUEUE), eq(jobs.dedupeKey, `payment-confirmed:${order.orderId}`)));
      expect(job).toMatchObject({ status: 'pending' });
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
      await slow.close();
    }
  });

  test('a payment whose event never arrives is found by asking the provider, once per window for all processes', async () => {
    const order = await placeOrder(t.app);
    const row = await orderRow(order.orderId);
    // The customer pays, but the provider's event is lost (a webhook misconfigured, down for days).
    await (t.app.payments as SandboxPaymentProvider).simulate(row.providerSessionId!, 'pay');
    expect((await orderRow(order.orderId)).paymentStatus).toBe('pending');
    // Too young to ask about: the event may still be on its way.
    expect((await t.app.paymentEvents.reconcileOpenCheckouts()).paid).toBe(0);
    clock = new Date(clock.getTime() + RECONCILE.minAgeMs + RECONCILE.everyMs);
    expect(await t.app.paymentEvents.reconcileOpenCheckouts()).toMatchObject({ paid: 1 });
    expect(await orderRow(order.orderId)).toMatchObject({ paymentStatus: 'paid', status: 'paid', providerPaymentId: expect.stringMatching(/^pi_/) });
    const history = await db.db.select().from(orderHistory).where(and(eq(orderHistory.orderId, order.orderId), eq(orderHistory.event, 'payment_received')));
    expect(history).toHaveLength(1);
    // Another process in the same window does nothing (the provider is asked once per window).
    expect(await t.app.paymentEvents.reconcileOpenCheckouts()).toEqual({ checked: 0, paid: 0 });
  });

  test('many abandoned checkouts do not hide a paid one: the oldest open checkout is reached within a few windows', async () => {
    const order = await placeOrder(t.app);
    const row = await orderRow(order.orderId);
    await (t.app.payments as SandboxPaymentProvider).simulate(row.providerSessionId!, 'pay');
    // Sixty abandoned checkouts placed after it, each with a session the provider no longer knows.
    const placedAt = row.orderedAt!.getTime();
    await db.db.insert(orders).values(
      Array.from({ length: 60 }, (_, i) => ({
        ...row,
        id: randomUUID(),
        orderNumber: `${row.orderNumber}-${i}`,
        email: `abandoned${i}@example.de`,
        providerSessionId: `cs_gone_${i}`,
        providerPaymentId: null,
        orderedAt: new Date(placedAt + (i + 1) * 1000),
        createdAt: new Date(placedAt + (i + 1) * 1000),
      })),
    );
    // Touched afterwards (its row version now lies after the others on disk): no natural order favours it.
    await db.db.update(orders).set({ language: row.language }).where(eq(orders.id, order.orderId));
    let windows = 0;
    while ((await orderRow(order.orderId)).paymentStatus !== 'paid' && windows < 12) {
      clock = new Date(clock.getTime() + RECONCILE.minAgeMs + RECONCILE.everyMs);
      expect((await t.app.paymentEvents.reconcileOpenCheckouts()).checked).toBe(RECONCILE.batch);
      windows++;
    }
    expect(await orderRow(order.orderId)).toMatchObject({ paymentStatus: 'paid' });
  });
});
