// Verified payment provider events, applied exactly once and never zero times: the event's row and
// everything it changes (order, history, invoice number, studio job, the mails it owes) are written in one
// transaction. A crash or a lost database connection anywhere before the commit leaves no trace, so the
// provider's retry applies the event; after the commit the retry is a duplicate and changes nothing.
// Mails go out right after the commit and, should that fail, from their job (mail/deferred-mail.ts); the
// order mails' senders live here, the order confirmation of checkout included.
import { and, desc, eq, gt, inArray, isNotNull, lt, notInArray, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { formatMoney } from '../../../domain/money.js';
import { canChangePayment, canTransition, type OrderStatus, type PaymentStatus } from '../../../domain/order-state.js';
import type { SiteInfo } from '../../../domain/site.js';
import type { ProviderEventPayload } from '../../../domain/stored-json.js';
import type { Database, Executor } from '../../db/client.js';
import { orders as ordersTable, paymentEvents, revisionRequests } from '../../db/schema.js';
import { createRateLimiter } from '../../http/rate-limit.js';
import { deferMail, sendDeferred, type DeferredMail, type DeferredMailSender } from '../../mail/deferred-mail.js';
import type { Mailer, SendResult } from '../../mail/mailer.js';
import { renderPaidAfterCancelNote } from '../../mail/staff-mails.js';
import type { PaymentEvent, PaymentProvider } from '../../payment-providers/provider.js';
import { createMetricsRepository } from '../metrics/metrics-repository.js';
import { PRODUCTION_DELAYED_MAIL, promisedBy, REDO_DELAYED_MAIL } from './delay-notices.js';
import { renderOrderReceivedMail, renderPaymentConfirmedMail, renderPaymentFailedMail, renderProductionDelayedMail } from './order-mails.js';
import { orderMailData, storedPrice, type OrderMailContext } from './order-mail-data.js';
import { createOrderRepository, type OrderRow } from './order-repository.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** How long a provider's event waits for its mails before it is answered; the rest goes on after. */
export const SETTLE_BEFORE_ANSWER_MS = 5_000;

/** What applying an event did, and what it owes once committed. */
export interface EventEffect {
  outcome: string;
  /** Mails the committed change owes; their jobs were recorded in the same transaction. */
  mails?: DeferredMail[];
  /** Work after the commit that may fail without harm (it is done again later on demand). */
  afterCommit?: () => Promise<void>;
}

export interface PaymentEventDeps extends OrderMailContext {
  db: Database;
  mailer: Mailer;
  payments: PaymentProvider;
  site: SiteInfo;
  /** What the rest of the shop does when an order's money moves (modules/order-lifecycle); none: nothing more. */
  lifecycle?: OrderLifecycle;
  log: FastifyBaseLogger;
}

/**
 * What the rest of the shop does when an order's money moves, declared once: modules/order-lifecycle implements
 * it, the payment events call it.
 */
export interface OrderLifecycle {
  /** Inside the payment's transaction: what must start exactly when an order is paid (invoice, seats, pictures). */
  paid(tx: Executor, order: OrderRow): Promise<void>;
  /** After the payment's commit: the invoice's signed download link for the payment mail (null: none). */
  invoiceLink(order: OrderRow): Promise<string | null>;
  /** A team order's payment confirmation: its own mail with the join link. */
  teamPaidMail(orderId: string, dedupeKey: string): Promise<SendResult | null>;
  /** Refund events (refund.created / refund.updated / refund.failed), applied inside the event's transaction. */
  refundEvent(tx: Executor, event: PaymentEvent): Promise<EventEffect>;
  /** Senders of the mails the refund events owe. */
  refundMailSenders: Record<string, DeferredMailSender>;
}

/** Open checkouts the reconciliation asks the provider about: placed a while ago, not older than a session lives. */
export const RECONCILE = { minAgeMs: 10 * 60 * 1000, maxAgeMs: 3 * 24 * 3600 * 1000, batch: 50, everyMs: 10 * 60 * 1000 } as const;

export function createPaymentEventService(deps: PaymentEventDeps) {
  const { db, mailer, payments, log } = deps;
  const orders = createOrderRepository(db);

  async function sendOrderMail(order: OrderRow, rendered: { subject: string; html: string; text: string; template: string }, dedupeKey: string) {
    if (!order.email) return null;
    return mailer.sendEmail({ ...rendered, to: order.email, language: order.language as 'de' | 'en' | 'es', orderId: order.id, dedupeKey });
  }

  /** Renders each owed mail from the database as it is when it is sent (now, or from its job later). */
  const senders: Record<string, DeferredMailSender> = {
    ...deps.lifecycle?.refundMailSenders,
    async orderReceived(mail) {
      const order = await orders.find(mail.data.orderId!);
      if (!order || order.totalCents === null) return null;
      const photoCount = await orders.uploadCount(order.id);
      return sendOrderMail(order, renderOrderReceivedMail(orderMailData(deps, order, storedPrice(order), photoCount)), mail.key);
    },
    async paymentConfirmed(mail) {
      const order = await orders.find(mail.data.orderId!);
      if (!order) return null;
      if (order.seats !== null && deps.lifecycle) return deps.lifecycle.teamPaidMail(order.id, mail.key);
      const photoCount = await orders.uploadCount(order.id);
      // A PDF that cannot be made now is made on its first download; the mail must not wait for it.
      const invoiceUrl = await (deps.lifecycle?.invoiceLink(order) ?? Promise.resolve(null)).catch((error: unknown) => {
        log.error({ orderId: order.id, err: error }, 'invoice PDF not stored yet');
        return null;
      });
      return sendOrderMail(order, renderPaymentConfirmedMail({ ...orderMailData(deps, order, storedPrice(order), photoCount), invoiceUrl }), mail.key);
    },
    async paymentFailed(mail) {
      const order = await orders.find(mail.data.orderId!);
      if (!order) return null;
      const retryUrl = `${deps.publicUrl}/order/summary${order.language === 'de' ? '' : `?lang=${order.language}`}`;
      const photoCount = await orders.uploadCount(order.id);
      return sendOrderMail(order, renderPaymentFailedMail({ ...orderMailData(deps, order, storedPrice(order), photoCount), retryUrl }), mail.key);
    },
    async [PRODUCTION_DELAYED_MAIL](mail) {
      const order = await orders.find(mail.data.orderId!);
      const dueAt = order ? promisedBy(order) : null;
      // Released (or cancelled) meanwhile, or the photos deleted: nothing to apologise for any more.
      if (!order || !dueAt || order.status === 'completed' || order.status === 'cancelled' || order.photosDeletedAt || order.seats !== null) return null;
      // A redo opened meanwhile: in production again under the redo's own time (its own mail when that passes).
      const [openRedo] = await deps.db.select({ id: revisionRequests.id }).from(revisionRequests).where(and(eq(revisionRequests.orderId, order.id), eq(revisionRequests.status, 'open')));
      if (openRedo) return null;
      const photoCount = await orders.uploadCount(order.id);
      return sendOrderMail(order, renderProductionDelayedMail({ ...orderMailData(deps, order, storedPrice(order), photoCount), dueAt }), mail.key);
    },
    async [REDO_DELAYED_MAIL](mail) {
      const order = await orders.find(mail.data.orderId!);
      const [redo] = await deps.db.select().from(revisionRequests).where(eq(revisionRequests.id, mail.data.revisionId!));
      // Answered meanwhile (the new pictures are out), or the photos deleted: nothing to apologise for any more.
      if (!order || !redo?.dueAt || redo.status !== 'open' || order.status === 'cancelled' || order.photosDeletedAt) return null;
      const photoCount = await orders.uploadCount(order.id);
      return sendOrderMail(order, renderProductionDelayedMail({ ...orderMailData(deps, order, storedPrice(order), photoCount), dueAt: redo.dueAt, redo: { pictures: redo.imageIds.length } }), mail.key);
    },
    async paidAfterCancel(mail) {
      const order = await orders.find(mail.data.orderId!);
      if (!order) return null;
      // The customer withdrew (or staff cancelled) before the money arrived: staff refund it.
      const amount = formatMoney(order.totalCents ?? 0);
      return mailer.sendEmail({
        to: deps.site.supportEmail,
        ...renderPaidAfterCancelNote({ orderNumber: order.orderNumber, amount }),
        template: 'paid-after-cancel-staff',
        language: 'de',
        orderId: order.id,
        dedupeKey: mail.key,
      });
    },
  };

  async function owe(tx: Executor, mail: DeferredMail): Promise<DeferredMail> {
    await deferMail(tx, mail, deps.now());
    return mail;
  }

  async function markPaid(tx: Executor, event: PaymentEvent): Promise<EventEffect> {
    const orderId = event.orderId!;
    const repo = createOrderRepository(tx);
    const order = await repo.lock(orderId);
    if (!order) return { outcome: 'unknownOrder' };
    if (order.paymentStatus === 'paid' || order.paymentStatus === 'refunded') {
      // Paid first through the success page's look at the provider: the webhook brings the payment's id,
      // which refunds need.
      if (!order.providerPaymentId && event.paymentIntentId && (!event.sessionId || event.sessionId === order.providerSessionId)) {
        await repo.update(orderId, { providerPaymentId: event.paymentIntentId });
      }
      return { outcome: 'alreadyPaid' };
    }
    const problem = (outcome: string): EventEffect => ({
      outcome,
      afterCommit: async () => log.error({ orderId, eventId: event.id, amount: event.amountTotal, outcome }, 'paid amount does not match the order'),
    });
    // Money for an order that was never placed (no prices stored) is not a purchase we can deliver.
    if (order.totalCents === null || !order.orderedAt) return problem('notCheckedOut');
    // A session replaced by a newer checkout cannot be paid (it was expired first); if it is, staff must refund it.
    if (order.providerSessionId && event.sessionId && order.providerSessionId !== event.sessionId) return problem('staleSession');
    if (event.amountTotal === null || event.amountTotal !== order.totalCents || (event.currency && event.currency !== 'eur')) return problem('amountMismatch');
    if (!canChangePayment(order.paymentStatus as PaymentStatus, 'paid')) return { outcome: 'ignored' };
    const now = deps.now();
    const nextStatus: OrderStatus = canTransition(order.status as OrderStatus, 'paid', 'system') ? 'paid' : (order.status as OrderStatus);
    const updated = await repo.update(orderId, {
      paymentStatus: 'paid',
      paidAt: now,
      status: nextStatus,
      providerPaymentId: event.paymentIntentId ?? order.providerPaymentId,
      providerSessionId: event.sessionId ?? order.providerSessionId,
      paymentFailedAt: null,
    });
    await repo.addHistory(orderId, {
      event: 'payment_received',
      fromStatus: order.status,
      toStatus: nextStatus,
      actorType: 'system',
      actorId: `${payments.name}:${event.id}`,
      note: event.type,
    });
    // Counted with the payment itself, so a purchase is counted exactly once (no browser involved).
    await createMetricsRepository(tx).count({ kind: 'event', name: 'purchase', detail: order.package ?? '' }, now);
    await deps.lifecycle?.paid(tx, updated);
    const cancelled = updated.status === 'cancelled';
    const mail = cancelled
      ? await owe(tx, { kind: 'paidAfterCancel', key: `paid-after-cancel:${orderId}`, orderId, data: { orderId } })
      : await owe(tx, { kind: 'paymentConfirmed', key: `payment-confirmed:${orderId}`, orderId, data: { orderId } });
    return {
      outcome: 'paid',
      mails: [mail],
      afterCommit: async () => {
        if (updated.photosDeletedAt) log.error({ orderId }, 'payment arrived for an order whose photos were already deleted; the customer must upload again');
        if (cancelled) log.error({ orderId }, 'payment arrived for a cancelled order; it must be refunded');
      },
    };
  }

  async function markFailed(tx: Executor, event: PaymentEvent): Promise<EventEffect> {
    const orderId = event.orderId!;
    const repo = createOrderRepository(tx);
    const order = await repo.lock(orderId);
    if (!order) return { outcome: 'unknownOrder' };
    // A failure of an older checkout says nothing about the one the customer uses now.
    if (order.providerSessionId && event.sessionId && order.providerSessionId !== event.sessionId) return { outcome: 'staleSession' };
    if (!canChangePayment(order.paymentStatus as PaymentStatus, 'failed')) return { outcome: 'ignored' };
    await repo.update(orderId, {
      paymentStatus: 'failed',
      paymentFailedAt: deps.now(),
      providerSessionId: null,
      providerSessionUrl: null,
      providerSessionTotalCents: null,
      providerSessionExpiresAt: null,
    });
    await repo.addHistory(orderId, { event: 'payment_failed', actorType: 'system', actorId: `${payments.name}:${event.id}`, note: event.type });
    const mail = await owe(tx, { kind: 'paymentFailed', key: `payment-failed:${event.id}`, orderId, data: { orderId } });
    return { outcome: 'failed', mails: [mail] };
  }

  async function notePending(tx: Executor, event: PaymentEvent): Promise<EventEffect> {
    const orderId = event.orderId!;
    const repo = createOrderRepository(tx);
    const order = await repo.lock(orderId);
    if (!order) return { outcome: 'unknownOrder' };
    if (order.paymentStatus !== 'pending') return { outcome: 'ignored' };
    await repo.addHistory(orderId, { event: 'payment_pending', actorType: 'system', actorId: `${payments.name}:${event.id}`, note: event.type });
    return { outcome: 'pending' };
  }

  async function noteExpired(tx: Executor, event: PaymentEvent): Promise<EventEffect> {
    const orderId = event.orderId!;
    const repo = createOrderRepository(tx);
    const order = await repo.lock(orderId);
    if (!order) return { outcome: 'unknownOrder' };
    if (order.providerSessionId !== event.sessionId || order.paymentStatus === 'paid') return { outcome: 'ignored' };
    await repo.update(orderId, { providerSessionId: null, providerSessionUrl: null, providerSessionTotalCents: null, providerSessionExpiresAt: null });
    await repo.addHistory(orderId, { event: 'checkout_expired', actorType: 'system', actorId: `${payments.name}:${event.id}` });
    return { outcome: 'expired' };
  }

  /** The event's effect inside its transaction; the order exists (checked by the caller). */
  async function dispatch(tx: Executor, event: PaymentEvent): Promise<EventEffect> {
    switch (event.type) {
      case 'checkout.session.completed':
        return event.paymentStatus === 'paid' || event.paymentStatus === 'no_payment_required' ? markPaid(tx, event) : notePending(tx, event);
      case 'checkout.session.async_payment_succeeded':
        return markPaid(tx, event);
      case 'checkout.session.async_payment_failed':
        return markFailed(tx, event);
      case 'checkout.session.expired':
        return noteExpired(tx, event);
      default:
        return event.refund && deps.lifecycle ? deps.lifecycle.refundEvent(tx, event) : { outcome: 'ignored' };
    }
  }

  /** An owed mail at once, right after its commit; if that fails its job sends it later. */
  async function sendOwedMailNow(mail: DeferredMail): Promise<void> {
    try {
      await sendDeferred(senders, mail);
    } catch (error) {
      log.warn({ err: error, mailKey: mail.key }, 'mail not sent yet; its job sends it later');
    }
  }

  /**
   * After the commit: the owed mails, then the harmless rest. Someone waits for the answer (the provider,
   * the customer at the checkout or on the success page): a slow mail server must not hold them, so after
   * SETTLE_BEFORE_ANSWER_MS the answer goes and the work goes on after it; the mails' jobs cover a process
   * that dies meanwhile.
   */
  async function settle(effect: EventEffect): Promise<void> {
    await within(
      (async () => {
        for (const mail of effect.mails ?? []) await sendOwedMailNow(mail);
        if (effect.afterCommit) await effect.afterCommit().catch((error: unknown) => log.error({ err: error }, 'work after a payment event failed'));
      })(),
    );
  }

  async function within(work: Promise<void>): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, SETTLE_BEFORE_ANSWER_MS);
      timer.unref();
    });
    await Promise.race([work, waited]);
    clearTimeout(timer);
  }

  const sendOwedMail = (mail: DeferredMail) => within(sendOwedMailNow(mail));

  /** Asks the provider about an order's open checkout and applies what it says (a payment is only ever marked from here or an event). */
  async function confirmFromProvider(order: OrderRow): Promise<string> {
    if (order.paymentStatus === 'paid' || !order.providerSessionId) return 'ignored';
    const sessionId = order.providerSessionId;
    const state = await payments.retrieveSession(sessionId);
    if (state.orderId !== order.id) return 'ignored';
    if (state.status !== 'complete' || state.paymentStatus !== 'paid') return 'notPaid';
    const effect = await db.transaction((tx) =>
      markPaid(tx, {
        id: `refresh:${sessionId}`,
        type: 'checkout.session.completed',
        rawType: 'refresh',
        created: deps.now(),
        sessionId,
        orderId: order.id,
        paymentStatus: 'paid',
        amountTotal: state.amountTotal,
        currency: 'eur',
        paymentIntentId: state.paymentIntentId,
        refund: null,
        payload: state,
      }),
    );
    await settle(effect);
    return effect.outcome;
  }

  return {
    /** The job handlers' senders (the deferred mail queue). */
    mailSenders: senders,

    /** Applies a verified provider event once; the same event again changes nothing. */
    async applyPaymentEvent(event: PaymentEvent): Promise<string> {
      const effect = await db.transaction(async (tx): Promise<EventEffect & { duplicate?: boolean }> => {
        // The event as the provider sent it, whose shape the provider's verification checked (stripe-events.ts).
        const inserted = await tx
          .insert(paymentEvents)
          .values({ provider: payments.name, eventId: event.id, type: event.rawType, orderId: null, payload: event.payload as ProviderEventPayload })
          .onConflictDoNothing()
          .returning({ id: paymentEvents.id });
        // Recorded means applied: the row commits only together with its effect.
        if (inserted.length === 0) return { outcome: 'duplicate', duplicate: true };
        const order = event.orderId && UUID.test(event.orderId) ? await createOrderRepository(tx).find(event.orderId) : null;
        const applied = order ? await dispatch(tx, event) : { outcome: 'unknownOrder' };
        await tx
          .update(paymentEvents)
          .set({ processedAt: deps.now(), outcome: applied.outcome, orderId: order ? order.id : null })
          .where(eq(paymentEvents.id, inserted[0]!.id));
        return applied;
      });
      // The provider waits for this answer and retries after its own timeout: settle() does not hold it long.
      if (!effect.duplicate) await settle(effect);
      return effect.outcome;
    },

    confirmFromProvider,
    sendOwedMail,

    /**
     * Safety net for events that never arrive (a webhook misconfigured or down longer than the provider
     * retries): asks the provider about checkouts placed a while ago and still unpaid. One process per
     * window does it (a shared counter), however many run.
     */
    async reconcileOpenCheckouts(): Promise<{ checked: number; paid: number }> {
      const now = deps.now();
      const turn = await createRateLimiter(db, deps.now).hit('reconcile:payments', 1, RECONCILE.everyMs - 1000);
      if (!turn.allowed) return { checked: 0, paid: 0 };
      const openCheckout = and(
        eq(ordersTable.status, 'created'),
        inArray(ordersTable.paymentStatus, ['pending']),
        isNotNull(ordersTable.providerSessionId),
        lt(ordersTable.orderedAt, new Date(now.getTime() - RECONCILE.minAgeMs)),
        gt(ordersTable.orderedAt, new Date(now.getTime() - RECONCILE.maxAgeMs)),
      );
      // Abandoned checkouts pile up: half the batch goes to the newest (a payment just missed is the likeliest),
      // half to a random draw of the rest, so no open checkout is left out run after run.
      const newest = await db
        .select()
        .from(ordersTable)
        .where(openCheckout)
        .orderBy(desc(ordersTable.orderedAt))
        .limit(RECONCILE.batch / 2);
      const seen = newest.map((order) => order.id);
      const drawn = await db
        .select()
        .from(ordersTable)
        .where(seen.length ? and(openCheckout, notInArray(ordersTable.id, seen)) : openCheckout)
        .orderBy(sql`random()`)
        .limit(RECONCILE.batch - newest.length);
      const open = [...newest, ...drawn];
      let paid = 0;
      for (const order of open) {
        try {
          if ((await confirmFromProvider(order)) === 'paid') {
            paid++;
            log.warn({ orderId: order.id }, 'payment found by asking the provider: its event never arrived (check the webhook)');
          }
        } catch (error) {
          log.warn({ err: error, orderId: order.id }, 'could not ask the provider about an open checkout');
        }
      }
      return { checked: open.length, paid };
    },
  };
}

export type PaymentEventService = ReturnType<typeof createPaymentEventService>;
