// The Stripe path end to end through our routes: checkout against a local stand-in for Stripe's API,
// then events signed with Stripe's own test helper into the webhook route.
import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { PHOTO_CONSENT_VERSION, WAIVER_TEXT_VERSION } from '../../../domain/order-selection.js';
import type { DatabaseHandle } from '../../db/client.js';
import { orders } from '../../db/schema.js';
import { createStripeProvider } from '../../payment-providers/stripe-provider.js';
import { startTestStripeServer, type TestStripeServer } from '../../test/stripe-server.js';
import { buildTestApp, type TestApp } from '../../test/app.js';
import { testDatabases } from '../../test/databases.js';
import { multipart, portraitJpeg } from '../../../testing/images.js';
import { WEBHOOK_PATH } from './routes.js';

const WEBHOOK_SECRET = 'whsec_test_stripe_flow_secret';
let db: DatabaseHandle;
let stripeApi: TestStripeServer;
let t: TestApp;

beforeAll(async () => {
  db = await testDatabases()[0]!.open();
  stripeApi = await startTestStripeServer();
  const env = { PAYMENT_PROVIDER: 'stripe', STRIPE_SECRET_KEY: 'sk_test_standin', STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, CAMPAIGN_PERCENT: '0' };
  const payments = createStripeProvider({ secretKey: 'sk_test_standin', webhookSecret: WEBHOOK_SECRET, apiBase: stripeApi.apiBase });
  t = await buildTestApp(db, env, { payments });
});
afterAll(async () => {
  await t.close();
  await stripeApi.stop();
  await db.close();
});

function signed(event: object) {
  const payload = JSON.stringify(event);
  return { payload, signature: Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }) };
}

test('checkout creates a Stripe session from catalogue prices; a signed completed event marks the order paid', async () => {
  const draft = (
    await t.app.inject({
      method: 'POST',
      url: '/api/orders',
      payload: { language: 'en', selection: { gender: 'male', style: 'casual', package: 'basic', location: null, outfit: null, extras: [] }, photoConsent: true, photoConsentVersion: PHOTO_CONSENT_VERSION },
    })
  ).json();
  const jpeg = await portraitJpeg();
  for (let i = 0; i < 3; i++) {
    const body = multipart({ buffer: jpeg, fileName: `s${i}.jpg`, contentType: 'image/jpeg' });
    const response = await t.app.inject({ method: 'POST', url: `/api/orders/${draft.orderId}/uploads`, headers: { 'content-type': body.contentType, 'x-draft-token': draft.draftToken }, payload: body.body });
    expect(response.statusCode).toBe(201);
  }
  const checkout = await t.app.inject({
    method: 'POST',
    url: `/api/orders/${draft.orderId}/checkout`,
    headers: { 'x-draft-token': draft.draftToken },
    payload: {
      language: 'en',
      selection: { gender: 'male', style: 'casual', package: 'basic', location: null, outfit: null, extras: ['express_delivery'] },
      email: 'buyer@example.de',
      waiverAccepted: true,
      waiverTextVersion: WAIVER_TEXT_VERSION,
    },
  });
  expect(checkout.statusCode).toBe(200);
  const { sessionId } = checkout.json();
  const create = stripeApi.requests.find((r) => r.method === 'POST' && r.path === '/v1/checkout/sessions')!;
  expect(create.form.get('line_items[0][price_data][unit_amount]')).toBe('1490');
  expect(create.form.get('line_items[1][price_data][unit_amount]')).toBe('1499');
  expect(create.form.get('metadata[order_id]')).toBe(draft.orderId);
  expect(create.form.get('client_reference_id')).toBe(draft.orderId);
  expect(create.form.get('locale')).toBe('en');
  expect(create.form.get('success_url')).toContain('session_id={CHECKOUT_SESSION_ID}');
  expect(create.form.get('cancel_url')).toContain('/order/summary');

  const session = { id: sessionId, object: 'checkout.session', status: 'complete', payment_status: 'paid', amount_total: 2989, currency: 'eur', client_reference_id: draft.orderId, metadata: { order_id: draft.orderId }, payment_intent: 'pi_test_1' };
  const deliver = (e: { payload: string; signature: string }) =>
    t.app.inject({ method: 'POST', url: WEBHOOK_PATH, headers: { 'content-type': 'application/json', 'stripe-signature': e.signature }, payload: e.payload });

  // A completed event whose amount differs from the order is not taken as payment.
  const wrongAmount = signed({ id: 'evt_test_wrong_amount', object: 'event', type: 'checkout.session.completed', created: Math.floor(Date.now() / 1000), data: { object: { ...session, amount_total: 100 } } });
  expect((await deliver(wrongAmount)).json().outcome).toBe('amountMismatch');
  expect((await db.db.select().from(orders).where(eq(orders.id, draft.orderId)))[0]).toMatchObject({ paymentStatus: 'pending', status: 'created' });

  const event = signed({ id: 'evt_test_completed_1', object: 'event', type: 'checkout.session.completed', created: Math.floor(Date.now() / 1000), data: { object: session } });
  expect((await deliver(event)).json()).toEqual({ received: true, outcome: 'paid' });
  const [row] = await db.db.select().from(orders).where(eq(orders.id, draft.orderId));
  expect(row).toMatchObject({ paymentStatus: 'paid', status: 'paid', providerPaymentId: 'pi_test_1', totalCents: 2989 });
});

test('an event signed with another secret is refused', async () => {
  const payload = JSON.stringify({ id: 'evt_x', object: 'event', type: 'checkout.session.completed', created: Math.floor(Date.now() / 1000), data: { object: {} } });
  const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_someone_else' });
  const response = await t.app.inject({ method: 'POST', url: WEBHOOK_PATH, headers: { 'content-type': 'application/json', 'stripe-signature': signature }, payload });
  expect(response.statusCode).toBe(400);
});

test('no sandbox pages exist when Stripe is the provider', async () => {
  const response = await t.app.inject({ method: 'GET', url: '/sandbox/checkout/cs_test_sandbox_00000000000000000000000000000000' });
  expect(response.statusCode).not.toBe(200);
});
