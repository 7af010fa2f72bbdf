// The team order's payment hooks (the order lifecycle calls them): whether an order is a team order, its first
// join link once it is paid, and the payment confirmation mail with that link.
import type { Language } from '../../../domain/catalog.js';
import type { Executor } from '../../db/client.js';
import type { SendResult } from '../../mail/mailer.js';
import type { OrderRow } from '../orders/order-repository.js';
import type { TeamContext } from './team-context.js';

export function createTeamPaymentHooks(ctx: TeamContext) {
  const { requireTeam, currentLink, newLink, sendTeamMail } = ctx;

  return {
    /** Paid (in the payment's transaction): the team's first join link. */
    async onPaid(tx: Executor, team: OrderRow): Promise<void> {
      if (!(await currentLink(team.id, tx))) await newLink(tx, team.id);
    },

    /** The payment confirmation of a team order, with its join link (payment-events' mail sender). */
    async sendPaidMail(teamId: string, dedupeKey: string): Promise<SendResult | null> {
      const team = await requireTeam(teamId);
      if (!team.email) return null;
      return sendTeamMail(team.email, team.language as Language, 'paid', team, dedupeKey);
    },

    isTeamOrder(order: OrderRow): boolean {
      return order.seats !== null && order.customerKind === 'business';
    },
  };
}
