// Refunds: nothing changes on the staff's click; the provider's event decides, once.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { DatabaseHandle } from '../../db/client.js';
import { invoices, orderHistory, orders, outgoingMail, refunds } from '../../db/schema.js';
import { ProviderRefusedError, type PaymentProvider } from '../../payment-providers/provider.js';
import type { SandboxPaymentProvider } from '../../payment-providers/sandbox-provider.js';
import { buildTestApp, type TestApp } from '../../test/app.js';
import { testDatabases } from '../../test/databases.js';
import { signInStaff, type StaffClient } from '../../test/staff.js';
import { pdfText } from '../../test/pdf-text.js';
import { deliverEvent, payOrder, placeOrder } from '../../test/seed.js';


describe.each(testDatabases())('refunds on $name', (testDb) => {
  let db: DatabaseHandle;
  let t: TestApp;
  let staff: StaffClient;
  beforeAll(async () => {
    db = await testDb.open();
    t = await buildTestApp(db, { CAMPAIGN_PERCENT: '0', SITE_VAT_ID: 'DE123456789' });
    staff = await signInStaff(t.app, '10.91.0.1');
  });
  afterAll(async () => {
    await t.close();
    await db.close();
  });

  const admin = (method: 'GET' | 'POST', url: string, payload?: object) => staff.request(method, url, payload);
  const orderRow = async (id: string) => (await db.db.select().from(orders).where(eq(orders.id, id)))[0]!;
  const deliver = (event: { body: string; signature: string }) => deliverEvent(t.app, event);

  test('a partial refund changes nothing until the provider confirms it; then a cancellation invoice and a mail, once', async () => {
    const order = await placeOrder(t.app);
    await payOrder(t.app, order);
    const requested = await admin('POST', `/api/admin/orders/${order.orderId}/refunds`, { amountCents: 500, reason: 'Kulanz' });
    expect(requested.statusCode).toBe(201);
    expect(requested.json()).toMatchObject({ status: 'requested', amountCents: 500, providerRefundId: expect.stringMatching(/^re_sandbox_/) });
    // The click alone: still paid, nothing refunded, no cancellation invoice, no mail.
    expect(await orderRow(order.orderId)).toMatchObject({ paymentStatus: 'paid', refundedCents: 0 });
    expect(await db.db.select().from(invoices).where(and(eq(invoices.orderId, order.orderId), eq(invoices.kind, 'cancellation')))).toEqual([]);

    const row = await orderRow(order.orderId);
    const refundId = requested.json().id as string;
    const event = (t.app.payments as SandboxPaymentProvider).refundEvent({ id: requested.json().providerRefundId, orderId: order.orderId, refundId, amountCents: 500, paymentIntentId: row.providerPaymentId!, outcome: 'succeeded' });
    expect((await deliver(event)).json()).toMatchObject({ outcome: 'refunded' });
    expect((await deliver(event)).json()).toMatchObject({ outcome: 'duplicate' });
    expect(await orderRow(order.orderId)).toMatchObject({ paymentStatus: 'paid', refundedCents: 500 });
    const [refund] = await db.db.select().from(refunds).where(eq(refunds.id, refundId));
    expect(refund).toMatchObject({ status: 'succeeded', confirmedAt: expect.any(Date) });

    const issued = await db.db.select().from(invoices).where(eq(invoices.orderId, order.orderId));
    const original = issued.find((i) => i.kind === 'invoice')!;
    const cancellation = issued.find((i) => i.kind === 'cancellation')!;
    expect(cancellation).toMatchObject({ grossCents: -500, correctsInvoiceId: original.id, refundId });
    expect(cancellation.netCents + cancellation.vatCents).toBe(-500);
    expect(cancellation.sequence).toBeGreaterThan(original.sequence);
    const text = await pdfText((await t.app.invoices.file(order.orderId, cancellation.id)).buffer);
    expect(text).toContain('Stornorechnung (Rechnungskorrektur)');
    expect(text).toContain(`Korrektur zur Rechnung ${original.number}`);
    expect(text).toContain('-5,00 €');

    const mails = await db.db.select().from(outgoingMail).where(and(eq(outgoingMail.orderId, order.orderId), eq(outgoingMail.template, 'refund-confirmed')));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain('5,00');
    expect(mails[0]!.text).toContain(cancellation.number);
    const history = await db.db.select().from(orderHistory).where(eq(orderHistory.orderId, order.orderId));
    expect(history.map((h) => h.event)).toEqual(expect.arrayContaining(['refund_requested', 'refund_confirmed']));
  });

  test('the rest refunded makes the order refunded; more than was paid is refused; a failed refund is recorded', async () => {
    const order = await placeOrder(t.app);
    await payOrder(t.app, order);
    const total = (await orderRow(order.orderId)).totalCents!;
    expect((await admin('POST', `/api/admin/orders/${order.orderId}/refunds`, { amountCents: total + 1 })).json().error.code).toBe('refundTooLarge');
    // A reason with a control character is refused by the one text rule, before anything is stored or sent.
    const hostile = await admin('POST', `/api/admin/orders/${order.orderId}/refunds`, { amountCents: 100, reason: 'Kulanz\u0000' });
    expect(hostile.statusCode).toBe(400);
    expect(hostile.json().error.fields).toEqual({ reason: 'invalidText' });
    // Seats are a team order's: a customer's order has none to give back.
    const seats = await admin('POST', `/api/admin/orders/${order.orderId}/refunds`, { seats: 1 });
    expect([seats.statusCode, seats.json().error.code]).toEqual([422, 'notATeamOrder']);

    const failing = (await admin('POST', `/api/admin/orders/${order.orderId}/refunds`, { amountCents: total })).json();
    // While one is open, nothing more can be asked for.
    expect((await admin('POST', `/api/admin/orders/${order.orderId}/refunds`, { amountCents: 1 })).json().error.code).toBe('refundTooLarge');
    expect((await admin('POST', `/api/admin/orders/${order.orderId}/refunds/${failing.id}/sandbox/failed`)).json()).toMatchObject({ status: 'failed', failureReason: 'expired_or_canceled_card' });
    expect(await orderRow(order.orderId)).toMatchObject({ paymentStatus: 'paid', refundedCents: 0 });

    const full = (await admin('POST', `/api/admin/orders/${order.orderId}/refunds`, { amountCents: total })).json();
    expect((await admin('POST', `/api/admin/orders/${order.orderId}/refunds/${full.id}/sandbox/succeeded`)).json()).toMatchObject({ status: 'succeeded' });
    expect(await orderRow(order.orderId)).toMatchObject({ paymentStatus: 'refunded', refundedCents: total });
    expect((await admin('POST', `/api/admin/orders/${order.orderId}/refunds`, { amountCents: 1 })).json().error.code).toBe('notRefundable');
    const list = (await admin('GET', `/api/admin/orders/${order.orderId}/refunds`)).json();
    expect(list.refunds.map((r: { status: string }) => r.status)).toEqual(['succeeded', 'failed']);
    // The customer sees the cancellation invoice beside the invoice.
    const view = await t.app.inject({ method: 'POST', url: '/api/tracking', payload: { orderId: (await orderRow(order.orderId)).orderNumber, email: order.email }, remoteAddress: '10.91.1.1' });
    expect(view.json().order.invoices.map((i: { kind: string }) => i.kind)).toEqual(['invoice', 'cancellation']);
    expect((await t.app.inject({ method: 'POST', url: `/api/admin/orders/${order.orderId}/refunds`, payload: { amountCents: 1 } })).statusCode).toBe(401);
  });
  /** Lets the provider answer `createRefund` differently for one call. */
  const providerAnswersOnce = (answer: PaymentProvider['createRefund']) => {
    const provider = t.app.payments as { createRefund: PaymentProvider['createRefund'] };
    const original = provider.createRefund;
    provider.createRefund = async (input) => {
      provider.createRefund = original;
      return answer(input);
    };
  };

  test('no answer from the provider: the refund stays requested and reserved; sent again it is the same refund, once', async () => {
    const order = await placeOrder(t.app);
    await payOrder(t.app, order);
    const total = (await orderRow(order.orderId)).totalCents!;
    providerAnswersOnce(async () => {
      throw new Error('socket hang up');
    });
    const lost = await admin('POST', `/api/admin/orders/${order.orderId}/refunds`, { amountCents: total });
    expect(lost.statusCode).toBe(502);
    expect(lost.json().error.code).toBe('refundUncertain');
    const [pending] = await db.db.select().from(refunds).where(eq(refunds.orderId, order.orderId));
    expect(pending).toMatchObject({ status: 'requested', providerRefundId: null });
    // The provider may have acted: the amount is not free for another request.
    expect((await admin('POST', `/api/admin/orders/${order.orderId}/refunds`, { amountCents: 1 })).json().error.code).toBe('refundTooLarge');

    const sent = await admin('POST', `/api/admin/orders/${order.orderId}/refunds/${pending!.id}/retry`);
    expect(sent.statusCode).toBe(200);
    expect(sent.json()).toMatchObject({ id: pending!.id, status: 'requested', providerRefundId: expect.stringMatching(/^re_sandbox_/) });
    expect((await admin('POST', `/api/admin/orders/${order.orderId}/refunds/${pending!.id}/retry`)).json().error.code).toBe('refundAlreadySent');
    expect(await db.db.select().from(refunds).where(eq(refunds.orderId, order.orderId))).toHaveLength(1);
    expect((await admin('POST', `/api/admin/orders/${order.orderId}/refunds/${pending!.id}/sandbox/succeeded`)).json()).toMatchObject({ status: 'succeeded' });
    expect(await orderRow(order.orderId)).toMatchObject({ paymentStatus: 'refunded', refundedCents: total });
  });

  test('a refusal frees the amount at once; a refund that fails after it succeeded is taken back', async () => {
    const order = await placeOrder(t.app);
    await payOrder(t.app, order);
    const total = (await orderRow(order.orderId)).totalCents!;
    providerAnswersOnce(async () => {
      throw new ProviderRefusedError('Charge has already been refunded.');
    });
    const refused = await admin('POST', `/api/admin/orders/${order.orderId}/refunds`, { amountCents: total });
    expect(refused.json().error.code).toBe('refundFailed');
    const [failed] = await db.db.select().from(refunds).where(eq(refunds.orderId, order.orderId));
    expect(failed).toMatchObject({ status: 'failed', failureReason: 'Charge has already been refunded.' });

    const again = (await admin('POST', `/api/admin/orders/${order.orderId}/refunds`, { amountCents: total })).json();
    const row = await orderRow(order.orderId);
    const event = (outcome: 'succeeded' | 'failed') =>
      (t.app.payments as SandboxPaymentProvider).refundEvent({ id: again.providerRefundId, orderId: order.orderId, refundId: again.id, amountCents: total, paymentIntentId: row.providerPaymentId!, outcome });
    expect((await deliver(event('succeeded'))).json()).toMatchObject({ outcome: 'refunded' });
    expect(await orderRow(order.orderId)).toMatchObject({ paymentStatus: 'refunded', refundedCents: total });
    expect((await deliver(event('failed'))).json()).toMatchObject({ outcome: 'refundReversed' });
    expect(await orderRow(order.orderId)).toMatchObject({ paymentStatus: 'paid', refundedCents: 0 });
    // The cancellation invoice is corrected by a new invoice over the amount, with its own number.
    const issued = await db.db.select().from(invoices).where(eq(invoices.orderId, order.orderId));
    const cancellation = issued.find((i) => i.kind === 'cancellation')!;
    const reversal = issued.find((i) => i.correctsInvoiceId === cancellation.id)!;
    expect(reversal).toMatchObject({ kind: 'invoice', grossCents: total, refundId: null });
    expect(reversal.sequence).toBeGreaterThan(cancellation.sequence);
    const reversalText = await pdfText((await t.app.invoices.file(order.orderId, reversal.id)).buffer);
    expect(reversalText).toContain(`Aufhebung der Stornorechnung ${cancellation.number}`);
    expect(reversalText).toContain(`Korrektur zur Rechnung ${cancellation.number}`);
    // Failed is final: a late "succeeded" (a new event id) does not count the money again.
    expect((await deliver(event('succeeded'))).json()).toMatchObject({ outcome: 'alreadyFailed' });
    expect(await orderRow(order.orderId)).toMatchObject({ paymentStatus: 'paid', refundedCents: 0 });
    const history = await db.db.select().from(orderHistory).where(eq(orderHistory.orderId, order.orderId));
    expect(history.map((h) => h.event).filter((e) => e.startsWith('refund_'))).toEqual(['refund_requested', 'refund_requested', 'refund_confirmed', 'refund_failed']);
  });

  test('a payment first seen through the success page gets its payment id from the late webhook, so it can be refunded', async () => {
    const order = await placeOrder(t.app);
    const [placed] = await db.db.select().from(orders).where(eq(orders.id, order.orderId));
    const paid = await (t.app.payments as SandboxPaymentProvider).simulate(placed!.providerSessionId!, 'pay');
    // As an order paid before the success page knew payment ids: paid, without one.
    await db.db.update(orders).set({ paymentStatus: 'paid', status: 'paid', paidAt: new Date(), providerPaymentId: null }).where(eq(orders.id, order.orderId));
    expect((await admin('POST', `/api/admin/orders/${order.orderId}/refunds`, { amountCents: 100 })).json().error.code).toBe('notRefundable');
    for (const event of paid!.events) expect((await deliver(event)).json()).toMatchObject({ outcome: 'alreadyPaid' });
    expect((await orderRow(order.orderId)).providerPaymentId).toMatch(/^pi_sandbox_/);
    expect((await admin('POST', `/api/admin/orders/${order.orderId}/refunds`, { amountCents: 100 })).statusCode).toBe(201);
  });
});
