// Stripe Checkout through the official SDK. Payment methods are not listed here: the Stripe
// dashboard decides (card, SEPA debit, PayPal, wallets) so they can change without a deploy.
import type Stripe from 'stripe';
import {
  assertValidCheckoutInput,
  CHECKOUT_SESSION_TTL_SECONDS,
  ProviderRefusedError,
  toProviderAmount,
  type CheckoutSession,
  type CreateCheckoutInput,
  type PaymentProvider,
  type SessionState,
} from './provider.js';
import { loadStripe, verifyStripeEvent } from './stripe-events.js';

export interface StripeProviderOptions {
  secretKey: string;
  webhookSecret: string;
  /** Where the API lives; tests point this at a local stand-in. Defaults to api.stripe.com. */
  apiBase?: { host: string; port: number; protocol: 'http' | 'https' };
  now?: () => Date;
}

export interface StripePaymentProvider extends PaymentProvider {
  readonly name: 'stripe';
}

const REQUEST_TIMEOUT_MS = 20_000;

const STATUSES = ['open', 'complete', 'expired'] as const;
const PAYMENT_STATUSES = ['paid', 'unpaid', 'no_payment_required'] as const;

function oneOf<T extends string>(allowed: readonly T[], value: string | null, what: string): T {
  if (value !== null && (allowed as readonly string[]).includes(value)) return value as T;
  // Stripe's types leave room for values added later; acting on one we do not know would be a guess.
  throw new Error(`Stripe returned an unknown checkout session ${what}: ${String(value)}`);
}

function sessionState(session: Stripe.Checkout.Session): SessionState {
  return {
    status: oneOf(STATUSES, session.status, 'status'),
    paymentStatus: oneOf(PAYMENT_STATUSES, session.payment_status, 'payment status'),
    orderId: session.metadata?.order_id || session.client_reference_id || null,
    amountTotal: session.amount_total,
    paymentIntentId: typeof session.payment_intent === 'string' ? session.payment_intent : (session.payment_intent?.id ?? null),
  };
}

export function createStripeProvider(options: StripeProviderOptions): StripePaymentProvider {
  const now = options.now ?? (() => new Date());
  // The SDK and its client come with the first call (loadStripe); a failed load is tried again by the next call.
  let client: Promise<{ Stripe: typeof Stripe; stripe: Stripe }> | null = null;
  function sdk() {
    client ??= loadStripe()
      .then((StripeSdk) => {
        const stripe = new StripeSdk(options.secretKey, {
          maxNetworkRetries: 2,
          timeout: REQUEST_TIMEOUT_MS,
          telemetry: false,
          appInfo: { name: 'bewerbungsfoto-shop' },
          ...(options.apiBase ?? {}),
        });
        return { Stripe: StripeSdk, stripe };
      })
      .catch((error: unknown) => {
        client = null;
        throw error;
      });
    return client;
  }

  async function retrieve(sessionId: string): Promise<Stripe.Checkout.Session> {
    const { stripe } = await sdk();
    return stripe.checkout.sessions.retrieve(sessionId);
  }

  return {
    name: 'stripe',

    async createCheckoutSession(input: CreateCheckoutInput): Promise<CheckoutSession> {
      assertValidCheckoutInput(input);
      const metadata = { order_id: input.orderId, order_number: input.orderNumber };
      const { stripe } = await sdk();
      const session = await stripe.checkout.sessions.create(
        {
          mode: 'payment',
          line_items: input.lineItems.map((item) => ({
            quantity: item.quantity,
            price_data: { currency: 'eur', unit_amount: toProviderAmount(item.amountCents), product_data: { name: item.name } },
          })),
          customer_email: input.email,
          client_reference_id: input.orderId,
          metadata,
          payment_intent_data: { metadata },
          locale: input.language,
          success_url: input.successUrl,
          cancel_url: input.cancelUrl,
          expires_at: Math.floor(now().getTime() / 1000) + CHECKOUT_SESSION_TTL_SECONDS,
        },
        { idempotencyKey: input.idempotencyKey },
      );
      if (!session.url) throw new Error(`Stripe returned checkout session ${session.id} without a URL`);
      return { id: session.id, url: session.url, expiresAt: new Date(session.expires_at * 1000) };
    },

    async retrieveSession(sessionId) {
      return sessionState(await retrieve(sessionId));
    },

    async expireSession(sessionId) {
      const { Stripe: StripeSdk, stripe } = await sdk();
      try {
        await stripe.checkout.sessions.expire(sessionId);
        return 'expired';
      } catch (error) {
        // Stripe refuses to expire a session that is no longer open; ask it which state it is in.
        if (!(error instanceof StripeSdk.errors.StripeInvalidRequestError)) throw error;
        const current = await retrieve(sessionId).catch(() => null);
        if (current?.status === 'complete') return 'alreadyComplete';
        if (current?.status === 'expired') return 'alreadyExpired';
        throw error;
      }
    },

    verifyWebhook(rawBody, signatureHeader) {
      return verifyStripeEvent(rawBody, signatureHeader, options.webhookSecret);
    },

    async createRefund(input) {
      const amount = toProviderAmount(input.amountCents);
      const answer = (refund: Stripe.Refund) => ({ id: refund.id, status: (refund.status ?? 'pending') as 'pending' });
      const { Stripe: StripeSdk, stripe } = await sdk();
      try {
        // Asked before (a retry after a timeout)? Stripe forgets idempotency keys after 24 hours; our id in
        // the refund's metadata stays, so look for it first.
        const earlier = await stripe.refunds.list({ payment_intent: input.paymentIntentId, limit: 100 });
        const made = earlier.data.find((refund) => refund.metadata?.refund_id === input.refundId);
        if (made && (made.status === 'failed' || made.status === 'canceled')) throw new ProviderRefusedError(`refund ${made.id} ${made.status}: ${made.failure_reason ?? ''}`.trim());
        if (made) return answer(made);
        const refund = await stripe.refunds.create(
          { payment_intent: input.paymentIntentId, amount, metadata: { order_id: input.orderId, refund_id: input.refundId } },
          { idempotencyKey: `refund-${input.refundId}` },
        );
        return answer(refund);
      } catch (error) {
        if (error instanceof StripeSdk.errors.StripeInvalidRequestError || error instanceof StripeSdk.errors.StripeCardError) throw new ProviderRefusedError(error.message);
        throw error;
      }
    },
  };
}
