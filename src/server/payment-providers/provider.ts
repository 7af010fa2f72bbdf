// One interface for the payment provider (docs/rules.md §3). Implementations:
// stripe-provider.ts (Stripe Checkout) and sandbox-provider.ts (a built-in imitation of it for
// development and tests). Both speak Stripe's event format, so one webhook handler serves both.

export interface CheckoutLineItem {
  name: string;
  amountCents: number;
  quantity: number;
}

export interface CreateCheckoutInput {
  orderId: string;
  orderNumber: string;
  email: string;
  language: 'de' | 'en' | 'es';
  lineItems: CheckoutLineItem[];
  /** Must equal the sum of the line items; a mismatch is a programming error and throws. */
  totalCents: number;
  /** Must contain the literal {CHECKOUT_SESSION_ID} placeholder; the provider replaces it. */
  successUrl: string;
  cancelUrl: string;
  /** The same key answers with the same session (Stripe keeps keys for 24 hours). */
  idempotencyKey: string;
}

export interface CheckoutSession {
  id: string;
  url: string;
  expiresAt: Date;
}

export type PaymentStatus = 'paid' | 'unpaid' | 'no_payment_required';

export type SessionState = {
  status: 'open' | 'complete' | 'expired';
  paymentStatus: PaymentStatus;
  orderId: string | null;
  amountTotal: number | null;
  /** The payment once the session is paid: what a refund refers to. */
  paymentIntentId: string | null;
};

export const PAYMENT_EVENT_TYPES = [
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'checkout.session.async_payment_failed',
  'checkout.session.expired',
  'refund.created',
  'refund.updated',
  'refund.failed',
] as const;

/** A refund as the provider reports it in its events. */
export interface RefundInfo {
  /** The provider's refund id (re_…). */
  id: string;
  amount: number;
  currency: string | null;
  status: 'pending' | 'requires_action' | 'succeeded' | 'failed' | 'canceled';
  /** Our refund row, from the metadata we sent. */
  refundId: string | null;
  failureReason: string | null;
}
export type PaymentEventType = (typeof PAYMENT_EVENT_TYPES)[number] | 'other';

/** A verified provider event, reduced to what the shop acts on. */
export interface PaymentEvent {
  id: string;
  type: PaymentEventType;
  rawType: string;
  created: Date;
  sessionId: string | null;
  /** From metadata.order_id, else client_reference_id. */
  orderId: string | null;
  paymentStatus: PaymentStatus | null;
  amountTotal: number | null;
  currency: string | null;
  paymentIntentId: string | null;
  /** For refund.* events. */
  refund: RefundInfo | null;
  /** The whole verified event as parsed JSON, for the payment_events table. */
  payload: unknown;
}

/**
 * The provider turned a request down for good (an invalid request, a refused card or payment): nothing was
 * done, and the same request again will be refused again. Any other error leaves it open whether the
 * provider acted (a timeout, a 5xx), so the caller must not treat it as "nothing happened".
 */
export class ProviderRefusedError extends Error {
  readonly code = 'providerRefused';
  constructor(message: string) {
    super(message);
    this.name = 'ProviderRefusedError';
  }
}

/** The webhook cannot be trusted or read: answer 400 and do nothing else. */
export class WebhookSignatureError extends Error {
  readonly code = 'webhookSignatureInvalid';
  constructor(message: string) {
    super(message);
    this.name = 'WebhookSignatureError';
  }
}

export interface PaymentProvider {
  readonly name: 'stripe' | 'sandbox';
  createCheckoutSession(input: CreateCheckoutInput): Promise<CheckoutSession>;
  /** Throws if the provider does not know the session. */
  retrieveSession(sessionId: string): Promise<SessionState>;
  expireSession(sessionId: string): Promise<'expired' | 'alreadyComplete' | 'alreadyExpired'>;
  /**
   * Verifies the signature on the raw body; rejects with WebhookSignatureError. Asynchronous because the code
   * that checks it (Stripe's SDK) loads with the first event.
   */
  verifyWebhook(rawBody: Buffer, signatureHeader: string | undefined): Promise<PaymentEvent>;
  /**
   * Asks the provider to pay money back. The answer is only the provider's receipt of the request:
   * a refund counts once its event (refund.created / refund.updated) says it succeeded. Asking again with
   * the same refund id returns the refund made the first time, however much later. Throws
   * ProviderRefusedError when the provider refused; any other error leaves the outcome open.
   */
  createRefund(input: CreateRefundInput): Promise<{ id: string; status: RefundInfo['status'] }>;
}

export interface CreateRefundInput {
  orderId: string;
  /** Our refund row; also the idempotency key, so a retried request makes one refund. */
  refundId: string;
  paymentIntentId: string;
  amountCents: number;
}

export const CHECKOUT_SESSION_PLACEHOLDER = '{CHECKOUT_SESSION_ID}';

/** How long a checkout session stays payable. Stripe accepts 30 minutes to 24 hours. */
export const CHECKOUT_SESSION_TTL_SECONDS = 60 * 60;

/**
 * Cents to the provider's amount. Stripe takes EUR in minor units, so this is the identity, but it is
 * the one place where a fractional or negative amount is stopped before it reaches a payment.
 */
export function toProviderAmount(cents: number): number {
  if (!Number.isSafeInteger(cents) || cents < 0) {
    throw new RangeError(`amount must be a non-negative integer number of cents, got ${String(cents)}`);
  }
  return cents;
}

/** Checks what both providers rely on; throws on a programming error in the caller. */
export function assertValidCheckoutInput(input: CreateCheckoutInput): void {
  if (input.lineItems.length === 0) throw new RangeError('checkout needs at least one line item');
  let sum = 0;
  for (const item of input.lineItems) {
    if (!Number.isSafeInteger(item.quantity) || item.quantity < 1) throw new RangeError(`line item quantity must be a positive integer: ${item.name}`);
    sum += toProviderAmount(item.amountCents) * item.quantity;
  }
  if (sum !== toProviderAmount(input.totalCents)) {
    throw new RangeError(`line items add up to ${sum} cents, but the order total is ${input.totalCents}`);
  }
  if (!input.successUrl.includes(CHECKOUT_SESSION_PLACEHOLDER)) {
    throw new RangeError(`successUrl must contain ${CHECKOUT_SESSION_PLACEHOLDER}`);
  }
}
