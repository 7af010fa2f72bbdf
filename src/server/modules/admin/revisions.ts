// Staff answer a customer's redo request: the request is closed, the new pictures replace the ones it named,
// a reopened order is completed again, and the customer gets the answer by mail.
import { and, eq, gte, inArray, not } from 'drizzle-orm';
import { RETENTION, type Language } from '../../../domain/catalog.js';
import { checkTransition } from '../../../domain/order-state.js';
import type { AdminOrderDetail } from '../../../domain/staff-api.js';
import { auditLog, generatedImages, revisionRequests } from '../../db/schema.js';
import { conflict, notFound } from '../../http/errors.js';
import { renderRevisionAnsweredMail } from '../../mail/service-mails.js';
import type { StaffIdentity } from '../auth/auth-service.js';
import { createOrderRepository } from '../orders/order-repository.js';
import { statusUrl } from '../orders/order-tokens.js';
import { required, type AdminContext } from './admin-context.js';
import type { ShowOrderDetail } from './order-detail.js';

export function createRevisions(ctx: AdminContext, detail: ShowOrderDetail) {
  const { deps, activeCountIn } = ctx;
  const { db } = deps;

  return {
    /**
     * Staff answer a redo request and close it: the customer receives the answer by mail. The pictures
     * published since the request replace the ones the customer named (those are archived, as many as there
     * are new ones), and an order reopened for the redo is completed again (a new revision window).
     */
    async closeRevision(orderId: string, revisionId: string, answer: string, staff: StaffIdentity): Promise<AdminOrderDetail> {
      const now = deps.now();
      const closed = await db.transaction(async (tx) => {
        const repo = createOrderRepository(tx);
        const order = await repo.lock(orderId);
        if (!order) throw notFound('notFound');
        const [revision] = await tx.select().from(revisionRequests).where(and(eq(revisionRequests.id, revisionId), eq(revisionRequests.orderId, orderId)));
        if (!revision) throw notFound('notFound');
        if (revision.status !== 'open') throw conflict('revisionClosed');
        const fresh = await tx
          .select({ id: generatedImages.id })
          .from(generatedImages)
          .where(and(eq(generatedImages.orderId, orderId), eq(generatedImages.status, 'active'), gte(generatedImages.publishedAt, revision.createdAt), revision.imageIds.length ? not(inArray(generatedImages.id, revision.imageIds)) : undefined));
        const replaced = revision.imageIds.slice(0, fresh.length);
        if (replaced.length) {
          await tx.update(generatedImages).set({ status: 'archived', updatedAt: now }).where(and(eq(generatedImages.orderId, orderId), eq(generatedImages.status, 'active'), inArray(generatedImages.id, replaced)));
        }
        await tx.update(revisionRequests).set({ status: 'done', answer, answeredBy: staff.id, resolvedAt: now }).where(eq(revisionRequests.id, revisionId));
        let row = order;
        if (order.status === 'in_progress') {
          const check = checkTransition({ from: 'in_progress', to: 'completed', actor: 'staff', activeResults: await activeCountIn(tx, orderId), requiredResults: required(order) });
          if (!check.ok) throw conflict(check.code, check.required !== undefined ? { required: check.required } : undefined);
          row = await repo.update(orderId, { status: 'completed', completedAt: now, photosDeleteAfter: new Date(now.getTime() + RETENTION.daysAfterCompletion * 24 * 3600 * 1000) });
          await repo.addHistory(orderId, { event: 'revision_answered', fromStatus: 'in_progress', toStatus: 'completed', actorType: 'staff', actorId: staff.id });
        } else {
          await repo.addHistory(orderId, { event: 'revision_answered', fromStatus: order.status, toStatus: order.status, actorType: 'staff', actorId: staff.id });
        }
        await tx.insert(auditLog).values({ actorType: 'staff', staffUserId: staff.id, action: 'revision.close', orderId, details: { revisionId, newPictures: fresh.length, replaced }, createdAt: now });
        return { order: row, newPictures: fresh.length };
      });
      if (closed.order.email) {
        const language = closed.order.language as Language;
        const rendered = renderRevisionAnsweredMail({
          language,
          orderNumber: closed.order.orderNumber,
          answer,
          newPictures: closed.newPictures,
          url: statusUrl(deps.publicUrl, deps.appSecret, orderId, now, language),
          siteName: deps.site.name,
        });
        const result = await deps.mailer.sendEmail({ ...rendered, to: closed.order.email, template: 'revision-answered', language, orderId, dedupeKey: `revision-answered:${revisionId}` });
        if (!result.ok) deps.log.error({ orderId, error: result.error }, 'revision answer mail failed');
      }
      return detail(orderId);
    },
  };
}
