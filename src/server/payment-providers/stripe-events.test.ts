// Webhook verification with Stripe's documented test helper for signed headers.
import Stripe from 'stripe';
import { expect, test } from 'vitest';
import { WebhookSignatureError } from './provider.js';
import { signStripePayload, toPaymentEvent } from './stripe-events.js';
import { createStripeProvider } from './stripe-provider.js';

const SECRET = 'whsec_test_0123456789abcdef';
const ORDER_ID = '3f1c9a52-8a0e-4c55-9d7e-2f3b5a1c0d11';

// verifyWebhook makes no API call; the API base only has to be something that is not Stripe.
const provider = createStripeProvider({ secretKey: 'sk_test_unused', webhookSecret: SECRET, apiBase: { host: '127.0.0.1', port: 9, protocol: 'http' } });

function checkoutEvent(type: string, session: Record<string, unknown> = {}) {
  return {
    id: 'evt_1QabcDEF',
    object: 'event',
    api_version: '2025-01-27.acacia',
    created: 1_795_000_000,
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: {
      object: {
        id: 'cs_test_a1b2c3',
        object: 'checkout.session',
        status: 'complete',
        payment_status: 'paid',
        amount_total: 3782,
        currency: 'eur',
        client_reference_id: ORDER_ID,
        metadata: { order_id: ORDER_ID, order_number: 'BF-23456789' },
        payment_intent: 'pi_3QabcDEF',
        ...session,
      },
    },
  };
}

function signed(payload: string, options: { secret?: string; timestamp?: number } = {}) {
  return Stripe.webhooks.generateTestHeaderString({ payload, secret: options.secret ?? SECRET, timestamp: options.timestamp });
}

test('a signed checkout.session.completed event verifies and maps to a PaymentEvent', async () => {
  const body = JSON.stringify(checkoutEvent('checkout.session.completed'));
  const event = await provider.verifyWebhook(Buffer.from(body), signed(body));
  expect(event).toEqual({
    id: 'evt_1QabcDEF',
    type: 'checkout.session.completed',
    rawType: 'checkout.session.completed',
    created: new Date(1_795_000_000 * 1000),
    sessionId: 'cs_test_a1b2c3',
    orderId: ORDER_ID,
    paymentStatus: 'paid',
    amountTotal: 3782,
    currency: 'eur',
    paymentIntentId: 'pi_3QabcDEF',
    refund: null,
    payload: JSON.parse(body),
  });
});

test('each checkout event type the shop handles keeps its type', async () => {
  for (const type of [
    'checkout.session.async_payment_succeeded',
    'checkout.session.async_payment_failed',
    'checkout.session.expired',
  ] as const) {
    const body = JSON.stringify(checkoutEvent(type, { payment_status: 'unpaid' }));
    expect(await provider.verifyWebhook(Buffer.from(body), signed(body))).toMatchObject({ type, rawType: type, paymentStatus: 'unpaid' });
  }
});

test('the order id comes from metadata, else from client_reference_id', async () => {
  const fromMetadata = JSON.stringify(checkoutEvent('checkout.session.completed', { client_reference_id: 'something-else' }));
  expect((await provider.verifyWebhook(Buffer.from(fromMetadata), signed(fromMetadata))).orderId).toBe(ORDER_ID);
  const fromReference = JSON.stringify(checkoutEvent('checkout.session.completed', { metadata: {} }));
  expect((await provider.verifyWebhook(Buffer.from(fromReference), signed(fromReference))).orderId).toBe(ORDER_ID);
  const neither = JSON.stringify(checkoutEvent('checkout.session.completed', { metadata: null, client_reference_id: null }));
  expect((await provider.verifyWebhook(Buffer.from(neither), signed(neither))).orderId).toBeNull();
});

test('an expanded payment intent and a session without one both map', async () => {
  const expanded = JSON.stringify(checkoutEvent('checkout.session.completed', { payment_intent: { id: 'pi_expanded', object: 'payment_intent' } }));
  expect((await provider.verifyWebhook(Buffer.from(expanded), signed(expanded))).paymentIntentId).toBe('pi_expanded');
  const none = JSON.stringify(checkoutEvent('checkout.session.expired', { payment_intent: null, status: 'expired', payment_status: 'unpaid' }));
  expect((await provider.verifyWebhook(Buffer.from(none), signed(none))).paymentIntentId).toBeNull();
});

