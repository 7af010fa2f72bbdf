// Team orders (issue 17): the buyer's checkout (seats of one package, one look, the company's billing data and
// VAT ID), the join link with its seats counted on the server, invitations and reminders, the buyer's team view
// (progress per member, never their photos), the member's submission (no payment) and the team ZIP.
// A member's order is an ordinary order row that names its team order: uploads, the photo gate, production,
// staff review, results and the 30-day deletion work for it as for any customer.
import { randomBytes, randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { and, asc, count, eq, isNull, ne } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import sharp from 'sharp';
import yazl from 'yazl';
import type { Capabilities } from '../../../domain/capabilities.js';
import { UPLOAD_LIMITS, type Gender, type Language } from '../../../domain/catalog.js';
import type { Campaign } from '../../../domain/campaign.js';
import { orderNumberFromBytes } from '../../../domain/order-number.js';
import { completeSelection } from '../../../domain/order-selection.js';
import { priceTeamOrder } from '../../../domain/pricing.js';
import type { MemberProgress, TeamCheckoutInput, TeamView } from '../../../domain/team.js';
import { TEAM_LIMITS, TEAM_PHOTO_CONSENT_VERSION } from '../../../domain/team.js';
import { checkVatId, vatTreatmentFor } from '../../../domain/vat-id.js';
import type { SiteInfo } from '../../../domain/site.js';
import { textsIn } from '../../../i18n/all-messages.js';
import type { Database, Executor } from '../../db/client.js';
import { auditLog, generatedImages, orderHistory, orders, teamInvites, teamLinks } from '../../db/schema.js';
import { AppError, conflict, notFound, unprocessable } from '../../http/errors.js';
import type { Mailer } from '../../mail/mailer.js';
import { renderMemberSubmittedMail, renderTeamMail } from '../../mail/team-mails.js';
import type { PaymentProvider } from '../../payments/provider.js';
import type { Storage } from '../../storage/storage.js';
import { invoiceUrl, type InvoiceService } from '../invoices/invoice-service.js';
import { ZIP_FORMATS, downloadPath, type ZipFormat } from '../customer-orders/download-links.js';

/** The team ZIP's kinds: each output format, and the square one as a profile picture. */
export const TEAM_ZIP_KINDS = [...ZIP_FORMATS, 'profile'] as const;
import { createOrderRepository, type OrderRow } from '../orders/order-repository.js';
import { draftToken, statusUrl, teamJoinUrl, teamLinkIdOf, teamUrl } from '../orders/order-tokens.js';

export interface TeamDeps {
  db: Database;
  storage: Storage;
  payments: PaymentProvider;
  mailer: Mailer;
  appSecret: string;
  publicUrl: string;
  site: SiteInfo;
  campaign: Campaign | null;
  capabilities: Capabilities;
  defaultProductionMode: 'studio' | 'generator' | 'manual';
  signedUrlTtlSeconds: number;
  /** The team order's invoice (and cancellation invoices), for the buyer's download links. */
  invoices: Pick<InvoiceService, 'forOrder'>;
  /** A member's order is paid by the team: its pictures start the way a paid order's do (app.ts). */
  startProduction: (tx: Executor, order: OrderRow) => Promise<void>;
  now: () => Date;
  log: FastifyBaseLogger;
}

/** The square picture as a profile picture: what LinkedIn and the usual team pages show well. */
export const PROFILE_PICTURE_PX = 800;

/** A session this close to its expiry is not handed out again. */
const SESSION_REUSE_MARGIN_MS = 5 * 60 * 1000;
/** Longer than the slowest provider call (Stripe: 20 s timeout, 2 retries). */
const CHECKOUT_CLAIM_MS = 90 * 1000;

export type TeamZipKind = (typeof TEAM_ZIP_KINDS)[number];

function progressOf(member: OrderRow, delivered: number): MemberProgress {
  if (member.status === 'cancelled') return 'removed';
  if (member.status === 'completed' || delivered > 0) return 'delivered';
  if (member.status === 'in_progress') return 'in_production';
  if (member.paymentStatus === 'paid') return 'submitted';
  return 'joined';
}

/** A file name part from an e-mail address (the ZIP's folders are per member). */
function memberLabel(email: string | null, fallback: string): string {
  const local = (email ?? '').split('@')[0] ?? '';
  return local.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || fallback;
}

export function createTeamService(deps: TeamDeps) {
  const { db, storage, now } = deps;

  async function requireTeam(teamId: string, executor: Executor = db): Promise<OrderRow> {
    const team = await createOrderRepository(executor).find(teamId);
    if (!team || team.seats === null || team.customerKind !== 'business') throw notFound('notFound');
    return team;
  }

  async function members(teamId: string, executor: Executor = db): Promise<OrderRow[]> {
    return executor.select().from(orders).where(eq(orders.teamOrderId, teamId)).orderBy(asc(orders.createdAt), asc(orders.id));
  }

  /** Seats taken: every member who joined and was not removed. */
  async function seatsUsed(teamId: string, executor: Executor = db): Promise<number> {
    const [row] = await executor.select({ n: count() }).from(orders).where(and(eq(orders.teamOrderId, teamId), ne(orders.status, 'cancelled')));
    return Number(row?.n ?? 0);
  }

  async function currentLink(teamId: string, executor: Executor = db) {
    const [link] = await executor.select().from(teamLinks).where(and(eq(teamLinks.teamOrderId, teamId), isNull(teamLinks.revokedAt)));
    return link ?? null;
  }

  async function newLink(tx: Executor, teamId: string): Promise<string> {
    const id = randomUUID();
    await tx.update(teamLinks).set({ revokedAt: now() }).where(and(eq(teamLinks.teamOrderId, teamId), isNull(teamLinks.revokedAt)));
    await tx.insert(teamLinks).values({ id, teamOrderId: teamId, createdAt: now() });
    return id;
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

  /** One audit log for the team: what the buyer and the members did, on the team order (staff see it there). */
  async function audit(executor: Executor, teamId: string, action: string, details: Record<string, unknown>) {
    await executor.insert(auditLog).values({ actorType: 'customer', action, orderId: teamId, details, createdAt: now() });
  }

  async function sendTeamMail(to: string, language: Language, kind: 'invite' | 'remind' | 'ordered' | 'paid', team: OrderRow, dedupeKey: string) {
    const link = await currentLink(team.id);
    const t = textsIn(language, 'catalog');
    const rendered = renderTeamMail({
      kind,
      language,
      company: team.billingName ?? '',
      orderNumber: team.orderNumber,
      packageName: t(`packages.${team.package}.name`),
      seats: team.seats ?? 0,
      joinUrl: link ? teamJoinUrl(deps.publicUrl, deps.appSecret, link.id, language) : null,
      teamUrl: teamUrl(deps.publicUrl, deps.appSecret, team.id, now(), language),
      siteName: deps.site.name,
      amounts: {
        netCents: team.netCents ?? 0,
        vatCents: team.vatCents ?? 0,
        totalCents: team.totalCents ?? 0,
        vatRatePercent: team.taxRatePercent ?? 0,
        reverseCharge: team.vatTreatment === 'reverse_charge',
      },
    });
    const result = await deps.mailer.sendEmail({ ...rendered, to, template: `team-${kind}`, language, orderId: team.id, dedupeKey });
    if (!result.ok) deps.log.error({ teamId: team.id, kind, error: result.error }, 'team mail failed');
    return result;
  }

  /**
   * The provider's payment page for the team order's stored price (fixed when the order was placed). Each
   * attempt has its own idempotency key: a repeated request of one attempt gets the same session.
   */
  async function openPayment(team: OrderRow, attempt: number): Promise<OrderRow> {
    const language = team.language as Language;
    const t = textsIn(language);
    const link = teamUrl(deps.publicUrl, deps.appSecret, team.id, now(), language);
    const seats = team.seats ?? 0;
    const session = await deps.payments.createCheckoutSession({
      orderId: team.id,
      orderNumber: team.orderNumber,
      email: team.email ?? '',
      language,
      lineItems: [{ name: t('team.lineItem', { seats, package: t(`catalog.packages.${team.package}.name`) }), amountCents: team.totalCents ?? 0, quantity: 1 }],
      totalCents: team.totalCents ?? 0,
      successUrl: `${link}&paid=1&session_id={CHECKOUT_SESSION_ID}`,
      cancelUrl: `${link}&checkout=cancelled`,
      idempotencyKey: attempt === 0 ? `team-checkout-${team.id}` : `team-checkout-${team.id}-${attempt}`,
    });
    return createOrderRepository(db).update(team.id, {
      paymentProvider: deps.payments.name,
      providerSessionId: session.id,
      providerSessionUrl: session.url,
      providerSessionTotalCents: team.totalCents,
      providerSessionExpiresAt: session.expiresAt,
      paymentStatus: team.paymentStatus === 'failed' ? 'pending' : team.paymentStatus,
    });
  }

  return {
    /**
     * The buyer orders: prices from the catalogue on the server (seats × the package's price; with an EU VAT
     * ID from outside Germany the net only, reverse charge), the order row and the provider's payment page.
     */
    async checkout(input: TeamCheckoutInput): Promise<{ orderId: string; url: string; teamUrl: string }> {
      const look = completeSelection({ gender: 'diverse', style: input.style, package: input.package, location: input.location, outfit: input.outfit, extras: [] }, deps.capabilities);
      if (!look.ok) throw unprocessable(look.code);
      let vatId: string | null = null;
      if (input.vatId) {
        const checked = checkVatId(input.vatId);
        if (!checked.ok) throw unprocessable('vatIdInvalid', { field: 'vatId' });
        vatId = checked.vatId;
      }
      const treatment = vatTreatmentFor(vatId);
      // A reverse-charge invoice must carry the seller's own VAT ID (§ 14a (1) UStG): without one configured
      // (SITE_VAT_ID) the shop cannot invoice without German VAT, and says so rather than issue a wrong invoice.
      if (treatment === 'reverse_charge' && !deps.site.vatId) throw unprocessable('reverseChargeUnavailable', { field: 'vatId' });
      const at = now();
      const price = priceTeamOrder({ package: input.package, seats: input.seats, campaign: deps.campaign, now: at, treatment });
      const id = randomUUID();
      const orderNumber = orderNumberFromBytes(randomBytes(8));
      const repo = createOrderRepository(db);
      const placed = await repo.insert({
        id,
        orderNumber,
        language: input.language,
        email: input.email,
        customerKind: 'business',
        seats: input.seats,
        companyVatId: vatId,
        vatTreatment: treatment,
        billingName: input.companyName,
        billingAddress: input.companyAddress,
        styleBase: look.value.style,
        package: look.value.package,
        refineLocation: look.value.location,
        refineOutfit: look.value.outfit,
        featureHd: true,
        featureCommercialLicense: true,
        packageListCents: price.packageListCents,
        discountPercent: price.discountPercent,
        discountCents: price.discountCents,
        campaignId: price.discountPercent ? (deps.campaign?.id ?? null) : null,
        packageCents: price.packageCents,
        netCents: price.netCents,
        vatCents: price.vatCents,
        taxRatePercent: price.vatRatePercent,
        totalCents: price.grossCents,
        orderedAt: at,
        productionMode: deps.defaultProductionMode,
        createdAt: at,
        updatedAt: at,
      });
      await repo.addHistory(id, { event: 'order_placed', toStatus: 'created', actorType: 'customer', note: `team ${input.seats} × ${input.package} ${price.grossCents}` });
      const ordered = await openPayment(placed, 0);
      // The order's confirmation by e-mail (§ 312i BGB), with the team page.
      await sendTeamMail(input.email, input.language, 'ordered', ordered, `team-ordered:${id}`);
      return { orderId: id, url: ordered.providerSessionUrl!, teamUrl: teamUrl(deps.publicUrl, deps.appSecret, id, at, input.language) };
    },

    /**
     * The buyer pays an order that is not paid yet (the payment page was left, a debit failed, the session
     * expired): the open session again while it is valid, else a new one for the price fixed at the order.
     */
    async pay(teamId: string): Promise<{ url: string }> {
      const team = await requireTeam(teamId);
      if (team.paymentStatus === 'paid' || team.paymentStatus === 'refunded') throw conflict('alreadyPaid');
      if (team.status !== 'created') throw conflict('orderLocked');
      const at = now();
      if (team.providerSessionUrl && team.paymentStatus === 'pending' && (team.providerSessionExpiresAt?.getTime() ?? 0) > at.getTime() + SESSION_REUSE_MARGIN_MS) {
        return { url: team.providerSessionUrl };
      }
      // One new session at a time: a second click while the first is under way is told so.
      const claimed = await db.transaction(async (tx) => {
        const locked = await createOrderRepository(tx).lock(teamId);
        if (!locked) throw notFound('notFound');
        if (locked.checkoutClaimedAt && at.getTime() - locked.checkoutClaimedAt.getTime() < CHECKOUT_CLAIM_MS) return null;
        const attempts = await tx.select({ n: count() }).from(orderHistory).where(and(eq(orderHistory.orderId, teamId), eq(orderHistory.event, 'order_placed')));
        await createOrderRepository(tx).update(teamId, { checkoutClaimedAt: at });
        await createOrderRepository(tx).addHistory(teamId, { event: 'order_placed', actorType: 'customer', note: 'payment page opened again' });
        // The first session was the order's own (attempt 0); each later one has its own key.
        return { row: locked, attempt: Number(attempts[0]?.n ?? 1) };
      });
      if (!claimed) throw conflict('checkoutInProgress');
      try {
        if (claimed.row.providerSessionId) {
          const closed = await deps.payments.expireSession(claimed.row.providerSessionId);
          if (closed === 'alreadyComplete') {
            // A completed session is paid or a bank debit under way: never charge twice.
            const state = await deps.payments.retrieveSession(claimed.row.providerSessionId);
            throw conflict(state.paymentStatus === 'paid' ? 'alreadyPaid' : 'paymentPending');
          }
        }
        const reopened = await openPayment(claimed.row, claimed.attempt);
        return { url: reopened.providerSessionUrl! };
      } finally {
        await createOrderRepository(db).update(teamId, { checkoutClaimedAt: null });
      }
    },

    /** Paid (in the payment's transaction): the team's first join link. */
    async onPaid(tx: Executor, team: OrderRow): Promise<void> {
      if (!(await currentLink(team.id, tx))) await newLink(tx, team.id);
    },

    /** The payment confirmation of a team order, with its join link (payment-events' mail sender). */
    async sendPaidMail(teamId: string, dedupeKey: string) {
      const team = await requireTeam(teamId);
      if (!team.email) return null;
      return sendTeamMail(team.email, team.language as Language, 'paid', team, dedupeKey);
    },

    isTeamOrder(order: OrderRow): boolean {
      return order.seats !== null && order.customerKind === 'business';
    },

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
      const formatCount = (format: ZipFormat) => delivered.filter((d) => (d.variant as { format?: string } | null)?.format === format).length;
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

    /** What the join page shows: the company, the package and the team's look, and whether a seat is free. */
    async joinInfo(token: string) {
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

    /** All published pictures of the team in one format (or the square ones as profile pictures), per member. */
    async teamZip(teamId: string, kind: TeamZipKind): Promise<{ stream: Readable; fileName: string }> {
      const team = await requireTeam(teamId);
      const format: ZipFormat = kind === 'profile' ? 'square' : kind;
      const rows = await db
        .select({ image: generatedImages, email: orders.email, memberId: orders.id })
        .from(generatedImages)
        .innerJoin(orders, eq(orders.id, generatedImages.orderId))
        .where(and(eq(orders.teamOrderId, teamId), eq(generatedImages.status, 'active')))
        .orderBy(asc(orders.createdAt), asc(generatedImages.createdAt), asc(generatedImages.id));
      const chosen = rows.filter((r) => (r.image.variant as { format?: string } | null)?.format === format);
      if (!chosen.length) throw notFound('notFound');
      const present = await Promise.all(chosen.map((r) => storage.exists(r.image.storageKey)));
      if (present.includes(false)) throw new AppError(503, 'resultsUnavailable');
      const zip = new yazl.ZipFile();
      const output = zip.outputStream as unknown as Readable;
      const perMember = new Map<string, number>();
      for (const { image, email, memberId } of chosen) {
        const n = (perMember.get(memberId) ?? 0) + 1;
        perMember.set(memberId, n);
        const name = `${memberLabel(email, memberId.slice(0, 8))}/${memberLabel(email, 'bild')}-${kind === 'profile' ? 'profil' : format}-${n}.jpg`;
        zip.addReadStreamLazy(name, { compress: false, mtime: image.createdAt }, (callback) => {
          storage.getStream(image.storageKey).then(
            (stream) => {
              stream.on('error', (error: Error) => output.destroy(error));
              if (kind !== 'profile') return callback(null, stream);
              const resized = sharp().resize(PROFILE_PICTURE_PX, PROFILE_PICTURE_PX, { fit: 'cover' }).jpeg({ quality: 90 }).withMetadata({ density: 72 });
              resized.on('error', (error: Error) => output.destroy(error));
              callback(null, stream.pipe(resized));
            },
            (error: Error) => output.destroy(error),
          );
        });
      }
      zip.on('error', (error: Error) => output.destroy(error));
      zip.end();
      return { stream: output, fileName: `team-${team.orderNumber}-${kind === 'profile' ? 'profilbilder' : format}.zip` };
    },

  };
}

export type TeamService = ReturnType<typeof createTeamService>;
