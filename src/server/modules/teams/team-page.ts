// The buyer's team page: its view (progress per member, never their photos; the ZIP links and the invoices) and
// what the buyer does there, each answered with the view again: invitations, reminders (mails), a new join link,
// removing a member.
import { randomUUID } from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import type { Language } from '../../../domain/catalog.js';
import type { MemberProgress, TeamView } from '../../../domain/team.js';
import { TEAM_LIMITS } from '../../../domain/team.js';
import { generatedImages, orders, teamInvites } from '../../db/schema.js';
import { conflict, notFound, unprocessable } from '../../http/errors.js';
import { invoiceUrl } from '../invoices/invoice-service.js';
import { ZIP_FORMATS, downloadPath, type ZipFormat } from '../customer-orders/download-links.js';
import { createOrderRepository, type OrderRow } from '../orders/order-repository.js';
import { teamJoinUrl } from '../orders/order-tokens.js';
import type { TeamContext } from './team-context.js';

function progressOf(member: OrderRow, delivered: number): MemberProgress {
  if (member.status === 'cancelled') return 'removed';
  if (member.status === 'completed' || delivered > 0) return 'delivered';
  if (member.status === 'in_progress') return 'in_production';
  if (member.paymentStatus === 'paid') return 'submitted';
  return 'joined';
}

