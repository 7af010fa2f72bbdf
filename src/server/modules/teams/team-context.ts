// What the team operations share (team-checkout.ts, team-payment-hooks.ts, team-page.ts, team-join.ts,
// member-submission.ts, team-zip.ts): their dependencies, the team order and its members, the team's join link,
// the team's audit log and the team mails.
import { randomUUID } from 'node:crypto';
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Capabilities } from '../../../domain/capabilities.js';
import type { Language } from '../../../domain/catalog.js';
import type { Campaign } from '../../../domain/campaign.js';
import type { SiteInfo } from '../../../domain/site.js';
import { textsIn } from '../../../i18n/all-messages.js';
import type { Database, Executor } from '../../db/client.js';
import { auditLog, orders, teamLinks } from '../../db/schema.js';
import { notFound } from '../../http/errors.js';
import type { Mailer, SendResult } from '../../mail/mailer.js';
import { renderTeamMail } from '../../mail/team-mails.js';
import type { PaymentProvider } from '../../payment-providers/provider.js';
import type { Storage } from '../../storage/storage.js';
import type { InvoiceService } from '../invoices/invoice-service.js';
import { createOrderRepository, type OrderRow } from '../orders/order-repository.js';
import { teamJoinUrl, teamUrl } from '../orders/order-tokens.js';

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
  /** A member's order is paid by the team: its pictures start the way a paid order's do (order-lifecycle.ts). */
  startProduction: (tx: Executor, order: OrderRow) => Promise<void>;
  now: () => Date;
  log: FastifyBaseLogger;
}

export type TeamLinkRow = typeof teamLinks.$inferSelect;
export type TeamMailKind = 'invite' | 'remind' | 'ordered' | 'paid';

/** Made once per team service; every operation gets the same one. */
export interface TeamContext {
  deps: TeamDeps;
  /** The team order (a business order with seats), or 404 notFound; on deps.db unless an executor is given. */
  requireTeam(teamId: string, executor?: Executor): Promise<OrderRow>;
  /** The team's member orders, oldest first (removed ones too). */
  members(teamId: string, executor?: Executor): Promise<OrderRow[]>;
  /** The team's join link that is not revoked, if any. */
  currentLink(teamId: string, executor?: Executor): Promise<TeamLinkRow | null>;
  /** Revokes the current join link and makes a new one; its id. */
  newLink(tx: Executor, teamId: string): Promise<string>;
  audit(executor: Executor, teamId: string, action: string, details: Record<string, unknown>): Promise<void>;
  sendTeamMail(to: string, language: Language, kind: TeamMailKind, team: OrderRow, dedupeKey: string): Promise<SendResult>;
}

export function createTeamContext(deps: TeamDeps): TeamContext {
  const { db, now } = deps;

  async function requireTeam(teamId: string, executor: Executor = db): Promise<OrderRow> {
    const team = await createOrderRepository(executor).find(teamId);
    if (!team || team.seats === null || team.customerKind !== 'business') throw notFound('notFound');
    return team;
  }

  async function members(teamId: string, executor: Executor = db): Promise<OrderRow[]> {
    return executor.select().from(orders).where(eq(orders.teamOrderId, teamId)).orderBy(asc(orders.createdAt), asc(orders.id));
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

  return { deps, requireTeam, members, currentLink, newLink, audit, sendTeamMail };
}