test('an event the shop does not act on maps to other and keeps its raw type', async () => {
  const body = JSON.stringify({
    id: 'evt_charge',
    object: 'event',
    created: 1_795_000_000,
    type: 'charge.refunded',
    data: { object: { id: 'ch_1', object: 'charge', amount: 3782 } },
  });
  expect(await provider.verifyWebhook(Buffer.from(body), signed(body))).toMatchObject({
    id: 'evt_charge',
    type: 'other',
    rawType: 'charge.refunded',
    sessionId: null,
    orderId: null,
    paymentStatus: null,
    amountTotal: null,
  });
});

test('a signature made with another secret is refused', async () => {
  const body = JSON.stringify(checkoutEvent('checkout.session.completed'));
  await expect(provider.verifyWebhook(Buffer.from(body), signed(body, { secret: 'whsec_someone_else' }))).rejects.toThrow(WebhookSignatureError);
});

test('a body changed by one byte after signing is refused', async () => {
  const body = JSON.stringify(checkoutEvent('checkout.session.completed', { amount_total: 3782 }));
  const header = signed(body);
  const tampered = Buffer.from(body.replace('"amount_total":3782', '"amount_total":3783'));
  expect(tampered.length).toBe(Buffer.byteLength(body));
  await expect(provider.verifyWebhook(tampered, header)).rejects.toThrow(WebhookSignatureError);
  // The same bytes with the same header pass, so the refusal above is about the changed byte.
  await expect(provider.verifyWebhook(Buffer.from(body), header)).resolves.toMatchObject({ id: 'evt_1QabcDEF' });
});

test('a missing or malformed signature header is refused', async () => {
  const body = Buffer.from(JSON.stringify(checkoutEvent('checkout.session.completed')));
  await expect(provider.verifyWebhook(body, undefined)).rejects.toThrow(WebhookSignatureError);
  await expect(provider.verifyWebhook(body, '')).rejects.toThrow(WebhookSignatureError);
  await expect(provider.verifyWebhook(body, 'not-a-signature')).rejects.toThrow(WebhookSignatureError);
});

test('a signature older than the five-minute tolerance is refused as a replay', async () => {
  const body = JSON.stringify(checkoutEvent('checkout.session.completed'));
  const nowSeconds = Math.floor(Date.now() / 1000);
  await expect(provider.verifyWebhook(Buffer.from(body), signed(body, { timestamp: nowSeconds - 301 }))).rejects.toThrow(WebhookSignatureError);
  await expect(provider.verifyWebhook(Buffer.from(body), signed(body, { timestamp: nowSeconds - 240 }))).resolves.toMatchObject({ id: 'evt_1QabcDEF' });
});

test('a correctly signed body that is not a Stripe event is refused', async () => {
  for (const body of ['not json', JSON.stringify({ hello: 'world' }), JSON.stringify(checkoutEvent('checkout.session.completed', { object: 'charge' }))]) {
    await expect(provider.verifyWebhook(Buffer.from(body), signed(body))).rejects.toThrow(WebhookSignatureError);
  }
});

test('refund events are read with their refund, our ids and the amount; a refund event without a refund is refused', () => {
  const refund = { id: 're_1', object: 'refund', amount: 500, currency: 'eur', status: 'succeeded', failure_reason: null, payment_intent: 'pi_1', metadata: { order_id: 'o-1', refund_id: 'r-1' } };
  const event = toPaymentEvent({ id: 'evt_r', object: 'event', type: 'refund.updated', created: 1_800_000_000, data: { object: refund } });
  expect(event).toMatchObject({ type: 'refund.updated', orderId: 'o-1', amountTotal: 500, paymentIntentId: 'pi_1', refund: { id: 're_1', status: 'succeeded', refundId: 'r-1', amount: 500 } });
  expect(() => toPaymentEvent({ id: 'evt_x', object: 'event', type: 'refund.updated', created: 1, data: { object: { object: 'checkout.session', id: 'cs_1' } } })).toThrow();
});

test('the sandbox signs a body exactly as the Stripe SDK test helper does', async () => {
  const at = new Date('2026-11-26T09:30:00.750Z');
  for (const payload of [JSON.stringify(checkoutEvent('checkout.session.completed')), '{"name":"Jürgen Müßig ✓"}', '']) {
    const header = signStripePayload(payload, SECRET, at);
    expect(header).toBe(signed(payload, { timestamp: Math.floor(at.getTime() / 1000) }));
    expect(header).not.toBe(signStripePayload(payload, 'whsec_someone_else', at));
  }
  // And Stripe's code accepts it (within the tolerance of the receiving clock).
  const body = JSON.stringify(checkoutEvent('checkout.session.completed'));
  await expect(provider.verifyWebhook(Buffer.from(body), signStripePayload(body, SECRET, new Date()))).resolves.toMatchObject({ id: 'evt_1QabcDEF' });
});
