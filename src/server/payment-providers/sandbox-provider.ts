// A built-in imitation of Stripe Checkout for development and tests (docs/rules.md §3). It keeps
// its sessions in sandbox_checkout_sessions, and its events look and are signed exactly like Stripe's,
// so they go through the very same verification and webhook handling as real ones.
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Language } from '../../domain/catalog.js';
import type { Database } from '../db/client.js';
import { sandboxCheckoutSessions } from '../db/schema.js';
import {
  assertValidCheckoutInput,
  CHECKOUT_SESSION_PLACEHOLDER,
  CHECKOUT_SESSION_TTL_SECONDS,
  ProviderRefusedError,
  toProviderAmount,
  type CheckoutLineItem,
  type PaymentProvider,
  type SessionState,
} from './provider.js';
import { signStripePayload, verifyStripeEvent } from './stripe-events.js';

export const SANDBOX_OUTCOMES = ['pay', 'sepaPending', 'sepaSucceed', 'fail', 'cancel'] as const;
export type SandboxOutcome = (typeof SANDBOX_OUTCOMES)[number];

export function isSandboxOutcome(value: unknown): value is SandboxOutcome {
  return typeof value === 'string' && (SANDBOX_OUTCOMES as readonly string[]).includes(value);
}

/**
 * What the test checkout page shows. A Stripe session alone cannot tell a pending SEPA debit from a
 * bounced one (both are complete + unpaid; the difference lives on the PaymentIntent), so the
 * sandbox keeps that one fact for itself.
 */
export type SandboxSessionState = 'open' | 'pendingDebit' | 'paid' | 'failed' | 'expired';

export interface SandboxSession {
  id: string;
  orderId: string;
  orderNumber: string | null;
  state: SandboxSessionState;
  amountTotal: number;
  currency: string;
  lineItems: CheckoutLineItem[];
  customerEmail: string | null;
  locale: Language;
  expiresAt: Date;
  /** Where the browser goes from here when no button applies (the page itself while open). */
  continueUrl: string;
}

export interface SignedSandboxEvent {
  /** The exact bytes to POST to the webhook route. */
  body: string;
  /** The value of the `Stripe-Signature` header. */
  signature: string;
}

export interface SandboxPaymentProvider extends PaymentProvider {
  readonly name: 'sandbox';
  /** The session for the test checkout page; null if unknown. */
  getSession(sessionId: string): Promise<SandboxSession | null>;
  /**
   * Applies a button press on the test checkout page to the session and returns the signed events to
   * deliver, in order, plus where to send the browser; null for an unknown session.
   */
  simulate(sessionId: string, outcome: SandboxOutcome): Promise<{ events: SignedSandboxEvent[]; redirectTo: string } | null>;
  /** The provider's answer to a refund request, as Stripe would send it: the signed refund.updated event. */
  refundEvent(refund: { id: string; orderId: string; refundId: string; amountCents: number; paymentIntentId: string; outcome: 'succeeded' | 'failed' }): SignedSandboxEvent;
}

export interface SandboxProviderOptions {
  db: Database;
  webhookSecret: string;
  /** The shop's public base URL; the checkout page lives under it. */
  publicUrl: string;
  now?: () => Date;
}

type Row = typeof sandboxCheckoutSessions.$inferSelect;
type Metadata = Record<string, string>;
type SandboxEventType =
  | 'checkout.session.completed'
  | 'checkout.session.async_payment_succeeded'
  | 'checkout.session.async_payment_failed'
  | 'checkout.session.expired';
type Destination = 'success' | 'cancel' | 'failed' | 'page';
interface Stored {
  status: 'open' | 'complete' | 'expired';
  paymentStatus: 'unpaid' | 'paid';
  debitFailed: boolean;
}

// Sandbox bookkeeping inside the metadata column; never sent out in events.
const DEBIT_FAILED_KEY = '_sandbox_debit_failed';