export function createTeamPage(ctx: TeamContext) {
  const { deps, requireTeam, members, currentLink, newLink, audit, sendTeamMail } = ctx;
  const { db, now } = deps;

  return {
    async view(teamId: string): Promise<TeamView> {
      const team = await requireTeam(teamId);
      const [rows, invites, link, delivered, invoiceRows] = await Promise.all([
        members(teamId),
        db.select().from(teamInvites).where(eq(teamInvites.teamOrderId, teamId)).orderBy(asc(teamInvites.createdAt)),
        currentLink(teamId),
        db
          .select({ orderId: generatedImages.orderId, variant: generatedImages.variant })
          .from(generatedImages)
          .innerJoin(orders, eq(orders.id, generatedImages.orderId))
          .where(and(eq(orders.teamOrderId, teamId), eq(generatedImages.status, 'active'))),
        deps.invoices.forOrder(teamId),
      ]);
      const deliveredOf = (orderId: string) => delivered.filter((d) => d.orderId === orderId).length;
      const joined = new Set(rows.map((m) => (m.email ?? '').toLowerCase()));
      const inviteOf = (email: string | null) => invites.find((i) => i.email.toLowerCase() === (email ?? '').toLowerCase()) ?? null;
      const at = now();
      const ttl = deps.signedUrlTtlSeconds;
      const formatCount = (format: ZipFormat) => delivered.filter((d) => d.variant?.format === format).length;
      const zips = [...ZIP_FORMATS.map((format) => ({ format, count: formatCount(format) })), { format: 'profile' as const, count: formatCount('square') }]
        .filter((z) => z.count > 0)
        .map((z) => ({ ...z, url: downloadPath(deps.appSecret, teamId, { kind: 'teamZip', variant: z.format }, at, ttl) }));
      return {
        orderId: team.id,
        orderNumber: team.orderNumber,
        paymentStatus: team.paymentStatus,
        language: team.language,
        company: { name: team.billingName ?? '', address: team.billingAddress ?? '', vatId: team.companyVatId },
        vatTreatment: team.vatTreatment as 'standard' | 'reverse_charge',
        package: team.package ?? '',
        look: { style: team.styleBase ?? '', location: team.refineLocation, outfit: team.refineOutfit },
        seats: team.seats ?? 0,
        seatsUsed: rows.filter((m) => m.status !== 'cancelled').length,
        joinUrl: link && team.paymentStatus === 'paid' ? teamJoinUrl(deps.publicUrl, deps.appSecret, link.id, team.language) : null,
        members: [
          ...rows.map((m) => ({
            id: m.id,
            email: m.email ?? '',
            progress: progressOf(m, deliveredOf(m.id)),
            joinedAt: m.createdAt.toISOString(),
            deliveredPictures: deliveredOf(m.id),
            inviteId: inviteOf(m.email)?.id ?? null,
            remindedAt: inviteOf(m.email)?.remindedAt?.toISOString() ?? null,
          })),
          ...invites
            .filter((i) => !joined.has(i.email.toLowerCase()))
            .map((i) => ({ id: i.id, email: i.email, progress: 'invited' as const, joinedAt: null, deliveredPictures: 0, inviteId: i.id, remindedAt: i.remindedAt?.toISOString() ?? null })),
        ],
        zips,
        invoices: invoiceRows.map((invoice) => ({
          id: invoice.id,
          number: invoice.number,
          kind: invoice.kind as 'invoice' | 'cancellation',
          grossCents: invoice.grossCents,
          url: invoiceUrl('', deps.appSecret, teamId, invoice.id, at),
        })),
        totalCents: team.totalCents,
        netCents: team.netCents,
        vatCents: team.vatCents,
      };
    },

    /** The buyer invites people by e-mail: each gets the team's link once (a repeated address is not mailed again). */
    async invite(teamId: string, emails: string[]): Promise<TeamView> {
      const team = await requireTeam(teamId);
      if (team.paymentStatus !== 'paid') throw conflict('teamNotPaid');
      const unique = [...new Set(emails.map((e) => e.toLowerCase()))];
      const existing = await db.select().from(teamInvites).where(eq(teamInvites.teamOrderId, teamId));
      const fresh = unique.filter((email) => !existing.some((i) => i.email.toLowerCase() === email));
      if (existing.length + fresh.length > TEAM_LIMITS.maxInvites + (team.seats ?? 0)) throw unprocessable('tooManyInvites');
      for (const email of fresh) {
        const id = randomUUID();
        await db.insert(teamInvites).values({ id, teamOrderId: teamId, email, createdAt: now() }).onConflictDoNothing();
        await sendTeamMail(email, team.language as Language, 'invite', team, `team-invite:${teamId}:${email}`);
      }
      if (fresh.length) await audit(db, teamId, 'team.invite', { invited: fresh.length });
      return this.view(teamId);
    },

    /** A reminder to an invited or joined member who has not sent their photos yet, at most once a day. */
    async remind(teamId: string, inviteId: string): Promise<TeamView> {
      const team = await requireTeam(teamId);
      const [invite] = await db.select().from(teamInvites).where(and(eq(teamInvites.id, inviteId), eq(teamInvites.teamOrderId, teamId)));
      if (!invite) throw notFound('notFound');
      const member = (await members(teamId)).find((m) => (m.email ?? '').toLowerCase() === invite.email.toLowerCase() && m.status !== 'cancelled');
      if (member && member.paymentStatus === 'paid') throw conflict('memberAlreadySubmitted');
      const at = now();
      if (invite.remindedAt && at.getTime() - invite.remindedAt.getTime() < TEAM_LIMITS.remindAfterHours * 3600 * 1000) throw conflict('remindedRecently');
      await db.update(teamInvites).set({ remindedAt: at }).where(eq(teamInvites.id, inviteId));
      await audit(db, teamId, 'team.remind', { inviteId });
      await sendTeamMail(invite.email, team.language as Language, 'remind', team, `team-remind:${inviteId}:${at.toISOString()}`);
      return this.view(teamId);
    },

    /** A new join link: the old one stops working at once (members who joined keep their seats). */
    async renewLink(teamId: string): Promise<TeamView> {
      const team = await requireTeam(teamId);
      if (team.paymentStatus !== 'paid') throw conflict('teamNotPaid');
      await db.transaction(async (tx) => {
        await createOrderRepository(tx).lock(teamId);
        await newLink(tx, teamId);
        await audit(tx, teamId, 'team.link.renew', {});
      });
      return this.view(teamId);
    },

    /** A seat back: a member who has not sent their photos yet is removed (their draft and photos go with it). */
    async removeMember(teamId: string, memberId: string): Promise<TeamView> {
      await requireTeam(teamId);
      await db.transaction(async (tx) => {
        const repo = createOrderRepository(tx);
        await repo.lock(teamId);
        const member = await repo.lock(memberId);
        if (!member || member.teamOrderId !== teamId) throw notFound('notFound');
        if (member.paymentStatus === 'paid') throw conflict('memberAlreadySubmitted');
        if (member.status === 'cancelled') return;
        await repo.update(memberId, { status: 'cancelled', cancelledAt: now(), photosDeleteAfter: now() });
        await repo.addHistory(memberId, { event: 'status_changed', fromStatus: member.status, toStatus: 'cancelled', actorType: 'customer', note: 'removed from the team by the buyer' });
        await audit(tx, teamId, 'team.member.remove', { memberId });
      });
      return this.view(teamId);
    },
  };
}
