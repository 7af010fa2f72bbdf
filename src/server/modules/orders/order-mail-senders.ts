// The senders of the mails an order's payment events owe (and of the order confirmation checkout owes): each
// renders its mail from the database as it is when it is sent, now or from its job later (mail/deferred-mail.ts).
import { and, eq } from 'drizzle-orm';
import { formatMoney } from '../../../domain/money.js';
import { revisionRequests } from '../../db/schema.js';
import type { DeferredMailSender } from '../../mail/deferred-mail.js';
import { renderPaidAfterCancelNote } from '../../mail/staff-mails.js';
import { PRODUCTION_DELAYED_MAIL, promisedBy, REDO_DELAYED_MAIL } from './delay-notices.js';
import { renderOrderReceivedMail, renderPaymentConfirmedMail, renderPaymentFailedMail, renderProductionDelayedMail } from './order-mails.js';
import { orderMailData, storedPrice } from './order-mail-data.js';
import { createOrderRepository, type OrderRow } from './order-repository.js';
import type { PaymentEventDeps } from './payment-event-context.js';

export function createOrderMailSenders(deps: PaymentEventDeps): Record<string, DeferredMailSender> {
  const { mailer, log } = deps;
  const orders = createOrderRepository(deps.db);

  async function sendOrderMail(order: OrderRow, rendered: { subject: string; html: string; text: string; template: string }, dedupeKey: string) {
    if (!order.email) return null;
    return mailer.sendEmail({ ...rendered, to: order.email, language: order.language as 'de' | 'en' | 'es', orderId: order.id, dedupeKey });
  }

  /** Renders each owed mail from the database as it is when it is sent (now, or from its job later). */
  return {
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
}
