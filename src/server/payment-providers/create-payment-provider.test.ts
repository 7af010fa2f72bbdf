import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { DatabaseHandle } from '../db/client.js';
import { orders } from '../db/schema.js';
import { testDatabases } from '../test/databases.js';
import { createPaymentProvider, sandboxWebhookSecret } from './create-payment-provider.js';
import { WebhookSignatureError } from './provider.js';

const APP_SECRET = 'app-secret-that-is-long-enough-0123456789';

test('the sandbox webhook secret is derived from the app secret, stable, and looks like Stripe’s', () => {
  const secret = sandboxWebhookSecret(APP_SECRET);
  expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
  expect(sandboxWebhookSecret(APP_SECRET)).toBe(secret);
  expect(sandboxWebhookSecret(`${APP_SECRET}x`)).not.toBe(secret);
  expect(secret).not.toContain(APP_SECRET);
});

describe.each(testDatabases())('createPaymentProvider on $name', (testDb) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await testDb.open();
  });
  afterAll(() => handle.close());

  test('stripe configuration gives the Stripe provider', () => {
    const provider = createPaymentProvider(
      { provider: 'stripe', secretKey: 'sk_test_x', webhookSecret: 'whsec_x' },
      { db: handle.db, publicUrl: 'http://shop.test', appSecret: APP_SECRET },
    );
    expect(provider.name).toBe('stripe');
  });

  test('sandbox events are signed with the secret derived from the app secret', async () => {
    const deps = { db: handle.db, publicUrl: 'http://shop.test', appSecret: APP_SECRET };
    const provider = createPaymentProvider({ provider: 'sandbox' }, deps);
    if (provider.name !== 'sandbox') throw new Error('expected the sandbox');
    const orderId = randomUUID();
    await handle.db.insert(orders).values({ id: orderId, orderNumber: 'BF-12345678' });
    const session = await provider.createCheckoutSession({
      orderId,
      orderNumber: 'BF-12345678',
      email: 'kunde@example.test',
      language: 'en',
      lineItems: [{ name: 'Basic', amountCents: 1990, quantity: 1 }],
      totalCents: 1990,
      successUrl: 'http://shop.test/ok?session_id={CHECKOUT_SESSION_ID}',
      cancelUrl: 'http://shop.test/cancel',
      idempotencyKey: `checkout-${orderId}`,
    });
    const [event] = (await provider.simulate(session.id, 'pay'))?.events ?? [];
    if (!event) throw new Error('expected an event');

    // Another process with the same app secret (a second app instance) accepts it; another secret does not.
    const sameSecret = createPaymentProvider({ provider: 'sandbox' }, deps);
    await expect(sameSecret.verifyWebhook(Buffer.from(event.body), event.signature)).resolves.toMatchObject({ type: 'checkout.session.completed', orderId });
    const otherSecret = createPaymentProvider({ provider: 'sandbox' }, { ...deps, appSecret: `${APP_SECRET}-other` });
    await expect(otherSecret.verifyWebhook(Buffer.from(event.body), event.signature)).rejects.toThrow(WebhookSignatureError);
  });
});
