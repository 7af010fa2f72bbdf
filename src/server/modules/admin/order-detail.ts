// One order as the back office shows it: the order, its team, its photos, its pictures (newest work first, the
// generator's drafts best match first), history, redo requests and audit log. Every change answers with it.
import { asc, desc, eq } from 'drizzle-orm';
import { nextStatuses, type OrderStatus } from '../../../domain/order-state.js';
import type { AdminOrderDetail, ResultStatus } from '../../../domain/staff-api.js';
import type { PictureVariant } from '../../../domain/stored-json.js';
import { auditLog, generatedImages, orders, revisionRequests, staffUsers } from '../../db/schema.js';
import { createOrderRepository, extrasOf } from '../orders/order-repository.js';
import { thumbnailKey } from '../orders/order-service.js';
import { photoQualityView } from '../production/photo-quality.js';
import { required, type AdminContext } from './admin-context.js';

export function createOrderDetail(ctx: AdminContext) {
  const { deps, requireOrder } = ctx;
  const { db, storage } = deps;

  async function detail(orderId: string): Promise<AdminOrderDetail> {
    const order = await requireOrder(orderId);
    const repo = createOrderRepository(db);
    const ttl = deps.signedUrlTtlSeconds;
    const [uploads, results, history, revisions, auditRows] = await Promise.all([
      repo.uploads(orderId),
      db.select().from(generatedImages).where(eq(generatedImages.orderId, orderId)).orderBy(asc(generatedImages.createdAt), asc(generatedImages.id)),
      repo.history(orderId),
      db.select().from(revisionRequests).where(eq(revisionRequests.orderId, orderId)).orderBy(desc(revisionRequests.createdAt)),
      db
        .select({ action: auditLog.action, at: auditLog.createdAt, details: auditLog.details, staffEmail: staffUsers.email, actorType: auditLog.actorType })
        .from(auditLog)
        .leftJoin(staffUsers, eq(staffUsers.id, auditLog.staffUserId))
        .where(eq(auditLog.orderId, orderId))
        .orderBy(desc(auditLog.createdAt), desc(auditLog.id)),
    ]);
    const activeResults = results.filter((r) => r.status === 'active').length;
    // A team order lists its members; a member's order names its team (issue 17).
    const teamMembers = order.seats !== null ? await db.select().from(orders).where(eq(orders.teamOrderId, order.id)).orderBy(asc(orders.createdAt)) : [];
    const [team] = order.teamOrderId ? await db.select().from(orders).where(eq(orders.id, order.teamOrderId)) : [];
    return {
      team:
        order.seats !== null
          ? {
              kind: 'team' as const,
              seats: order.seats,
              vatId: order.companyVatId,
              vatTreatment: order.vatTreatment,
              members: teamMembers.map((m) => ({ id: m.id, orderNumber: m.orderNumber, email: m.email, status: m.status, paymentStatus: m.paymentStatus, paidAt: m.paidAt?.toISOString() ?? null })),
            }
          : team
            ? { kind: 'member' as const, teamOrderId: team.id, teamOrderNumber: team.orderNumber, company: team.billingName }
            : null,
      order: {
        id: order.id,
        orderNumber: order.orderNumber,
        status: order.status,
        paymentStatus: order.paymentStatus,
        language: order.language,
        email: order.email,
        firstName: order.firstName,
        lastName: order.lastName,
        billingName: order.billingName,
        billingAddress: order.billingAddress,
        phone: order.phone,
        gender: order.gender,
        styleBase: order.styleBase,
        package: order.package,
        refineLocation: order.refineLocation,
        refineOutfit: order.refineOutfit,
        extras: extrasOf(order),
        packageListCents: order.packageListCents,
        discountCents: order.discountCents,
        packageCents: order.packageCents,
        extrasCents: order.extrasCents,
        netCents: order.netCents,
        vatCents: order.vatCents,
        totalCents: order.totalCents,
        createdAt: order.createdAt.toISOString(),
        orderedAt: order.orderedAt?.toISOString() ?? null,
        paidAt: order.paidAt?.toISOString() ?? null,
        completedAt: order.completedAt?.toISOString() ?? null,
        photosDeletedAt: order.photosDeletedAt?.toISOString() ?? null,
        waiverAcceptedAt: order.waiverAcceptedAt?.toISOString() ?? null,
        waiverTextVersion: order.waiverTextVersion,
      },
      nextStatuses: nextStatuses(order.status as OrderStatus, 'staff'),
      uploads: await Promise.all(
        uploads.map(async (u) => ({
          id: u.id,
          fileName: u.fileName,
          fileSize: u.fileSize,
          width: u.width,
          height: u.height,
          thumbnailUrl: await storage.signedUrl(thumbnailKey(u.storageKey), { expiresInSeconds: ttl }),
          url: await storage.signedUrl(u.storageKey, { expiresInSeconds: ttl }),
          downloadUrl: await storage.signedUrl(u.storageKey, { expiresInSeconds: ttl, downloadName: u.fileName.replace(/[^A-Za-z0-9._-]+/g, '-') || 'foto.jpg' }),
          quality: photoQualityView(u.quality),
        })),
      ),
      results: await Promise.all(
        byIdentity(newestFirst(results)).map(async (r) => ({
          id: r.id,
          fileName: r.fileName,
          fileSize: r.fileSize,
          width: r.width,
          height: r.height,
          // generated_images_status_check allows only RESULT_STATUSES.
          status: r.status as ResultStatus,
          url: r.status === 'deleted' ? '' : await storage.signedUrl(r.storageKey, { expiresInSeconds: ttl }),
          createdAt: r.createdAt.toISOString(),
          publishedAt: r.publishedAt?.toISOString() ?? null,
          favourite: r.favouriteAt !== null,
          generationType: r.generationType,
          variant: r.variant ?? null,
        })),
      ),
      requiredResults: required(order),
      activeResults,
      history: history.map((h) => ({ event: h.event, fromStatus: h.fromStatus, toStatus: h.toStatus, actorType: h.actorType, at: h.createdAt.toISOString() })),
      revisions: revisions.map((r) => ({
        id: r.id,
        message: r.message,
        status: r.status,
        imageIds: r.imageIds,
        dueAt: r.dueAt?.toISOString() ?? null,
        answer: r.answer,
        createdAt: r.createdAt.toISOString(),
        resolvedAt: r.resolvedAt?.toISOString() ?? null,
      })),
      audit: auditRows.map((a) => ({ action: a.action, staffEmail: a.staffEmail ?? (a.actorType === 'staff' ? null : a.actorType), at: a.at.toISOString(), details: a.details })),
    };
  }

  return { detail };
}

