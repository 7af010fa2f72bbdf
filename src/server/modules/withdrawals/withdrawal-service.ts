// The "Vertrag widerrufen" function (§ 356a BGB): a declaration without login, stored whether or not it
// matches an order, confirmed at once on screen and by mail with date and time, shown to staff. Where the
// right has expired (the service fully performed after the customer's express request and acknowledgment,
// § 356 Abs. 4 BGB) the receipt says so politely instead of pretending a right exists.
import { randomUUID } from 'node:crypto';
import { and, desc, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Language } from '../../../domain/catalog.js';
import { canTransition, type OrderStatus } from '../../../domain/order-state.js';
import { withdrawalDeadline, withdrawalOutcome, type WithdrawalOutcome } from '../../../domain/withdrawal.js';
import { ORDER_ID_SHAPE, type WithdrawalForm } from '../../../domain/validation.js';
import { normalizeOrderNumber } from '../../../domain/order-number.js';
import type { SiteInfo } from '../../../domain/site.js';
import type { Database } from '../../db/client.js';
import { auditLog, orders, withdrawals } from '../../db/schema.js';
import { notFound } from '../../http/errors.js';
import type { Mailer } from '../../mail/mailer.js';
import type { PaymentProvider } from '../../payment-providers/provider.js';
import { renderWithdrawalNote } from '../../mail/staff-mails.js';
import { receivedAtText, renderWithdrawalReceiptMail } from '../../mail/service-mails.js';
import { createOrderRepository, type OrderRow } from '../orders/order-repository.js';

export type WithdrawalRow = typeof withdrawals.$inferSelect;

export interface WithdrawalDeps {
  db: Database;
  /** To close an unpaid order's payment page, so it can no longer be paid. */
  payments: Pick<PaymentProvider, 'expireSession'>;
  mailer: Mailer;
  site: SiteInfo;
  supportEmail: string;
  now: () => Date;
  log: FastifyBaseLogger;
}

export function createWithdrawalService(deps: WithdrawalDeps) {
  const { db } = deps;

  async function findOrder(reference: string, email: string): Promise<OrderRow | null> {
    const trimmed = reference.trim();
    const byId = ORDER_ID_SHAPE.test(trimmed);
    const [order] = await db
      .select()
      .from(orders)
      .where(and(byId ? eq(orders.id, trimmed.toLowerCase()) : eq(orders.orderNumber, normalizeOrderNumber(trimmed)), eq(orders.email, email)));
    return order && order.orderedAt ? order : null;
  }

  return {
    /**
     * Stores a declaration and confirms it. `limited`: the reference or the address has had many
     * declarations lately. The declaration still counts and is stored, but the answer on screen says
     * nothing about the order, and only an order's own address gets mail, so it cannot be used to guess
     * or to flood a mailbox.
     */
    async declare(
      form: WithdrawalForm,
      language: Language,
      options: { limited?: boolean } = {},
    ): Promise<{ id: string; receivedAt: string; outcome: WithdrawalOutcome | 'received'; orderNumber: string | null; deadline: string | null }> {
      const order = await findOrder(form.reference, form.email);
      const at = deps.now();
      const outcome = withdrawalOutcome(order, at);
      const id = randomUUID();
      await db.transaction(async (tx) => {
        await tx.insert(withdrawals).values({ id, orderId: order?.id ?? null, name: form.name, orderReference: form.reference, email: form.email, language, outcome, createdAt: at });
        if (order) {
          const repo = createOrderRepository(tx);
          await repo.addHistory(order.id, { event: 'withdrawal_received', actorType: 'customer', note: outcome });
          // Withdrawn before paying: the order is not carried out.
          const locked = outcome === 'unpaid' ? await repo.lock(order.id) : null;
          if (locked && canTransition(locked.status as OrderStatus, 'cancelled', 'system')) {
            await repo.update(order.id, { status: 'cancelled' });
            await repo.addHistory(order.id, { event: 'status_changed', fromStatus: locked.status, toStatus: 'cancelled', actorType: 'customer', note: 'withdrawal' });
          }
        }
        await tx.insert(auditLog).values({ actorType: 'customer', action: 'withdrawal.declared', orderId: order?.id ?? null, details: { withdrawalId: id, outcome, limited: Boolean(options.limited) }, createdAt: at });
      });
      // ... and its payment page is closed, so it cannot be paid any more. A payment already under way
      // (a SEPA debit) may still arrive: the shop then holds it for staff to refund (see order-service).
      if (outcome === 'unpaid' && order?.providerSessionId) {
        await deps.payments.expireSession(order.providerSessionId).catch((error: unknown) => deps.log.warn({ orderId: order.id, err: error }, 'could not close the payment page of a withdrawn order'));
      }
      const result = { id, receivedAt: at.toISOString(), outcome, orderNumber: order?.orderNumber ?? null, deadline: order?.orderedAt ? withdrawalDeadline(order.orderedAt) : null };
      if (options.limited && !order) return { ...result, outcome: 'received', orderNumber: null, deadline: null };

      const receivedAt = receivedAtText(at, language);
      const receipt = renderWithdrawalReceiptMail({
        language,
        receivedAt: at,
        name: form.name,
        reference: order?.orderNumber ?? form.reference,
        email: form.email,
        outcome,
        deadline: order?.orderedAt ? withdrawalDeadline(order.orderedAt) : null,
        siteName: deps.site.name,
      });
      const sent = await deps.mailer.sendEmail({ ...receipt, to: form.email, template: 'withdrawal-receipt', language, orderId: order?.id ?? null, dedupeKey: `withdrawal-receipt:${id}` });
      if (!sent.ok) deps.log.error({ withdrawalId: id, error: sent.error }, 'withdrawal receipt mail failed');
      // Staff hear of it at once, too (the dashboard lists it as well).
      const note = await deps.mailer.sendEmail({
        to: deps.supportEmail,
        replyTo: form.email,
        ...renderWithdrawalNote({ receivedAt, name: form.name, orderNumber: order?.orderNumber ?? null, reference: form.reference, email: form.email, outcome }),
        template: 'withdrawal-staff',
        language: 'de',
        orderId: order?.id ?? null,
        dedupeKey: `withdrawal-staff:${id}`,
      });
      if (!note.ok) deps.log.error({ withdrawalId: id, error: note.error }, 'withdrawal staff mail failed');
      return options.limited ? { ...result, outcome: 'received', orderNumber: null, deadline: null } : result;
    },

    async list(status: 'new' | 'all'): Promise<WithdrawalRow[]> {
      const query = db.select().from(withdrawals).orderBy(desc(withdrawals.createdAt)).limit(100);
      return status === 'new' ? query.where(eq(withdrawals.status, 'new')) : query;
    },

    async markHandled(id: string): Promise<void> {
      const rows = await db.update(withdrawals).set({ status: 'handled' }).where(eq(withdrawals.id, id)).returning({ id: withdrawals.id });
      if (!rows.length) throw notFound('notFound');
    },
  };
}

export type WithdrawalService = ReturnType<typeof createWithdrawalService>;
