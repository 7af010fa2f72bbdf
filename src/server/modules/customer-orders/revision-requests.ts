// A redo the customer asks for after delivery: published pictures to be made again, within the package's budget,
// the order back in production on its own due time, the new drafts made the order's way (redo.ts), and the
// mail that acknowledges it.
import { randomUUID } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import { addBusinessHours } from '../../../domain/business-hours.js';
import { PACKAGES, RETENTION, deliveryHours, type Language, type PackageKey } from '../../../domain/catalog.js';
import { changeList, redoChanges, type RedoChange } from '../../../studio/redo-reason.js';
import { generatedImages, revisionRequests } from '../../db/schema.js';
import { conflict, notFound } from '../../http/errors.js';
import { renderRevisionReceivedMail } from '../../mail/service-mails.js';
import { createOrderRepository, extrasOf, type OrderRow } from '../orders/order-repository.js';
import { statusUrl } from '../orders/order-tokens.js';
import { enqueueRedo } from '../production/redo.js';
import { redoneCount, type CustomerOrderContext } from './customer-order-context.js';
import type { OrderStatusView } from './order-status-view.js';

export function createRevisionRequests(ctx: CustomerOrderContext, { viewById }: OrderStatusView) {
  const { deps } = ctx;
  const { db } = deps;

  /** The acknowledgement of a redo request; staff's answer is sent by the back office (admin/revisions.ts). */
  async function sendRevisionMail(order: OrderRow, kind: 'received', input: { pictures: number; dueAt: Date; message: string; changes: RedoChange[]; key: string }) {
    if (!order.email) return;
    const language = order.language as Language;
    const rendered = renderRevisionReceivedMail({
      language,
      orderNumber: order.orderNumber,
      pictures: input.pictures,
      dueAt: input.dueAt,
      reason: input.message,
      changes: input.changes,
      byHand: order.productionMode === 'manual',
      url: statusUrl(deps.publicUrl, deps.appSecret, order.id, deps.now(), language),
      siteName: deps.site.name,
    });
    const result = await deps.mailer.sendEmail({ ...rendered, to: order.email, template: `revision-${kind}`, language, orderId: order.id, dedupeKey: `revision-${kind}:${order.id}:${input.key}` });
    if (!result.ok) deps.log.error({ orderId: order.id, error: result.error }, 'revision mail failed');
  }

  /**
   * A redo before accepting: within RETENTION.revisionDays of delivery the customer names published pictures
   * to be made again (the package's redo budget counts them), with an optional reason. The order goes back
   * into production, due again after the package's delivery time in business hours; the new drafts are
   * made the order's way (redo.ts) and reach the customer through staff review; a mail acknowledges it.
   */
  async function requestRevision(orderId: string, input: { imageIds: string[]; message: string }) {
    const now = deps.now();
    const recorded = await db.transaction(async (tx) => {
      const repo = createOrderRepository(tx);
      const order = await repo.lock(orderId);
      if (!order) throw notFound('notFound');
      const until = order.completedAt ? order.completedAt.getTime() + RETENTION.revisionDays * 24 * 3600 * 1000 : 0;
      if (order.status !== 'completed' || until < now.getTime() || order.photosDeletedAt || !order.package) throw conflict('revisionNotAllowed');
      const pkg = order.package as PackageKey;
      const earlier = await tx.select({ imageIds: revisionRequests.imageIds }).from(revisionRequests).where(eq(revisionRequests.orderId, orderId));
      const remaining = PACKAGES[pkg].redoPictures - redoneCount(earlier);
      if (input.imageIds.length > remaining) throw conflict('redoBudgetExceeded', { remaining: Math.max(0, remaining) });
      const images = await tx
        .select()
        .from(generatedImages)
        .where(and(eq(generatedImages.orderId, orderId), eq(generatedImages.status, 'active'), inArray(generatedImages.id, input.imageIds)));
      if (images.length !== input.imageIds.length) throw notFound('notFound');
      const dueAt = addBusinessHours(now, deliveryHours(pkg, extrasOf(order)));
      await tx.insert(revisionRequests).values({ id: randomUUID(), orderId, message: input.message, imageIds: input.imageIds, dueAt, status: 'open', createdAt: now });
      // Nothing is due for deletion while the pictures are made again.
      await repo.update(orderId, { status: 'in_progress', completedAt: null, photosDeleteAfter: null });
      await repo.addHistory(orderId, {
        event: 'revision_requested',
        fromStatus: 'completed',
        toStatus: 'in_progress',
        actorType: 'customer',
        note: `${images.length} ${input.message}`.trim().slice(0, 500),
      });
      // The studio reads the reason for what it can change itself (frame, photo, backdrop); the mail names it.
      const changes = order.productionMode === 'studio' ? redoChanges(input.message) : {};
      await enqueueRedo(tx, order, images, now, changes);
      return { order, dueAt, pictures: images.length, changes };
    });
    await sendRevisionMail(recorded.order, 'received', { pictures: recorded.pictures, dueAt: recorded.dueAt, message: input.message, changes: changeList(recorded.changes), key: now.toISOString() });
    return viewById(orderId);
  }

  return { requestRevision };
}
