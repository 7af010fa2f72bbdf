// What a verified provider event changes, inside the transaction that records it: the order paid (its
// history, the purchase counted, what the lifecycle starts, the mail it owes), failed, pending or its checkout
// expired; refund events go to the lifecycle. The event's row commits only together with its effect.
import { eq } from 'drizzle-orm';
import { canChangePayment, canTransition, type OrderStatus, type PaymentStatus } from '../../../domain/order-state.js';
import type { ProviderEventPayload } from '../../../domain/stored-json.js';
import type { Executor } from '../../db/client.js';
import { paymentEvents } from '../../db/schema.js';
import { deferMail, type DeferredMail } from '../../mail/deferred-mail.js';
import type { PaymentEvent } from '../../payment-providers/provider.js';
import { createMetricsRepository } from '../metrics/metrics-repository.js';
import { createOrderRepository } from './order-repository.js';
import type { EventEffect, PaymentEventDeps } from './payment-event-context.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function createPaymentEventEffects(deps: PaymentEventDeps, settle: (effect: EventEffect) => Promise<void>) {
  const { db, payments, log } = deps;

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

  /** Applies a verified provider event once; the same event again changes nothing. */
  async function applyPaymentEvent(event: PaymentEvent): Promise<string> {
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
  }

  return { markPaid, applyPaymentEvent };
}
