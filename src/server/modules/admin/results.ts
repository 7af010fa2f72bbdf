// The order's pictures: a staff upload becomes a draft (its file checked and stored, nothing left behind when
// that fails), and a picture is published, archived or deleted (a completed order keeps its package's count).
import { randomBytes, randomUUID } from 'node:crypto';
import { and, count, eq } from 'drizzle-orm';
import type { AdminOrderDetail, ResultStatus, UploadedResult } from '../../../domain/staff-api.js';
import { auditLog, generatedImages } from '../../db/schema.js';
import { AppError, conflict, notFound } from '../../http/errors.js';
import { noteIntent, settleIntent } from '../../storage/intents.js';
import type { StaffIdentity } from '../auth/auth-service.js';
import { createOrderRepository } from '../orders/order-repository.js';
import { processResultImage } from '../../images/image-processing.js';
import { required, type AdminContext } from './admin-context.js';
import type { ShowOrderDetail } from './order-detail.js';

export function createResults(ctx: AdminContext, detail: ShowOrderDetail) {
  const { deps, audit, requireOrder } = ctx;
  const { db, storage } = deps;

  return {
    async uploadResult(orderId: string, file: { buffer: Buffer; fileName: string | undefined }, staff: StaffIdentity): Promise<UploadedResult> {
      const order = await requireOrder(orderId);
      if (order.status === 'cancelled' || order.photosDeletedAt) throw conflict('orderLocked');
      const processed = await processResultImage(file.buffer);
      if (!processed.ok) {
        const status = processed.code === 'fileTooLarge' ? 413 : processed.code === 'tooManyPixels' ? 422 : 415;
        throw new AppError(status, processed.code);
      }
      const image = processed.image;
      const key = `results/${orderId}/${randomBytes(16).toString('hex')}.${image.extension}`;
      // Spec: file names keep only letters, digits, dot and hyphen.
      const fileName = (file.fileName ?? `ergebnis.${image.extension}`).replace(/[^A-Za-z0-9.-]+/g, '-').slice(0, 150) || `ergebnis.${image.extension}`;
      await noteIntent(db, [key], deps.now());
      const id = randomUUID();
      try {
        await storage.put(key, image.buffer, { contentType: image.mimeType });
        await db.transaction(async (tx) => {
          await settleIntent(tx, [key]);
          await tx.insert(generatedImages).values({
            id,
            orderId,
            fileName,
            fileSize: image.bytes,
            mimeType: image.mimeType,
            width: image.width,
            height: image.height,
            storageKey: key,
            generationType: 'admin_upload',
            uploadedBy: staff.id,
            status: 'draft',
            createdAt: deps.now(),
          });
        });
      } catch (error) {
        // Nothing stays behind; if even the cleanup fails, the note stays and the deletion job removes the file.
        await storage.delete(key).then(
          () => settleIntent(db, [key]),
          () => {},
        );
        throw error;
      }
      await audit(staff, 'result.upload', orderId, { resultId: id, fileName });
      return { id, fileName, status: 'draft' as const };
    },

    async setResultStatus(orderId: string, resultId: string, to: ResultStatus, staff: StaffIdentity): Promise<AdminOrderDetail> {
      // Under the order's row lock: two parallel archives cannot take a completed order below its count.
      const removedKey = await db.transaction(async (tx) => {
        const order = await createOrderRepository(tx).lock(orderId);
        if (!order) throw notFound('notFound');
        const [result] = await tx.select().from(generatedImages).where(and(eq(generatedImages.id, resultId), eq(generatedImages.orderId, orderId)));
        if (!result) throw notFound('notFound');
        if (result.status === 'deleted') throw conflict('resultDeleted');
        if (order.status === 'completed' && result.status === 'active' && to !== 'active') {
          const [active] = await tx.select({ n: count() }).from(generatedImages).where(and(eq(generatedImages.orderId, orderId), eq(generatedImages.status, 'active')));
          // A completed order keeps its promise: it may not drop below the package's count of published images.
          if (Number(active?.n ?? 0) <= required(order)) throw conflict('notEnoughResults', { required: required(order) });
        }
        await tx
          .update(generatedImages)
          .set({ status: to, updatedAt: deps.now(), ...(to === 'active' ? { publishedAt: deps.now() } : {}) })
          .where(eq(generatedImages.id, resultId));
        await tx.insert(auditLog).values({
          actorType: 'staff',
          staffUserId: staff.id,
          action: `result.${to === 'active' ? 'publish' : to === 'archived' ? 'archive' : 'delete'}`,
          orderId,
          details: { resultId, fileName: result.fileName },
          createdAt: deps.now(),
        });
        return to === 'deleted' ? result.storageKey : null;
      });
      if (removedKey) await storage.delete(removedKey);
      return detail(orderId);
    },
  };
}
