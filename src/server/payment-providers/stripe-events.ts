// Verification and reading of Stripe-shaped webhook events, shared by both providers: the sandbox
// signs its events exactly like Stripe, so the shop has one code path from raw body to PaymentEvent.
import { createHmac } from 'node:crypto';
import type Stripe from 'stripe';
import { z } from 'zod';
import { PAYMENT_EVENT_TYPES, WebhookSignatureError, type PaymentEvent, type PaymentEventType, type PaymentStatus } from './provider.js';

/** Stripe's default: a signature older than five minutes is a replay. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/**
 * The Stripe SDK loads with the first webhook or API call, not with every process: its code and source text are
 * several MB that a web process at rest does not need (issue 22). Cached; tried again after a failed load, whose
 * error reaches the caller.
 */
let stripeModule: Promise<typeof Stripe> | null = null;
export function loadStripe(): Promise<typeof Stripe> {
  stripeModule ??= import('stripe').then(
    (module) => module.default,
    (error: unknown) => {
      stripeModule = null;
      throw error;
    },
  );
  return stripeModule;
}

const nullableString = z.string().nullish().transform((v) => v ?? null);
const nullableInteger = z.number().int().nullish().transform((v) => v ?? null);

const checkoutSessionSchema = z.object({
  object: z.literal('checkout.session'),
  id: z.string(),
  payment_status: z.enum(['paid', 'unpaid', 'no_payment_required']).nullish(),
  amount_total: nullableInteger,
  currency: nullableString,
  client_reference_id: nullableString,
  metadata: z.record(z.string(), z.string()).nullish(),
  // A plain id unless the request expanded it.
  payment_intent: z.union([z.string(), z.object({ id: z.string() }).loose()]).nullish(),
});

const refundSchema = z.object({
  object: z.literal('refund'),
  id: z.string(),
  amount: z.number().int(),
  currency: nullableString,
  status: z.enum(['pending', 'requires_action', 'succeeded', 'failed', 'canceled']),
  failure_reason: nullableString,
  metadata: z.record(z.string(), z.string()).nullish(),
  payment_intent: z.union([z.string(), z.object({ id: z.string() }).loose()]).nullish(),
});

const eventSchema = z.object({
  id: z.string().min(1),
  object: z.literal('event'),
  type: z.string().min(1),
  created: z.number().int(),
  data: z.object({ object: z.record(z.string(), z.unknown()) }),
});

function eventType(rawType: string): PaymentEventType {
  return (PAYMENT_EVENT_TYPES as readonly string[]).includes(rawType) ? (rawType as PaymentEventType) : 'other';
}

/** Reduces a parsed Stripe event to what the shop acts on; throws WebhookSignatureError if it is not one. */
export function toPaymentEvent(payload: unknown): PaymentEvent {
  const parsed = eventSchema.safeParse(payload);
  if (!parsed.success) throw new WebhookSignatureError('signed payload is not a Stripe event');
  const event = parsed.data;
  const type = eventType(event.type);
  const base: PaymentEvent = {
    id: event.id,
    type,
    rawType: event.type,
    created: new Date(event.created * 1000),
    sessionId: null,
    orderId: null,
    paymentStatus: null,
    amountTotal: null,
    currency: null,
    paymentIntentId: null,
    refund: null,
    payload,
  };
  if (event.data.object.object === 'refund') {
    const refund = refundSchema.safeParse(event.data.object);
    if (!refund.success) throw new WebhookSignatureError(`${event.type} event with an unreadable refund`);
    const r = refund.data;
    const paymentIntent = r.payment_intent ?? null;
    return {
      ...base,
      type: type === 'other' ? 'other' : type,
      orderId: r.metadata?.order_id ?? null,
      amountTotal: r.amount,
      currency: r.currency,
      paymentIntentId: typeof paymentIntent === 'string' ? paymentIntent : (paymentIntent?.id ?? null),
      refund: { id: r.id, amount: r.amount, currency: r.currency, status: r.status, refundId: r.metadata?.refund_id ?? null, failureReason: r.failure_reason },
    };
  }
  if (type.startsWith('refund.')) throw new WebhookSignatureError(`${event.type} event without a refund`);
  if (event.data.object.object !== 'checkout.session') {
    if (type !== 'other') throw new WebhookSignatureError(`${event.type} event without a checkout session`);
    return base;
  }
  const session = checkoutSessionSchema.safeParse(event.data.object);
  if (!session.success) throw new WebhookSignatureError(`${event.type} event with an unreadable checkout session`);
  const s = session.data;
  const paymentIntent = s.payment_intent ?? null;
  return {
    ...base,
    sessionId: s.id,
    orderId: s.metadata?.order_id || s.client_reference_id || null,
    paymentStatus: (s.payment_status ?? null) satisfies PaymentStatus | null,
    amountTotal: s.amount_total,
    currency: s.currency,
    paymentIntentId: typeof paymentIntent === 'string' ? paymentIntent : (paymentIntent?.id ?? null),
  };
}

/**
 * Checks the `Stripe-Signature` header over the raw body with Stripe's own code and reads the event.
 * Every way of failing (no header, wrong secret, changed body, too old, not an event) throws
 * WebhookSignatureError. `now` is the receiving clock, for providers with a clock of their own.
 */
export async function verifyStripeEvent(rawBody: Buffer, signatureHeader: string | undefined, secret: string, now?: () => Date): Promise<PaymentEvent> {
  if (!signatureHeader) throw new WebhookSignatureError('missing Stripe-Signature header');
  // Outside the try: an SDK that cannot load is the shop's failure (5xx), not a bad signature (400).
  const Stripe = await loadStripe();
  let event: unknown;
  try {
    event = Stripe.webhooks.constructEvent(rawBody, signatureHeader, secret, WEBHOOK_TOLERANCE_SECONDS, undefined, now?.().getTime());
  } catch (error) {
    if (error instanceof Stripe.errors.StripeSignatureVerificationError) throw new WebhookSignatureError(error.message);
    // The signature was good but the body is not JSON.
    if (error instanceof SyntaxError) throw new WebhookSignatureError('signed payload is not JSON');
    throw error;
  }
  return toPaymentEvent(event);
}

/**
 * A `Stripe-Signature` header for a body, as Stripe computes it (`t=…,v1=HMAC-SHA256(secret, t.body)`, documented
 * for checking signatures by hand). Computed here rather than with the SDK's generateTestHeaderString, so the
 * sandbox's events stay synchronous without the SDK loaded; a test holds it equal to the SDK's header, and
 * verifyStripeEvent checks every one with the SDK.
 */
export function signStripePayload(payload: string, secret: string, at: Date): string {
  const timestamp = Math.floor(at.getTime() / 1000);
  const signature = createHmac('sha256', secret).update(`${timestamp}.${payload}`, 'utf8').digest('hex');
  return `t=${timestamp},v1=${signature}`;
}
