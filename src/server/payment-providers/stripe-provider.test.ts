// The Stripe adapter against a local stand-in of the Stripe API: the official SDK makes real HTTP
// requests, and the test reads what arrived on the wire.
import Stripe from 'stripe';
import { expect, onTestFinished, test } from 'vitest';
import { ProviderRefusedError, type CreateCheckoutInput } from './provider.js';
import { createStripeProvider } from './stripe-provider.js';
import { startTestStripeServer } from '../test/stripe-server.js';

const NOW = new Date('2026-11-20T10:00:00Z');
const ORDER_ID = '3f1c9a52-8a0e-4c55-9d7e-2f3b5a1c0d11';

function input(overrides: Partial<CreateCheckoutInput> = {}): CreateCheckoutInput {
  return {
    orderId: ORDER_ID,
    orderNumber: 'BF-23456789',
    email: 'kunde@example.test',
    language: 'es',
    lineItems: [
      { name: 'Paquete Pro', amountCents: 2792, quantity: 1 },
      { name: 'Entrega exprés', amountCents: 990, quantity: 1 },
    ],
    totalCents: 3782,
    successUrl: 'https://shop.test/checkout/success?session_id={CHECKOUT_SESSION_ID}',
    cancelUrl: `https://shop.test/checkout/cancel?order=${ORDER_ID}`,
    idempotencyKey: `checkout-${ORDER_ID}-1`,
    ...overrides,
  };
}

async function harness() {
  const server = await startTestStripeServer();
  onTestFinished(() => server.stop());
  const provider = createStripeProvider({ secretKey: 'sk_test_standin', webhookSecret: 'whsec_standin', apiBase: server.apiBase, now: () => NOW });
  return { server, provider };
}

test('creates a Checkout Session with prices from the order, the order id and the shop language', async () => {
  const { server, provider } = await harness();
  const session = await provider.createCheckoutSession(input());

  expect(session.id).toMatch(/^cs_test_/);
  expect(session.url).toBe(`https://checkout.stripe.test/c/pay/${session.id}`);
  expect(session.expiresAt).toEqual(new Date(NOW.getTime() + 3600_000));

  expect(server.requests).toHaveLength(1);
  const [request] = server.requests;
  expect(request?.method).toBe('POST');
  expect(request?.path).toBe('/v1/checkout/sessions');
  expect(request?.headers['content-type']).toMatch(/application\/x-www-form-urlencoded/);
  expect(request?.headers['authorization']).toBe('Bearer sk_test_standin');
  expect(request?.headers['idempotency-key']).toBe(`checkout-${ORDER_ID}-1`);
  const form = Object.fromEntries(request?.form ?? []);
  expect(form).toMatchObject({
    mode: 'payment',
    'line_items[0][price_data][unit_amount]': '2792',
    'line_items[0][price_data][currency]': 'eur',
    'line_items[0][price_data][product_data][name]': 'Paquete Pro',
    'line_items[0][quantity]': '1',
    'line_items[1][price_data][unit_amount]': '990',
    'line_items[1][price_data][product_data][name]': 'Entrega exprés',
    customer_email: 'kunde@example.test',
    client_reference_id: ORDER_ID,
    'metadata[order_id]': ORDER_ID,
    'metadata[order_number]': 'BF-23456789',
    'payment_intent_data[metadata][order_id]': ORDER_ID,
    'payment_intent_data[metadata][order_number]': 'BF-23456789',
    locale: 'es',
    success_url: 'https://shop.test/checkout/success?session_id={CHECKOUT_SESSION_ID}',
    cancel_url: `https://shop.test/checkout/cancel?order=${ORDER_ID}`,
    expires_at: String(Math.floor(NOW.getTime() / 1000) + 3600),
  });
  // The dashboard decides the payment methods.
  expect(Object.keys(form).some((key) => key.startsWith('payment_method_types'))).toBe(false);
});

test('an invalid checkout is refused before anything is sent to Stripe', async () => {
  const { server, provider } = await harness();
  await expect(provider.createCheckoutSession(input({ totalCents: 1 }))).rejects.toThrow(RangeError);
  await expect(provider.createCheckoutSession(input({ successUrl: 'https://shop.test/checkout/success' }))).rejects.toThrow(RangeError);
  expect(server.requests).toHaveLength(0);
});

test('a Stripe outage is retried with the same idempotency key, so one session is created', async () => {
  const { server, provider } = await harness();
  server.failNext(1);
  const session = await provider.createCheckoutSession(input());
  expect(server.requests).toHaveLength(2);
  expect(server.requests.map((r) => r.headers['idempotency-key'])).toEqual([`checkout-${ORDER_ID}-1`, `checkout-${ORDER_ID}-1`]);
  expect(server.sessions.size).toBe(1);
  expect(server.sessions.has(session.id)).toBe(true);
});

test('the same idempotency key answers with the same session', async () => {
  const { server, provider } = await harness();
  const first = await provider.createCheckoutSession(input());
  const again = await provider.createCheckoutSession(input());
  expect(again.id).toBe(first.id);
  expect(server.sessions.size).toBe(1);
});

test('retrieveSession maps status, payment status, order id, amount and the payment', async () => {
  const { server, provider } = await harness();
  const { id } = await provider.createCheckoutSession(input());
  expect(await provider.retrieveSession(id)).toEqual({ status: 'open', paymentStatus: 'unpaid', orderId: ORDER_ID, amountTotal: 3782, paymentIntentId: null });
  const session = server.sessions.get(id)!;
  Object.assign(session, { status: 'complete', payment_status: 'paid', payment_intent: 'pi_standin_1' });
  expect(await provider.retrieveSession(id)).toEqual({ status: 'complete', paymentStatus: 'paid', orderId: ORDER_ID, amountTotal: 3782, paymentIntentId: 'pi_standin_1' });
  expect(server.requests.at(-1)).toMatchObject({ method: 'GET', path: `/v1/checkout/sessions/${id}` });
});

