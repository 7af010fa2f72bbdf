// A member's submission: their gender and their photos (uploaded to their own order as in the wizard) are
// complete; the team has paid, so their order counts as paid, production starts and they get their own link.
import type { Gender, Language } from '../../../domain/catalog.js';
import { UPLOAD_LIMITS } from '../../../domain/catalog.js';
import { conflict, notFound, unprocessable } from '../../http/errors.js';
import { renderMemberSubmittedMail } from '../../mail/team-mails.js';
import { createOrderRepository } from '../orders/order-repository.js';
import { statusUrl } from '../orders/order-tokens.js';
import type { TeamContext } from './team-context.js';

export function createMemberSubmission(ctx: TeamContext) {
  const { deps, requireTeam, audit } = ctx;
  const { db, now } = deps;

  return {
    /** The member is done: their gender and at least the minimum of photos; the team has paid, so production starts. */
    async submitMember(memberId: string, gender: Gender): Promise<{ orderId: string; status: string; statusUrl: string }> {
      const at = now();
      const submitted = await db.transaction(async (tx) => {
        const repo = createOrderRepository(tx);
        const member = await repo.lock(memberId);
        if (!member || !member.teamOrderId) throw notFound('notFound');
        if (member.status === 'cancelled') throw conflict('memberRemoved');
        if (member.paymentStatus === 'paid') return { member, team: null };
        const team = await requireTeam(member.teamOrderId, tx);
        if (team.paymentStatus !== 'paid') throw conflict('teamNotPaid');
        if ((await repo.checkingCount(memberId)) > 0) throw conflict('photosChecking');
        if ((await repo.uploadCount(memberId)) < UPLOAD_LIMITS.minPhotos) throw unprocessable('notEnoughPhotos', { min: UPLOAD_LIMITS.minPhotos });
        const updated = await repo.update(memberId, { gender, paymentStatus: 'paid', status: 'paid', paidAt: at, orderedAt: at, totalCents: 0, netCents: 0, vatCents: 0 });
        await repo.addHistory(memberId, { event: 'payment_received', fromStatus: 'created', toStatus: 'paid', actorType: 'customer', note: `paid by team ${team.orderNumber}` });
        await deps.startProduction(tx, updated);
        await audit(tx, team.id, 'team.member.submit', { memberId });
        return { member: updated, team };
      });
      const { member, team } = submitted;
      // The member's own link to their order: their pictures, their photos and deleting them (the buyer has none).
      const link = statusUrl(deps.publicUrl, deps.appSecret, member.id, at, member.language);
      if (team && member.email) {
        const rendered = renderMemberSubmittedMail({ language: member.language as Language, company: team.billingName ?? '', orderNumber: member.orderNumber, statusUrl: link, siteName: deps.site.name });
        const result = await deps.mailer.sendEmail({ ...rendered, to: member.email, template: 'team-member-submitted', language: member.language as Language, orderId: member.id, dedupeKey: `team-member-submitted:${member.id}` });
        if (!result.ok) deps.log.error({ orderId: member.id, error: result.error }, 'member mail failed');
      }
      return { orderId: member.id, status: member.status, statusUrl: link.replace(deps.publicUrl, '') };
    },
  };
}
