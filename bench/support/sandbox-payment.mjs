// What the sandbox's checkout page sends when a customer pays: Stripe's checkout.session.completed event, signed
// as Stripe signs it with the sandbox's webhook secret (derived from APP_SECRET, as the shop derives it).
import { createHmac, randomBytes } from 'node:crypto';
import Stripe from 'stripe';

/** A signed "paid" event for one checkout session: `{ body, signature }` for POST /api/payments/webhook. */
export function sandboxPaidEvent({ appSecret, sessionId, orderId, amountCents, tag }) {
  const secret = `whsec_${createHmac('sha256', appSecret).update('sandbox-webhook').digest('base64url')}`;
  const body = JSON.stringify({
    id: `evt_${tag}_${randomBytes(6).toString('hex')}`,
    object: 'event',
    type: 'checkout.session.completed',
    created: Math.floor(Date.now() / 1000),
    data: {
      object: {
        id: sessionId,
        object: 'checkout.session',
        status: 'complete',
        payment_status: 'paid',
        amount_total: amountCents,
        currency: 'eur',
        client_reference_id: orderId,
        metadata: { order_id: orderId },
        payment_intent: `pi_${tag}`,
      },
    },
  });
  return { body, signature: Stripe.webhooks.generateTestHeaderString({ payload: body, secret }) };
}