const STORED: Record<SandboxSessionState, Stored> = {
  open: { status: 'open', paymentStatus: 'unpaid', debitFailed: false },
  pendingDebit: { status: 'complete', paymentStatus: 'unpaid', debitFailed: false },
  paid: { status: 'complete', paymentStatus: 'paid', debitFailed: false },
  failed: { status: 'complete', paymentStatus: 'unpaid', debitFailed: true },
  expired: { status: 'expired', paymentStatus: 'unpaid', debitFailed: false },
};

interface Transition {
  to: SandboxSessionState | null;
  events: SandboxEventType[];
  redirect: Destination;
}

const STAY: Record<SandboxSessionState, Transition> = {
  open: { to: null, events: [], redirect: 'page' },
  pendingDebit: { to: null, events: [], redirect: 'success' },
  paid: { to: null, events: [], redirect: 'success' },
  failed: { to: null, events: [], redirect: 'failed' },
  expired: { to: null, events: [], redirect: 'cancel' },
};

/** The state machine of the test checkout: Stripe's event sequences for card and SEPA debit. */
function transition(state: SandboxSessionState | 'expiredByTime', outcome: SandboxOutcome): Transition {
  // Stripe sends checkout.session.expired on its own once the time is up; the sandbox has no timer,
  // so the first press after that time delivers it.
  if (state === 'expiredByTime') return { to: 'expired', events: ['checkout.session.expired'], redirect: 'cancel' };
  if (state === 'open') {
    switch (outcome) {
      case 'pay':
        return { to: 'paid', events: ['checkout.session.completed'], redirect: 'success' };
      case 'sepaPending':
        return { to: 'pendingDebit', events: ['checkout.session.completed'], redirect: 'success' };
      case 'fail':
        // A debit that bounced: the checkout completed unpaid, then the payment failed.
        return { to: 'failed', events: ['checkout.session.completed', 'checkout.session.async_payment_failed'], redirect: 'failed' };
      case 'cancel':
        return { to: 'expired', events: ['checkout.session.expired'], redirect: 'cancel' };
      case 'sepaSucceed':
        return STAY.open;
    }
  }
  if (state === 'pendingDebit') {
    if (outcome === 'sepaSucceed') return { to: 'paid', events: ['checkout.session.async_payment_succeeded'], redirect: 'success' };
    if (outcome === 'fail') return { to: 'failed', events: ['checkout.session.async_payment_failed'], redirect: 'failed' };
  }
  return STAY[state];
}

function metadataOf(row: Row): Metadata {
  return row.metadata ?? {};
}

function publicMetadata(row: Row): Metadata {
  return Object.fromEntries(Object.entries(metadataOf(row)).filter(([key]) => !key.startsWith('_sandbox_')));
}

function storedState(row: Row): SandboxSessionState {
  if (row.status === 'expired') return 'expired';
  if (row.status === 'open') return 'open';
  if (row.paymentStatus === 'paid') return 'paid';
  return metadataOf(row)[DEBIT_FAILED_KEY] === 'true' ? 'failed' : 'pendingDebit';
}

function hex(bytes: number): string {
  return randomBytes(bytes).toString('hex');
}

function appendQuery(url: string, pair: string): string {
  const hash = url.indexOf('#');
  const [base, fragment] = hash === -1 ? [url, ''] : [url.slice(0, hash), url.slice(hash)];
  const separator = !base.includes('?') ? '?' : base.endsWith('?') || base.endsWith('&') ? '' : '&';
  return `${base}${separator}${pair}${fragment}`;
}

