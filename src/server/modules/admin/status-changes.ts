// Staff change an order's status (the transitions domain/order-state.ts allows them); a completed order gets
// its photos-ready mail, once per completion.
import { and, count, eq } from 'drizzle-orm';
import { RETENTION, deliveryHours, type Language, type PackageKey } from '../../../domain/catalog.js';
import { checkTransition, type OrderStatus } from '../../../domain/order-state.js';
import type { AdminOrderDetail } from '../../../domain/staff-api.js';
import { auditLog, generatedImages, revisionRequests } from '../../db/schema.js';
import { conflict, notFound } from '../../http/errors.js';
import type { StaffIdentity } from '../auth/auth-service.js';
import { createOrderRepository, extrasOf, type OrderRow } from '../orders/order-repository.js';
import { renderPhotosReadyMail } from '../orders/order-mails.js';
import { statusUrl } from '../orders/order-tokens.js';
import { required, type AdminContext } from './admin-context.js';
import type { ShowOrderDetail } from './order-detail.js';

export function createStatusChanges(ctx: AdminContext, detail: ShowOrderDetail) {
  const { deps, activeCount } = ctx;
  const { db } = deps;

  async function sendReadyMail(order: OrderRow) {
    if (!order.email || !order.completedAt) return;
    const language = order.language as Language;
    const langQuery = language === 'de' ? '' : `?lang=${language}`;
    const pkg = order.package as PackageKey;
    const extras = extrasOf(order);
    const day = 24 * 3600 * 1000;
    const rendered = renderPhotosReadyMail({
      language,
      orderNumber: order.orderNumber,
      email: order.email,
      package: pkg,
      style: order.styleBase as never,
      location: order.refineLocation as never,
      outfit: order.refineOutfit as never,
      // This mail lists no package scope; only a generator order's pictures can wear the chosen outfit.
      newOutfits: order.productionMode === 'generator',
      gender: order.gender as never,
      extras,
      photoCount: 0,
      prices: {
        packageListCents: order.packageListCents ?? 0,
        discountPercent: order.discountPercent,
        discountCents: order.discountCents,
        packageCents: order.packageCents ?? 0,
        extras: extras.map((key) => ({ key, cents: key === 'extra_variants' ? order.featureExtraVariantsCents : order.featureExpressDeliveryCents })),
        netCents: order.netCents ?? 0,
        vatCents: order.vatCents ?? 0,
        vatRatePercent: order.taxRatePercent,
        grossCents: order.totalCents ?? 0,
      },
      deliveryHours: deliveryHours(pkg, extras),
      resultCount: await activeCount(order.id),
      orderedAt: order.orderedAt ?? order.createdAt,
      paidAt: order.paidAt,
      waiver: null,
      statusUrl: statusUrl(deps.publicUrl, deps.appSecret, order.id, deps.now(), language),
      termsUrl: `${deps.publicUrl}/agb${langQuery}`,
      privacyUrl: `${deps.publicUrl}/datenschutz${langQuery}`,
      withdrawalUrl: `${deps.publicUrl}/widerruf${langQuery}`,
      site: deps.site,
      deleteAfter: new Date(order.completedAt.getTime() + RETENTION.daysAfterCompletion * day),
      revisionUntil: new Date(order.completedAt.getTime() + RETENTION.revisionDays * day),
    });
    const result = await deps.mailer.sendEmail({
      ...rendered,
      to: order.email,
      language,
      orderId: order.id,
      // One ready mail per completion: a retried request never sends twice, a completion after a revision does.
      dedupeKey: `photos-ready:${order.id}:${order.completedAt.toISOString()}`,
    });
    if (!result.ok) deps.log.error({ orderId: order.id, error: result.error }, 'photos-ready mail failed');
  }

  return {
    async setStatus(orderId: string, to: OrderStatus, staff: StaffIdentity): Promise<AdminOrderDetail> {
      const now = deps.now();
      const updated = await db.transaction(async (tx) => {
        const repo = createOrderRepository(tx);
        const order = await repo.lock(orderId);
        if (!order) throw notFound('notFound');
        const [active] = await tx.select({ n: count() }).from(generatedImages).where(and(eq(generatedImages.orderId, orderId), eq(generatedImages.status, 'active')));
        const check = checkTransition({ from: order.status as OrderStatus, to, actor: 'staff', activeResults: Number(active?.n ?? 0), requiredResults: required(order) });
        if (!check.ok) throw conflict(check.code, check.required !== undefined ? { required: check.required } : undefined);
        const row = await repo.update(orderId, {
          status: to,
          ...(to === 'completed' ? { completedAt: now, photosDeleteAfter: new Date(now.getTime() + RETENTION.daysAfterCompletion * 24 * 3600 * 1000) } : {}),
          ...(to === 'cancelled' ? { cancelledAt: now } : {}),
        });
        if (order.status === 'completed' && to === 'in_progress') {
          // Reopened by staff: nothing is due for deletion while work goes on.
          await repo.update(orderId, { completedAt: null, photosDeleteAfter: null });
        }
        if (to === 'completed') await tx.update(revisionRequests).set({ status: 'done', resolvedAt: now }).where(and(eq(revisionRequests.orderId, orderId), eq(revisionRequests.status, 'open')));
        await repo.addHistory(orderId, { event: 'status_changed', fromStatus: order.status, toStatus: to, actorType: 'staff', actorId: staff.id });
        await tx.insert(auditLog).values({ actorType: 'staff', staffUserId: staff.id, action: 'order.status', orderId, details: { from: order.status, to }, createdAt: now });
        return row;
      });
      if (to === 'completed') await sendReadyMail(updated);
      return detail(orderId);
    },
  };
}