test('retrieveSession falls back to client_reference_id when the metadata has no order id', async () => {
  const { server, provider } = await harness();
  const { id } = await provider.createCheckoutSession(input());
  server.sessions.get(id)!.metadata = {};
  expect((await provider.retrieveSession(id)).orderId).toBe(ORDER_ID);
});

test('retrieveSession refuses a status it does not know instead of guessing', async () => {
  const { server, provider } = await harness();
  const { id } = await provider.createCheckoutSession(input());
  Object.assign(server.sessions.get(id)!, { status: 'processing' });
  await expect(provider.retrieveSession(id)).rejects.toThrow(/unknown checkout session status/);
});

test('retrieving an unknown session rejects with Stripe’s error', async () => {
  const { provider } = await harness();
  await expect(provider.retrieveSession('cs_test_missing')).rejects.toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
});

test('expireSession expires an open session', async () => {
  const { server, provider } = await harness();
  const { id } = await provider.createCheckoutSession(input());
  expect(await provider.expireSession(id)).toBe('expired');
  expect(server.requests.at(-1)).toMatchObject({ method: 'POST', path: `/v1/checkout/sessions/${id}/expire` });
  expect(server.sessions.get(id)?.status).toBe('expired');
});

test('expireSession on a session that was paid meanwhile answers alreadyComplete', async () => {
  const { server, provider } = await harness();
  const { id } = await provider.createCheckoutSession(input());
  Object.assign(server.sessions.get(id)!, { status: 'complete', payment_status: 'paid' });
  expect(await provider.expireSession(id)).toBe('alreadyComplete');
  expect(server.requests.slice(-2).map((r) => `${r.method} ${r.path}`)).toEqual([
    `POST /v1/checkout/sessions/${id}/expire`,
    `GET /v1/checkout/sessions/${id}`,
  ]);
  expect(server.sessions.get(id)?.status).toBe('complete');
});

test('expireSession on an expired session answers alreadyExpired', async () => {
  const { provider } = await harness();
  const { id } = await provider.createCheckoutSession(input());
  expect(await provider.expireSession(id)).toBe('expired');
  expect(await provider.expireSession(id)).toBe('alreadyExpired');
});

test('expireSession on an unknown session rejects', async () => {
  const { provider } = await harness();
  await expect(provider.expireSession('cs_test_missing')).rejects.toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
});

test('a refund is asked for with the payment, the amount, our ids as metadata and an idempotency key; a retry makes the same refund', async () => {
  const { server, provider } = await harness();
  const input = { orderId: ORDER_ID, refundId: '7d0f1c2a-0b1c-4d2e-9f3a-5b6c7d8e9f00', paymentIntentId: 'pi_123', amountCents: 1250 };
  const first = await provider.createRefund(input);
  const again = await provider.createRefund(input);
  expect(first).toEqual({ id: again.id, status: 'pending' });
  const request = server.requests.find((r) => r.path === '/v1/refunds')!;
  expect(request.form.get('payment_intent')).toBe('pi_123');
  expect(request.form.get('amount')).toBe('1250');
  expect(request.form.get('metadata[order_id]')).toBe(ORDER_ID);
  expect(request.form.get('metadata[refund_id]')).toBe(input.refundId);
  expect(request.headers['idempotency-key']).toBe(`refund-${input.refundId}`);
  await expect(provider.createRefund({ ...input, amountCents: -1 })).rejects.toThrow();
});

test('a refund asked for again after Stripe forgot the idempotency key is found by our id, not made twice', async () => {
  const { server, provider } = await harness();
  const input = { orderId: ORDER_ID, refundId: '0b3e6a1d-2c4f-4a5b-8c6d-7e8f9a0b1c2d', paymentIntentId: 'pi_456', amountCents: 990 };
  const first = await provider.createRefund(input);
  server.requests.length = 0;
  // Another idempotency key would make a second refund; the lookup by metadata comes first.
  expect(await provider.createRefund(input)).toEqual(first);
  expect(server.requests.map((r) => `${r.method} ${r.path.split('?')[0]}`)).toEqual(['GET /v1/refunds']);
  expect(server.refunds).toHaveLength(1);
  // One that failed meanwhile is a refusal: the amount is free again, and nothing new is made.
  Object.assign(server.refunds[0]!, { status: 'failed', failure_reason: 'expired_or_canceled_card' });
  await expect(provider.createRefund(input)).rejects.toBeInstanceOf(ProviderRefusedError);
  expect(server.refunds).toHaveLength(1);
});

test('a refund Stripe refuses is a refusal; an outage is not (it may have acted)', async () => {
  const { server, provider } = await harness();
  const input = { orderId: ORDER_ID, refundId: '1c4f7b2e-3d5a-4b6c-9d7e-8f9a0b1c2d3e', paymentIntentId: 'pi_already_refunded', amountCents: 990 };
  await expect(provider.createRefund(input)).rejects.toBeInstanceOf(ProviderRefusedError);
  server.failNext(10);
  const outage = provider.createRefund({ ...input, paymentIntentId: 'pi_789' });
  await expect(outage).rejects.toThrow();
  await expect(outage).rejects.not.toBeInstanceOf(ProviderRefusedError);
});
