// What happens to an order when its money moves, in one place. Paid: its invoice, then a team order's seats open
// or the order's pictures start the way its production mode makes them (the studio's drafts, the generator's
// predictions; staff by hand: nothing starts). Refunded: the refund service applies the provider's refund events
// and owes their mails. The payment event service (orders/payment-events.ts) calls these inside the transactions
// that record the payment, so the work exists exactly when the payment does; the composition root
// (app-services.ts) only wires them.
import type { Executor } from '../../db/client.js';
import { invoiceUrl, type InvoiceService } from '../invoices/invoice-service.js';
import type { OrderLifecycle } from '../orders/payment-event-context.js';
import type { OrderRow } from '../orders/order-repository.js';
import type { RefundService } from '../refunds/refund-service.js';
import type { GeneratorService } from '../production/generator-service.js';
import type { StudioService } from '../production/studio-service.js';
import type { TeamService } from '../teams/team-service.js';

/** Starts a paid order's pictures as its production mode makes them (a team member's order: when they submit). */
export type StartProduction = (tx: Executor, order: OrderRow) => Promise<void>;

export function productionStarter(deps: { studio: StudioService; generator: GeneratorService }): StartProduction {
  return async (tx, order) => {
    if (order.productionMode === 'studio') await deps.studio.enqueueFirstDrafts(tx, order.id);
    if (order.productionMode === 'generator' && deps.generator.configured) await deps.generator.enqueueFirst(tx, order.id);
  };
}

export function createOrderLifecycle(deps: {
  invoices: InvoiceService;
  teams: TeamService;
  refunds: RefundService;
  startProduction: StartProduction;
  publicUrl: string;
  appSecret: string;
  now: () => Date;
}): OrderLifecycle {
  const { invoices, teams, refunds } = deps;
  return {
    async paid(tx, order) {
      await invoices.issueForPaidOrder(tx, order);
      // Paid after it was cancelled (withdrawn before paying): the money goes back, the work is not done.
      if (order.status === 'cancelled') return;
      // A team order has no photos of its own: its join link opens; each member's pictures start when they submit.
      if (teams.isTeamOrder(order)) return teams.onPaid(tx, order);
      await deps.startProduction(tx, order);
    },
    async invoiceLink(order) {
      await invoices.storeMissing(order.id);
      const [invoice] = (await invoices.forOrder(order.id)).filter((row) => row.kind === 'invoice');
      return invoice ? invoiceUrl(deps.publicUrl, deps.appSecret, order.id, invoice.id, deps.now()) : null;
    },
    teamPaidMail: (orderId, key) => teams.sendPaidMail(orderId, key),
    refundEvent: (tx, event) => refunds.applyEvent(tx, event),
    refundMailSenders: refunds.mailSenders,
  };
}
