// Refunds: staff ask the payment provider; only the provider's refund event makes one count. Then, in one
// transaction: the refund succeeded, the order's refunded amount (refunded status once it is all), a history
// entry and a cancellation invoice with its own number; afterwards the customer's mail.
import { randomUUID } from 'node:crypto';
import { and, count, desc, eq, ne, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Language } from '../../../domain/catalog.js';
import { canChangePayment, type PaymentStatus } from '../../../domain/order-state.js';
import { seatRefundCents } from '../../../domain/pricing.js';
import type { SiteInfo } from '../../../domain/site.js';
import type { Database, Executor } from '../../db/client.js';
import { auditLog, invoices, orders, refunds } from '../../db/schema.js';
import { AppError, conflict, notFound, unprocessable } from '../../http/errors.js';
import { deferMail, type DeferredMail, type DeferredMailSender } from '../../mail/deferred-mail.js';
import type { Mailer, SendResult } from '../../mail/mailer.js';
import { renderRefundMail } from '../../mail/service-mails.js';
import { ProviderRefusedError, type PaymentEvent, type PaymentProvider } from '../../payment-providers/provider.js';
import { invoiceUrl, type InvoiceService } from '../invoices/invoice-service.js';
import { createOrderRepository, type OrderRow } from '../orders/order-repository.js';
import type { EventEffect } from '../orders/payment-event-context.js';

export type RefundRow = typeof refunds.$inferSelect;

export interface RefundDeps {
  db: Database;
  payments: PaymentProvider;
  invoices: InvoiceService;
  mailer: Mailer;
  site: SiteInfo;
  publicUrl: string;
  appSecret: string;
  now: () => Date;
  log: FastifyBaseLogger;
}

