// The join link and members joining: what the join page shows, and a member taking a seat (counted on the
// server, under the team order's row lock) with an order of their own that carries the team's look.
import { randomBytes, randomUUID } from 'node:crypto';
import { and, count, eq, ne } from 'drizzle-orm';
import type { Language } from '../../../domain/catalog.js';
import { orderNumberFromBytes } from '../../../domain/order-number.js';
import { TEAM_PHOTO_CONSENT_VERSION } from '../../../domain/team.js';
import type { Executor } from '../../db/client.js';
import { orders, teamLinks } from '../../db/schema.js';
import { AppError, conflict, notFound } from '../../http/errors.js';
import { createOrderRepository, type OrderRow } from '../orders/order-repository.js';
import { draftToken, teamLinkIdOf } from '../orders/order-tokens.js';
import type { TeamContext } from './team-context.js';

/** What the join page shows (joinInfo). */
export interface TeamJoinInfo {
  company: string;
  package: OrderRow['package'];
  look: { style: OrderRow['styleBase']; location: OrderRow['refineLocation']; outfit: OrderRow['refineOutfit'] };
  seatsLeft: number;
  language: OrderRow['language'];
}

export function createTeamJoin(ctx: TeamContext) {
  const { deps, requireTeam, members, audit } = ctx;
  const { db, now } = deps;

  /** Seats taken: every member who joined and was not removed. */
  async function seatsUsed(teamId: string, executor: Executor = db): Promise<number> {
    const [row] = await executor.select({ n: count() }).from(orders).where(and(eq(orders.teamOrderId, teamId), ne(orders.status, 'cancelled')));
    return Number(row?.n ?? 0);
  }

  /** The team a join token leads to, if the token is ours, its link not revoked, and the team paid. */
  async function teamOfToken(token: string, executor: Executor = db): Promise<OrderRow> {
    const linkId = teamLinkIdOf(deps.appSecret, token);
    if (!linkId) throw notFound('teamLinkInvalid');
    const [link] = await executor.select().from(teamLinks).where(eq(teamLinks.id, linkId));
    if (!link || link.revokedAt) throw new AppError(410, 'teamLinkRevoked');
    const team = await requireTeam(link.teamOrderId, executor);
    if (team.paymentStatus !== 'paid') throw new AppError(410, 'teamLinkRevoked');
    return team;
  }

  return {
    /** What the join page shows: the company, the package and the team's look, and whether a seat is free. */
    async joinInfo(token: string): Promise<TeamJoinInfo> {
      const team = await teamOfToken(token);
      const used = await seatsUsed(team.id);
      return {
        company: team.billingName ?? '',
        package: team.package,
        look: { style: team.styleBase, location: team.refineLocation, outfit: team.refineOutfit },
        seatsLeft: Math.max(0, (team.seats ?? 0) - used),
        language: team.language,
      };
    },

    /**
     * A member takes a seat: counted under the team order's row lock, so parallel acceptances never take more
     * seats than were bought. The member's order carries the team's look; the member chooses only their gender.
     */
    async join(token: string, input: { email: string; language: Language }): Promise<{ orderId: string; orderNumber: string; draftToken: string }> {
      const at = now();
      const member = await db.transaction(async (tx) => {
        const team = await teamOfToken(token, tx);
        await createOrderRepository(tx).lock(team.id);
        const taken = await members(team.id, tx);
        const mine = taken.find((m) => m.status !== 'cancelled' && (m.email ?? '').toLowerCase() === input.email.toLowerCase());
        // The same person again (another device, a lost tab): their own draft, not a second seat.
        if (mine) {
          if (mine.paymentStatus === 'paid') throw conflict('memberAlreadySubmitted');
          if (!mine.photosDeletedAt) return mine;
          // Their unsent photos were deleted: the seat is theirs again, afresh.
          await createOrderRepository(tx).update(mine.id, { status: 'cancelled', cancelledAt: at });
        }
        if (taken.filter((m) => m.status !== 'cancelled' && m.id !== mine?.id).length >= (team.seats ?? 0)) throw conflict('teamFull');
        const id = randomUUID();
        const row = await createOrderRepository(tx).insert({
          id,
          orderNumber: orderNumberFromBytes(randomBytes(8)),
          language: input.language,
          email: input.email,
          teamOrderId: team.id,
          customerKind: 'business',
          styleBase: team.styleBase,
          package: team.package,
          refineLocation: team.refineLocation,
          refineOutfit: team.refineOutfit,
          featureHd: true,
          featureCommercialLicense: team.featureCommercialLicense,
          // The member's own consent to process their face photos, given on the join page.
          photoConsentAt: at,
          photoConsentVersion: TEAM_PHOTO_CONSENT_VERSION,
          productionMode: team.productionMode,
          createdAt: at,
          updatedAt: at,
        });
        await createOrderRepository(tx).addHistory(id, { event: 'order_created', toStatus: 'created', actorType: 'customer', note: `team ${team.orderNumber}` });
        await audit(tx, team.id, 'team.member.join', { memberId: id });
        return row;
      });
      return { orderId: member.id, orderNumber: member.orderNumber, draftToken: draftToken(deps.appSecret, member.id) };
    },
  };
}