export function createSandboxProvider(options: SandboxProviderOptions): SandboxPaymentProvider {
  const { db, webhookSecret } = options;
  const now = options.now ?? (() => new Date());
  const publicUrl = options.publicUrl.replace(/\/+$/, '');
  const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

  function effectiveState(row: Row): SandboxSessionState | 'expiredByTime' {
    const state = storedState(row);
    return state === 'open' && row.expiresAt.getTime() <= now().getTime() ? 'expiredByTime' : state;
  }

  function pageUrl(id: string): string {
    return `${publicUrl}/sandbox/checkout/${encodeURIComponent(id)}`;
  }

  function destination(row: Row, to: Destination): string {
    switch (to) {
      case 'success':
        return row.successUrl.replaceAll(CHECKOUT_SESSION_PLACEHOLDER, row.id);
      case 'cancel':
        return row.cancelUrl;
      case 'failed':
        return appendQuery(row.cancelUrl, 'payment=failed');
      case 'page':
        return pageUrl(row.id);
    }
  }

  // Stripe creates the PaymentIntent when the customer confirms; an id derived from the session keeps it stable.
  function paymentIntentOf(row: Row): string | null {
    return row.status === 'complete' ? `pi_sandbox_${row.id.slice(-24)}` : null;
  }

  /** The session as Stripe would put it into an event's data.object. */
  function stripeSession(row: Row) {
    const complete = row.status === 'complete';
    return {
      id: row.id,
      object: 'checkout.session',
      mode: 'payment',
      status: row.status,
      payment_status: row.paymentStatus,
      amount_subtotal: row.amountTotal,
      amount_total: row.amountTotal,
      currency: row.currency,
      client_reference_id: row.clientReferenceId,
      customer_email: row.customerEmail,
      customer_details: complete ? { email: row.customerEmail } : null,
      metadata: publicMetadata(row),
      payment_intent: paymentIntentOf(row),
      locale: row.locale,
      success_url: row.successUrl,
      cancel_url: row.cancelUrl,
      url: row.status === 'open' ? pageUrl(row.id) : null,
      created: seconds(row.createdAt),
      expires_at: seconds(row.expiresAt),
      livemode: false,
    };
  }

  /** A Stripe-shaped event around `object`, signed with the sandbox's webhook secret. */
  function signed(type: string, object: object, at: Date): SignedSandboxEvent {
    const event = {
      id: `evt_sandbox_${hex(12)}`,
      object: 'event',
      api_version: null,
      created: seconds(at),
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
      data: { object },
    };
    const body = JSON.stringify(event);
    return { body, signature: signStripePayload(body, webhookSecret, at) };
  }

  function signedEvent(type: SandboxEventType, row: Row, at: Date): SignedSandboxEvent {
    return signed(type, stripeSession(row), at);
  }

  function signedRefundEvent(refund: Parameters<SandboxPaymentProvider['refundEvent']>[0], at: Date): SignedSandboxEvent {
    return signed(refund.outcome === 'succeeded' ? 'refund.updated' : 'refund.failed', {
      id: refund.id,
      object: 'refund',
      amount: refund.amountCents,
      currency: 'eur',
      status: refund.outcome,
      failure_reason: refund.outcome === 'failed' ? 'expired_or_canceled_card' : null,
      metadata: { order_id: refund.orderId, refund_id: refund.refundId },
      payment_intent: refund.paymentIntentId,
      created: seconds(at),
    }, at);
  }

  function toSandboxSession(row: Row): SandboxSession {
    const state = effectiveState(row);
    const shown = state === 'expiredByTime' ? 'expired' : state;
    return {
      id: row.id,
      orderId: row.orderId,
      orderNumber: metadataOf(row).order_number ?? null,
      state: shown,
      amountTotal: row.amountTotal,
      currency: row.currency,
      lineItems: row.lineItems,
      customerEmail: row.customerEmail,
      locale: row.locale as Language,
      expiresAt: row.expiresAt,
      continueUrl: destination(row, STAY[shown].redirect),
    };
  }

  async function find(id: string): Promise<Row | null> {
    const [row] = await db.select().from(sandboxCheckoutSessions).where(eq(sandboxCheckoutSessions.id, id));
    return row ?? null;
  }

  async function findOrThrow(id: string): Promise<Row> {
    const row = await find(id);
    if (!row) throw new Error(`No such sandbox checkout session: ${id}`);
    return row;
  }

  return {
    name: 'sandbox',

    async createCheckoutSession(input) {
      assertValidCheckoutInput(input);
      // Like Stripe's idempotency keys: the same key answers with the same session.
      const id = `cs_test_sandbox_${createHmac('sha256', webhookSecret).update(`session:${input.idempotencyKey}`).digest('hex').slice(0, 32)}`;
      const createdAt = now();
      await db
        .insert(sandboxCheckoutSessions)
        .values({
          id,
          orderId: input.orderId,
          amountTotal: toProviderAmount(input.totalCents),
          currency: 'eur',
          lineItems: input.lineItems.map(({ name, amountCents, quantity }) => ({ name, amountCents, quantity })),
          customerEmail: input.email,
          locale: input.language,
          metadata: { order_id: input.orderId, order_number: input.orderNumber },
          clientReferenceId: input.orderId,
          successUrl: input.successUrl,
          cancelUrl: input.cancelUrl,
          createdAt,
          expiresAt: new Date(createdAt.getTime() + CHECKOUT_SESSION_TTL_SECONDS * 1000),
        })
        .onConflictDoNothing();
      const row = await findOrThrow(id);
      if (row.orderId !== input.orderId || row.amountTotal !== input.totalCents) {
        throw new Error(`Idempotency key ${input.idempotencyKey} was already used for a different checkout`);
      }
      return { id: row.id, url: pageUrl(row.id), expiresAt: row.expiresAt };
    },

    async retrieveSession(sessionId): Promise<SessionState> {
      const row = await findOrThrow(sessionId);
      const state = effectiveState(row);
      return {
        status: state === 'expiredByTime' ? 'expired' : row.status === 'complete' ? 'complete' : row.status === 'expired' ? 'expired' : 'open',
        paymentStatus: row.paymentStatus === 'paid' ? 'paid' : 'unpaid',
        orderId: metadataOf(row).order_id || row.clientReferenceId || null,
        amountTotal: row.amountTotal,
        paymentIntentId: paymentIntentOf(row),
      };
    },

    async expireSession(sessionId) {
      return db.transaction(async (tx) => {
        const [row] = await tx.select().from(sandboxCheckoutSessions).where(eq(sandboxCheckoutSessions.id, sessionId)).for('update');
        if (!row) throw new Error(`No such sandbox checkout session: ${sessionId}`);
        const state = effectiveState(row);
        if (state === 'open' || state === 'expiredByTime') {
          await tx.update(sandboxCheckoutSessions).set({ status: 'expired' }).where(eq(sandboxCheckoutSessions.id, sessionId));
          return state === 'open' ? 'expired' : 'alreadyExpired';
        }
        return state === 'expired' ? 'alreadyExpired' : 'alreadyComplete';
      });
    },

    async createRefund(input) {
      if (!input.paymentIntentId.startsWith('pi_sandbox_')) throw new ProviderRefusedError('the sandbox refunds only its own payments');
      toProviderAmount(input.amountCents);
      // Like Stripe, the request is only received here; the outcome comes as an event (see refundEvent).
      return { id: `re_sandbox_${createHash('sha256').update(input.refundId).digest('hex').slice(0, 24)}`, status: 'pending' as const };
    },

    refundEvent(refund) {
      return signedRefundEvent(refund, now());
    },

    verifyWebhook(rawBody, signatureHeader) {
      return verifyStripeEvent(rawBody, signatureHeader, webhookSecret, now);
    },

    async getSession(sessionId) {
      const row = await find(sessionId);
      return row ? toSandboxSession(row) : null;
    },

    async simulate(sessionId, outcome) {
      // The row lock makes a double click deliver the events once.
      return db.transaction(async (tx) => {
        const [row] = await tx.select().from(sandboxCheckoutSessions).where(eq(sandboxCheckoutSessions.id, sessionId)).for('update');
        if (!row) return null;
        const step = transition(effectiveState(row), outcome);
        if (!step.to) return { events: [], redirectTo: destination(row, step.redirect) };
        const next = STORED[step.to];
        const metadata: Metadata = { ...publicMetadata(row), ...(next.debitFailed ? { [DEBIT_FAILED_KEY]: 'true' } : {}) };
        const [updated] = await tx
          .update(sandboxCheckoutSessions)
          .set({ status: next.status, paymentStatus: next.paymentStatus, metadata })
          .where(eq(sandboxCheckoutSessions.id, sessionId))
          .returning();
        if (!updated) throw new Error(`Sandbox checkout session ${sessionId} vanished`);
        const at = now();
        return { events: step.events.map((type) => signedEvent(type, updated, at)), redirectTo: destination(updated, step.redirect) };
      });
    },
  };
}