export function createRefundService(deps: RefundDeps) {
  const { db } = deps;

  async function sendRefundMail(order: OrderRow, refund: RefundRow, dedupeKey: string): Promise<SendResult | null> {
    if (!order.email) return null;
    const language = order.language as Language;
    const [cancellation] = await db.select().from(invoices).where(eq(invoices.refundId, refund.id));
    const mail = renderRefundMail({
      language,
      orderNumber: order.orderNumber,
      amountCents: refund.amountCents,
      cancellation: cancellation ? { number: cancellation.number, url: invoiceUrl(deps.publicUrl, deps.appSecret, order.id, cancellation.id, deps.now()) } : null,
      siteName: deps.site.name,
    });
    return deps.mailer.sendEmail({ ...mail, to: order.email, template: 'refund-confirmed', language, orderId: order.id, dedupeKey });
  }

  /** A refund of seats that did not happen gives its seats back to the team. */
  async function releaseSeats(executor: Executor, refund: RefundRow): Promise<void> {
    if (!refund.seats) return;
    await executor.update(orders).set({ seats: sql`${orders.seats} + ${refund.seats}`, updatedAt: deps.now() }).where(eq(orders.id, refund.orderId));
  }

  /**
   * Sends a stored request to the provider. A refusal marks it failed (nothing was paid back, the amount is
   * free again). Any other error (timeout, outage) leaves it requested: the provider may have acted, so the
   * amount stays reserved and staff send the same request again, which the provider answers with the refund
   * made the first time, never a second one.
   */
  async function send(refund: RefundRow, paymentIntentId: string): Promise<RefundRow> {
    try {
      const answer = await deps.payments.createRefund({ orderId: refund.orderId, refundId: refund.id, paymentIntentId, amountCents: refund.amountCents });
      const [updated] = await db.update(refunds).set({ providerRefundId: answer.id }).where(eq(refunds.id, refund.id)).returning();
      return updated!;
    } catch (error) {
      if (error instanceof ProviderRefusedError) {
        deps.log.warn({ orderId: refund.orderId, refundId: refund.id, err: error }, 'refund refused by the payment provider');
        await db.transaction(async (tx) => {
          const [marked] = await tx
            .update(refunds)
            .set({ status: 'failed', failureReason: error.message.slice(0, 500) })
            .where(and(eq(refunds.id, refund.id), eq(refunds.status, 'requested')))
            .returning();
          if (marked) await releaseSeats(tx, marked);
        });
        throw new AppError(502, 'refundFailed');
      }
      deps.log.error({ orderId: refund.orderId, refundId: refund.id, err: error }, 'refund request: no answer from the payment provider; it stays requested');
      throw new AppError(502, 'refundUncertain');
    }
  }

  return {
    async forOrder(orderId: string): Promise<RefundRow[]> {
      return db.select().from(refunds).where(eq(refunds.orderId, orderId)).orderBy(desc(refunds.requestedAt));
    },

    /**
     * Staff: asks the provider to pay back `amountCents`, or a team order's unused `seats` (their share of the
     * price, the seats taken from the team at once so nobody joins on them); nothing else about the order
     * changes until the provider's event.
     */
    async request(orderId: string, input: { amountCents: number; seats?: undefined; reason: string | null } | { seats: number; amountCents?: undefined; reason: string | null }, staffId: string): Promise<RefundRow> {
      const refund = await db.transaction(async (tx) => {
        const repo = createOrderRepository(tx);
        const order = await repo.lock(orderId);
        if (!order) throw notFound('notFound');
        if (order.paymentStatus !== 'paid' || !order.providerPaymentId || order.totalCents === null) throw conflict('notRefundable');
        const [open] = await tx
          .select({ cents: sql<number>`coalesce(sum(${refunds.amountCents}), 0)::int` })
          .from(refunds)
          .where(and(eq(refunds.orderId, orderId), eq(refunds.status, 'requested')));
        const refundable = order.totalCents - order.refundedCents - (open?.cents ?? 0);
        let amountCents = input.amountCents ?? 0;
        if (input.seats !== undefined) {
          if (order.seats === null || order.teamOrderId !== null) throw unprocessable('notATeamOrder');
          const [used] = await tx.select({ n: count() }).from(orders).where(and(eq(orders.teamOrderId, orderId), ne(orders.status, 'cancelled')));
          // A team keeps at least one seat: a team given back entirely is refunded as a whole (its link then ends).
          const free = order.seats - Math.max(Number(used?.n ?? 0), 1);
          if (input.seats > free) throw unprocessable('seatsInUse', { freeSeats: Math.max(0, free) });
          const [given] = await tx
            .select({ seats: sql<number>`coalesce(sum(${refunds.seats}), 0)::int` })
            .from(refunds)
            .where(and(eq(refunds.orderId, orderId), ne(refunds.status, 'failed')));
          // The seats bought at the order: those the team has now and those given back by refunds that stand.
          amountCents = seatRefundCents({ totalCents: order.totalCents, seatsBought: order.seats + Number(given?.seats ?? 0), seats: input.seats });
          await repo.update(orderId, { seats: order.seats - input.seats });
        }
        if (amountCents > refundable) throw unprocessable('refundTooLarge', { refundableCents: refundable });
        const [row] = await tx
          .insert(refunds)
          .values({ id: randomUUID(), orderId, amountCents, seats: input.seats ?? null, reason: input.reason, status: 'requested', requestedBy: staffId, requestedAt: deps.now() })
          .returning();
        await repo.addHistory(orderId, { event: 'refund_requested', actorType: 'staff', actorId: staffId, note: input.seats ? `${amountCents} (${input.seats} seats)` : `${amountCents}` });
        await tx.insert(auditLog).values({ actorType: 'staff', staffUserId: staffId, action: 'refund.request', orderId, details: { refundId: row!.id, amountCents, seats: input.seats ?? null, reason: input.reason }, createdAt: deps.now() });
        return { row: row!, paymentIntentId: order.providerPaymentId };
      });
      return send(refund.row, refund.paymentIntentId);
    },

    /** Staff: sends a request again that never reached the provider's answer (timeout, outage, crash). */
    async retry(orderId: string, refundId: string, staffId: string): Promise<RefundRow> {
      const [refund] = await db.select().from(refunds).where(and(eq(refunds.id, refundId), eq(refunds.orderId, orderId)));
      if (!refund) throw notFound('notFound');
      if (refund.status !== 'requested' || refund.providerRefundId) throw conflict('refundAlreadySent');
      const order = await createOrderRepository(db).find(orderId);
      if (!order?.providerPaymentId) throw conflict('notRefundable');
      await db.insert(auditLog).values({ actorType: 'staff', staffUserId: staffId, action: 'refund.retry', orderId, details: { refundId }, createdAt: deps.now() });
      return send(refund, order.providerPaymentId);
    },

    /** Renders the refund mail again from the database (immediately after the commit, or from its job). */
    mailSenders: {
      async refundConfirmed(mail: DeferredMail) {
        const [refund] = await db.select().from(refunds).where(eq(refunds.id, mail.data.refundId!));
        const order = refund ? await createOrderRepository(db).find(refund.orderId) : null;
        if (!refund || !order) return null;
        return sendRefundMail(order, refund, mail.key);
      },
    } satisfies Record<string, DeferredMailSender>,

    /**
     * A verified refund event (refund.created / refund.updated / refund.failed), applied inside the payment
     * event's transaction (orders/payment-events.ts); the same event twice changes nothing.
     */
    async applyEvent(tx: Executor, event: PaymentEvent): Promise<EventEffect> {
      const info = event.refund;
      if (!info) return { outcome: 'ignored' };
      const [known] = await tx
        .select()
        .from(refunds)
        .where(info.refundId && /^[0-9a-f-]{36}$/i.test(info.refundId) ? eq(refunds.id, info.refundId) : eq(refunds.providerRefundId, info.id));
      if (!known) return { outcome: 'unknownRefund' };
      if (info.status === 'pending' || info.status === 'requires_action') return { outcome: 'refundPending' };
      const repo = createOrderRepository(tx);
      const order = await repo.lock(known.orderId);
      const [refund] = await tx.select().from(refunds).where(eq(refunds.id, known.id)).for('update');
      if (!order || !refund) return { outcome: 'unknownRefund' };
      const failed = info.status === 'failed' || info.status === 'canceled';
      if (refund.status === 'succeeded' && failed) {
        // A refund can fail after it succeeded (the card was closed): the money did not go back after all.
        const refundedCents = Math.max(0, order.refundedCents - refund.amountCents);
        await tx.update(refunds).set({ status: 'failed', failureReason: info.failureReason ?? info.status }).where(eq(refunds.id, refund.id));
        await repo.update(order.id, { refundedCents, ...(order.paymentStatus === 'refunded' ? { paymentStatus: 'paid' } : {}) });
        await releaseSeats(tx, refund);
        await repo.addHistory(order.id, { event: 'refund_failed', actorType: 'system', actorId: `${deps.payments.name}:${event.id}`, note: info.failureReason ?? info.status });
        const reversal = await deps.invoices.issueReversal(tx, order, refund.id);
        await tx.insert(auditLog).values({ actorType: 'system', action: 'refund.reversed', orderId: order.id, details: { refundId: refund.id, amountCents: refund.amountCents, reason: info.failureReason ?? info.status, invoice: reversal?.number ?? null }, createdAt: deps.now() });
        return {
          outcome: 'refundReversed',
          afterCommit: async () => {
            deps.log.error({ refundId: known.id, orderId: known.orderId }, 'a confirmed refund failed afterwards: the money is not back; the cancellation invoice is corrected, tell the customer');
            await deps.invoices.storeMissing(known.orderId).catch((error: unknown) => deps.log.error({ err: error }, 'correcting invoice PDF not stored yet'));
          },
        };
      }
      if (refund.status === 'succeeded') return { outcome: 'alreadyRefunded' };
      // Failed is final at the provider (a late, retried "succeeded" event must not count the money again).
      if (refund.status === 'failed') return { outcome: 'alreadyFailed' };
      if (failed) {
        await tx.update(refunds).set({ status: 'failed', failureReason: info.failureReason ?? info.status, providerRefundId: info.id }).where(eq(refunds.id, refund.id));
        await releaseSeats(tx, refund);
        await repo.addHistory(order.id, { event: 'refund_failed', actorType: 'system', actorId: `${deps.payments.name}:${event.id}`, note: info.failureReason ?? info.status });
        return { outcome: 'refundFailed' };
      }
      if (info.amount !== refund.amountCents) {
        return { outcome: 'amountMismatch', afterCommit: async () => deps.log.error({ refundId: known.id, eventAmount: info.amount }, 'refund event amount does not match the request') };
      }
      const at = deps.now();
      await tx.update(refunds).set({ status: 'succeeded', confirmedAt: at, providerRefundId: info.id }).where(eq(refunds.id, refund.id));
      const refundedCents = order.refundedCents + refund.amountCents;
      if (order.totalCents !== null && refundedCents > order.totalCents) {
        // The provider paid back more than the order cost in total: record the truth and raise the alarm.
        deps.log.error({ orderId: order.id, refundId: refund.id, refundedCents, totalCents: order.totalCents }, 'refunds exceed the amount paid');
        await tx.insert(auditLog).values({ actorType: 'system', action: 'refund.exceedsTotal', orderId: order.id, details: { refundId: refund.id, refundedCents, totalCents: order.totalCents }, createdAt: deps.now() });
      }
      const full = order.totalCents !== null && refundedCents >= order.totalCents && canChangePayment(order.paymentStatus as PaymentStatus, 'refunded');
      const updated = await repo.update(order.id, { refundedCents, ...(full ? { paymentStatus: 'refunded' } : {}) });
      await repo.addHistory(order.id, { event: 'refund_confirmed', actorType: 'system', actorId: `${deps.payments.name}:${event.id}`, note: `${refund.amountCents}` });
      await deps.invoices.issueCancellation(tx, updated, refund);
      const mail: DeferredMail = { kind: 'refundConfirmed', key: `refund-confirmed:${refund.id}`, orderId: order.id, data: { refundId: refund.id } };
      await deferMail(tx, mail, at);
      return {
        outcome: 'refunded',
        mails: [mail],
        // The cancellation invoice's PDF before its mail goes out (made on first download if this fails).
        afterCommit: () => deps.invoices.storeMissing(order.id).catch((error: unknown) => deps.log.error({ err: error }, 'cancellation invoice PDF not stored yet')),
      };
    },
  };
}

export type RefundService = ReturnType<typeof createRefundService>;
