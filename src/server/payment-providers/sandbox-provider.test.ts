// The sandbox provider on each test database: sessions, the test checkout's state machine, and events
// that pass the same Stripe verification as real ones.
import { randomInt, randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { queryRows, type DatabaseHandle } from '../db/client.js';
import { orders, sandboxCheckoutSessions } from '../db/schema.js';
import { testDatabases } from '../test/databases.js';
import { WebhookSignatureError, type CreateCheckoutInput, type PaymentEvent } from './provider.js';
import { renderSandboxCheckoutPage } from './sandbox-checkout-page.js';
import { createSandboxProvider, type SandboxPaymentProvider, type SignedSandboxEvent } from './sandbox-provider.js';

const SECRET = 'whsec_sandbox_test_secret';
const PUBLIC_URL = 'http://shop.test:3000';

describe.each(testDatabases())('sandbox payment provider on $name', (testDb) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await testDb.open();
  });
  afterAll(() => handle.close());

  /** A provider with a clock of its own, so a test can let time pass. */
  function sandbox(start = new Date()) {
    const clock = { now: start };
    const provider = createSandboxProvider({ db: handle.db, webhookSecret: SECRET, publicUrl: `${PUBLIC_URL}/`, now: () => clock.now });
    return { provider, clock };
  }

  async function createOrder(): Promise<{ id: string; orderNumber: string }> {
    const order = { id: randomUUID(), orderNumber: `BF-${randomInt(10_000_000, 100_000_000)}` };
    await handle.db.insert(orders).values(order);
    return order;
  }

  async function checkout(provider: SandboxPaymentProvider, overrides: Partial<CreateCheckoutInput> = {}) {
    const order = await createOrder();
    const input: CreateCheckoutInput = {
      orderId: order.id,
      orderNumber: order.orderNumber,
      email: 'kunde@example.test',
      language: 'de',
      lineItems: [
        { name: 'Pro-Paket', amountCents: 2792, quantity: 1 },
        { name: 'Express-Lieferung', amountCents: 990, quantity: 1 },
      ],
      totalCents: 3782,
      successUrl: 'http://shop.test:3000/bestellung/erfolg?session_id={CHECKOUT_SESSION_ID}',
      cancelUrl: `http://shop.test:3000/bestellung/abbruch?order=${order.id}`,
      idempotencyKey: `checkout-${order.id}`,
      ...overrides,
    };
    const session = await provider.createCheckoutSession(input);
    return { order, input, session };
  }

  async function verifyAll(provider: SandboxPaymentProvider, events: SignedSandboxEvent[]): Promise<PaymentEvent[]> {
    return Promise.all(events.map((e) => provider.verifyWebhook(Buffer.from(e.body), e.signature)));
  }

  async function storedRow(id: string) {
    const [row] = await handle.db.select().from(sandboxCheckoutSessions).where(eq(sandboxCheckoutSessions.id, id));
    return row;
  }

  test('creates a session that looks like a Stripe Checkout Session and stores it', async () => {
    const { provider, clock } = sandbox();
    const { order, session } = await checkout(provider);
    expect(session.id).toMatch(/^cs_test_sandbox_[0-9a-f]{32}$/);
    expect(session.url).toBe(`${PUBLIC_URL}/sandbox/checkout/${session.id}`);
    expect(session.expiresAt.getTime()).toBe(clock.now.getTime() + 3600_000);
    expect(await storedRow(session.id)).toMatchObject({
      orderId: order.id,
      amountTotal: 3782,
      currency: 'eur',
      lineItems: [
        { name: 'Pro-Paket', amountCents: 2792, quantity: 1 },
        { name: 'Express-Lieferung', amountCents: 990, quantity: 1 },
      ],
      customerEmail: 'kunde@example.test',
      locale: 'de',
      metadata: { order_id: order.id, order_number: order.orderNumber },
      clientReferenceId: order.id,
      status: 'open',
      paymentStatus: 'unpaid',
    });
    expect(await provider.retrieveSession(session.id)).toEqual({ status: 'open', paymentStatus: 'unpaid', orderId: order.id, amountTotal: 3782, paymentIntentId: null });
  });

  test('the same idempotency key answers with the same session; reusing it for another order is refused', async () => {
    const { provider } = sandbox();
    const { input, session } = await checkout(provider);
    expect(await provider.createCheckoutSession(input)).toEqual(session);
    const other = await createOrder();
    await expect(provider.createCheckoutSession({ ...input, orderId: other.id, orderNumber: other.orderNumber })).rejects.toThrow(/already used/);
  });

  test('a checkout whose line items do not add up is refused', async () => {
    const { provider } = sandbox();
    await expect(checkout(provider, { totalCents: 3781 })).rejects.toThrow(RangeError);
  });

  test('pay: one completed event with payment_status paid, then back to the success URL', async () => {
    const { provider } = sandbox();
    const { order, session } = await checkout(provider);
    const result = await provider.simulate(session.id, 'pay');
    expect(result?.redirectTo).toBe(`http://shop.test:3000/bestellung/erfolg?session_id=${session.id}`);
    const events = await verifyAll(provider, result?.events ?? []);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'checkout.session.completed',
      sessionId: session.id,
      orderId: order.id,
      paymentStatus: 'paid',
      amountTotal: 3782,
      currency: 'eur',
    });
    expect(events[0]?.id).toMatch(/^evt_sandbox_[0-9a-f]{24}$/);
    expect(events[0]?.paymentIntentId).toMatch(/^pi_sandbox_/);
    expect(events[0]?.payload).toMatchObject({
      object: 'event',
      livemode: false,
      data: { object: { object: 'checkout.session', status: 'complete', client_reference_id: order.id, metadata: { order_id: order.id, order_number: order.orderNumber } } },
    });
    expect(await provider.retrieveSession(session.id)).toMatchObject({ status: 'complete', paymentStatus: 'paid', paymentIntentId: expect.stringMatching(/^pi_sandbox_/) });
    expect((await provider.getSession(session.id))?.state).toBe('paid');
  });

  test('pressing a button on a paid session sends nothing and goes to the success URL', async () => {
    const { provider } = sandbox();
    const { session } = await checkout(provider);
    await provider.simulate(session.id, 'pay');
    const success = `http://shop.test:3000/bestellung/erfolg?session_id=${session.id}`;
    for (const outcome of ['pay', 'sepaPending', 'sepaSucceed', 'fail', 'cancel'] as const) {
      expect(await provider.simulate(session.id, outcome)).toEqual({ events: [], redirectTo: success });
    }
    expect(await provider.retrieveSession(session.id)).toMatchObject({ status: 'complete', paymentStatus: 'paid' });
  });

  test('SEPA: completed unpaid first, async_payment_succeeded when the debit settles', async () => {
    const { provider } = sandbox();
    const { order, session } = await checkout(provider);
    const success = `http://shop.test:3000/bestellung/erfolg?session_id=${session.id}`;

    const pending = await provider.simulate(session.id, 'sepaPending');
    expect(pending?.redirectTo).toBe(success);
    expect((await verifyAll(provider, pending?.events ?? [])).map((e) => [e.type, e.paymentStatus, e.orderId])).toEqual([
      ['checkout.session.completed', 'unpaid', order.id],
    ]);
    expect(await provider.retrieveSession(session.id)).toMatchObject({ status: 'complete', paymentStatus: 'unpaid' });
    expect((await provider.getSession(session.id))?.state).toBe('pendingDebit');
    // Paying or cancelling a pending debit makes no sense.
    expect(await provider.simulate(session.id, 'pay')).toEqual({ events: [], redirectTo: success });
    expect(await provider.simulate(session.id, 'cancel')).toEqual({ events: [], redirectTo: success });

    const settled = await provider.simulate(session.id, 'sepaSucceed');
    expect(settled?.redirectTo).toBe(success);
    expect((await verifyAll(provider, settled?.events ?? [])).map((e) => [e.type, e.paymentStatus])).toEqual([['checkout.session.async_payment_succeeded', 'paid']]);
    expect(await provider.retrieveSession(session.id)).toMatchObject({ status: 'complete', paymentStatus: 'paid' });
    expect(await provider.simulate(session.id, 'sepaSucceed')).toEqual({ events: [], redirectTo: success });
  });

  test('SEPA: a pending debit that bounces sends async_payment_failed and nothing after', async () => {
    const { provider } = sandbox();
    const { order, session } = await checkout(provider);
    await provider.simulate(session.id, 'sepaPending');
    const failed = await provider.simulate(session.id, 'fail');
    const failedUrl = `http://shop.test:3000/bestellung/abbruch?order=${order.id}&payment=failed`;
    expect(failed?.redirectTo).toBe(failedUrl);
    expect((await verifyAll(provider, failed?.events ?? [])).map((e) => [e.type, e.paymentStatus])).toEqual([['checkout.session.async_payment_failed', 'unpaid']]);
    expect(await provider.retrieveSession(session.id)).toMatchObject({ status: 'complete', paymentStatus: 'unpaid' });
    expect((await provider.getSession(session.id))?.state).toBe('failed');
    // A bounced debit cannot settle later, and fails only once.
    expect(await provider.simulate(session.id, 'sepaSucceed')).toEqual({ events: [], redirectTo: failedUrl });
    expect(await provider.simulate(session.id, 'fail')).toEqual({ events: [], redirectTo: failedUrl });
  });

  test('fail on an open session: completed unpaid, then async_payment_failed, in that order', async () => {
    const { provider } = sandbox();
    const { order, session } = await checkout(provider);
    const result = await provider.simulate(session.id, 'fail');
    expect(result?.redirectTo).toBe(`http://shop.test:3000/bestellung/abbruch?order=${order.id}&payment=failed`);
    const events = await verifyAll(provider, result?.events ?? []);
    expect(events.map((e) => [e.type, e.paymentStatus, e.sessionId, e.orderId])).toEqual([
      ['checkout.session.completed', 'unpaid', session.id, order.id],
      ['checkout.session.async_payment_failed', 'unpaid', session.id, order.id],
    ]);
    expect(new Set(events.map((e) => e.id)).size).toBe(2);
    // Bookkeeping of the sandbox stays out of the events.
    for (const event of events) {
      expect(event.payload).toMatchObject({ data: { object: { metadata: { order_id: order.id, order_number: order.orderNumber } } } });
      expect(Object.keys((event.payload as { data: { object: { metadata: object } } }).data.object.metadata)).toEqual(['order_id', 'order_number']);
    }
  });

  test('fail appends payment=failed with ? when the cancel URL has no query', async () => {
    const { provider } = sandbox();
    const { session } = await checkout(provider, { cancelUrl: 'http://shop.test:3000/bestellung/abbruch' });
    expect((await provider.simulate(session.id, 'fail'))?.redirectTo).toBe('http://shop.test:3000/bestellung/abbruch?payment=failed');
  });

  test('cancel: the session expires, one expired event, back to the cancel URL', async () => {
    const { provider } = sandbox();
    const { order, session } = await checkout(provider);
    const cancelUrl = `http://shop.test:3000/bestellung/abbruch?order=${order.id}`;
    const result = await provider.simulate(session.id, 'cancel');
    expect(result?.redirectTo).toBe(cancelUrl);
    expect((await verifyAll(provider, result?.events ?? [])).map((e) => [e.type, e.paymentStatus, e.paymentIntentId])).toEqual([
      ['checkout.session.expired', 'unpaid', null],
    ]);
    expect(await provider.retrieveSession(session.id)).toMatchObject({ status: 'expired', paymentStatus: 'unpaid' });
    expect(await provider.simulate(session.id, 'pay')).toEqual({ events: [], redirectTo: cancelUrl });
  });

  test('settling SEPA on a session nobody paid yet stays on the checkout page', async () => {
    const { provider } = sandbox();
    const { session } = await checkout(provider);
    expect(await provider.simulate(session.id, 'sepaSucceed')).toEqual({ events: [], redirectTo: session.url });
    expect(await provider.retrieveSession(session.id)).toMatchObject({ status: 'open' });
  });

  test('an unknown session: simulate and getSession answer null, retrieve and expire reject', async () => {
    const { provider } = sandbox();
    const unknown = 'cs_test_sandbox_00000000000000000000000000000000';
    expect(await provider.simulate(unknown, 'pay')).toBeNull();
    expect(await provider.getSession(unknown)).toBeNull();
    await expect(provider.retrieveSession(unknown)).rejects.toThrow(/No such/);
    await expect(provider.expireSession(unknown)).rejects.toThrow(/No such/);
  });

  test('a session past its expiry counts as expired; the next press delivers the expired event once', async () => {
    const { provider, clock } = sandbox();
    const { order, session } = await checkout(provider);
    clock.now = new Date(session.expiresAt.getTime() + 1000);
    expect(await provider.retrieveSession(session.id)).toMatchObject({ status: 'expired', paymentStatus: 'unpaid' });
    expect((await provider.getSession(session.id))?.state).toBe('expired');
    const cancelUrl = `http://shop.test:3000/bestellung/abbruch?order=${order.id}`;
    const result = await provider.simulate(session.id, 'pay');
    expect(result?.redirectTo).toBe(cancelUrl);
    expect((await verifyAll(provider, result?.events ?? [])).map((e) => e.type)).toEqual(['checkout.session.expired']);
    expect(await provider.simulate(session.id, 'pay')).toEqual({ events: [], redirectTo: cancelUrl });
    expect((await storedRow(session.id))?.status).toBe('expired');
  });

  test('expireSession: open → expired, then alreadyExpired; a paid session is alreadyComplete', async () => {
    const { provider, clock } = sandbox();
    const open = await checkout(provider);
    expect(await provider.expireSession(open.session.id)).toBe('expired');
    expect(await provider.expireSession(open.session.id)).toBe('alreadyExpired');
    expect(await provider.retrieveSession(open.session.id)).toMatchObject({ status: 'expired' });

    const paid = await checkout(provider);
    await provider.simulate(paid.session.id, 'pay');
    expect(await provider.expireSession(paid.session.id)).toBe('alreadyComplete');

    const late = await checkout(provider);
    clock.now = new Date(late.session.expiresAt.getTime() + 1000);
    expect(await provider.expireSession(late.session.id)).toBe('alreadyExpired');
  });

  test('a double click delivers the events once', async () => {
    const { provider } = sandbox();
    const { session } = await checkout(provider);
    const press = () => provider.simulate(session.id, 'pay');
    let results: Awaited<ReturnType<typeof press>>[];
    if (handle.kind === 'postgres') {
      // Hold the row until both presses wait for it, so they really meet (PGlite runs one transaction at a time anyway).
      let presses: Promise<Awaited<ReturnType<typeof press>>[]> | undefined;
      await handle.db.transaction(async (tx) => {
        await tx.select().from(sandboxCheckoutSessions).where(eq(sandboxCheckoutSessions.id, session.id)).for('update');
        presses = Promise.all([press(), press()]);
        await waitForLockWaiters(2);
      });
      results = await presses!;
    } else {
      results = await Promise.all([press(), press()]);
    }
    expect(results.flatMap((r) => r?.events ?? [])).toHaveLength(1);
  });

  async function waitForLockWaiters(count: number) {
    for (let attempt = 0; attempt < 200; attempt++) {
      const [row] = await queryRows<{ waiting: number }>(
        handle.db,
        sql`select count(*)::int as waiting from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
      );
      if ((row?.waiting ?? 0) >= count) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`expected ${count} transactions waiting for a lock`);
  }

  test('sandbox events are refused by a provider with another secret and when changed', async () => {
    const { provider } = sandbox();
    const { session } = await checkout(provider);
    const [event] = (await provider.simulate(session.id, 'pay'))?.events ?? [];
    if (!event) throw new Error('expected an event');
    expect(event.signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    const stranger = createSandboxProvider({ db: handle.db, webhookSecret: 'whsec_other', publicUrl: PUBLIC_URL });
    await expect(stranger.verifyWebhook(Buffer.from(event.body), event.signature)).rejects.toThrow(WebhookSignatureError);
    const changed = Buffer.from(event.body.replace('"payment_status":"paid"', '"payment_status":"paix"'));
    await expect(provider.verifyWebhook(changed, event.signature)).rejects.toThrow(WebhookSignatureError);
  });

  test('the checkout page shows the session, escapes it and is marked as a test', async () => {
    const { provider } = sandbox();
    const { order, session } = await checkout(provider, {
      email: 'o"brien@example.test',
      lineItems: [{ name: '<img src=x onerror=alert(1)> & "Pro"', amountCents: 3782, quantity: 1 }],
    });
    const view = await provider.getSession(session.id);
    if (!view) throw new Error('expected the session');
    expect(view).toMatchObject({ id: session.id, orderId: order.id, orderNumber: order.orderNumber, state: 'open', amountTotal: 3782, locale: 'de' });
    const html = renderSandboxCheckoutPage(view, 'de');
    expect(html).toContain('TESTMODUS – keine echte Zahlung');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt; &amp; &quot;Pro&quot;');
    expect(html).not.toContain('<img');
    expect(html).toContain('o&quot;brien@example.test');
    expect(html).toContain('37,82\u00a0€');
    expect(html).toContain(`action="/sandbox/checkout/${session.id}/pay"`);
    expect(html).toContain(order.orderNumber);
  });
});
