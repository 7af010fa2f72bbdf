// Asking the provider instead of waiting for its event: one order's open checkout (the success page), and the
// safety net that asks about every checkout left open a while.
import { and, desc, eq, gt, inArray, isNotNull, lt, notInArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { orders as ordersTable } from '../../db/schema.js';
import { createRateLimiter } from '../../http/rate-limit.js';
import type { PaymentEvent } from '../../payment-providers/provider.js';
import type { OrderRow } from './order-repository.js';
import type { EventEffect, PaymentEventDeps } from './payment-event-context.js';

/** Open checkouts the reconciliation asks the provider about: placed a while ago, not older than a session lives. */
export const RECONCILE = { minAgeMs: 10 * 60 * 1000, maxAgeMs: 3 * 24 * 3600 * 1000, batch: 50, everyMs: 10 * 60 * 1000 } as const;

export function createReconciliation(deps: PaymentEventDeps, markPaid: (tx: Executor, event: PaymentEvent) => Promise<EventEffect>, settle: (effect: EventEffect) => Promise<void>) {
  const { db, payments, log } = deps;

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

  /**
   * Safety net for events that never arrive (a webhook misconfigured or down longer than the provider
   * retries): asks the provider about checkouts placed a while ago and still unpaid. One process per
   * window does it (a shared counter), however many run.
   */
  async function reconcileOpenCheckouts(): Promise<{ checked: number; paid: number }> {
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
  }

  return { confirmFromProvider, reconcileOpenCheckouts };
}