/** Reads one order as the back office shows it (order-detail.ts); the changes answer with it. */
export type ShowOrderDetail = (orderId: string) => Promise<AdminOrderDetail>;

/**
 * Newest work first: the pictures of the latest run (a generation, a staff upload) at the top, each run in the
 * order it was made (a run starts with its 4:5 portrait).
 */
export function newestFirst<T extends { createdAt: Date; generationType: string; variant: Pick<PictureVariant, 'generation'> | null; id: string }>(results: T[]): T[] {
  const runOf = (r: T) => {
    const generation = r.variant?.generation;
    return r.generationType !== 'admin_upload' && typeof generation === 'number' ? `${r.generationType}:${generation}` : `upload:${r.id}`;
  };
  const started = new Map<string, number>();
  for (const r of results) started.set(runOf(r), Math.min(started.get(runOf(r)) ?? Infinity, r.createdAt.getTime()));
  return [...results].sort((a, b) => started.get(runOf(b))! - started.get(runOf(a))! || a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id));
}

/** A generated draft's identity check: its distance to the customer's own photos (lower is more alike). */
function identityDistance(variant: PictureVariant | null): number | null {
  const distance = variant?.identity?.distance;
  return typeof distance === 'number' ? distance : null;
}

/**
 * Results in the order they were made, except that the generator's drafts are listed best first (smallest
 * identity distance), so the reviewer starts with the pictures most like the customer.
 */
function byIdentity<T extends { status: string; generationType: string; variant: PictureVariant | null }>(results: T[]): T[] {
  const scored = (r: T) => r.status === 'draft' && r.generationType === 'external' && identityDistance(r.variant) !== null;
  const drafts = results.filter(scored).sort((a, b) => identityDistance(a.variant)! - identityDistance(b.variant)!);
  let next = 0;
  return results.map((r) => (scored(r) ? drafts[next++]! : r));
}
