// The draft's photos: an upload is checked (format, size, quality gate, same person) before anything is
// stored, and a refused or failed upload leaves no row and no file; a photo can be deleted until checkout.
import { randomBytes, randomUUID } from 'node:crypto';
import { UPLOAD_LIMITS } from '../../../domain/catalog.js';
import type { UploadView } from '../../../domain/order-views.js';
import { AppError, conflict, notFound, unprocessable } from '../../http/errors.js';
import { noteIntent, settleIntent } from '../../storage/intents.js';
import { showsAnotherPerson } from '../../../studio/identity.js';
import { isRefusing } from '../../../studio/quality-gate.js';
import { processCustomerPhoto } from '../uploads/image-processing.js';
import { createOrderRepository } from './order-repository.js';
import { isEditable, thumbnailKey, type OrderContext } from './order-context.js';

/**
 * The name shown to the customer and staff: no control characters, no path separators, and no format
 * characters (Cf: bidirectional overrides that show "gpj.exe" as "exe.jpg", zero-width and invisible marks).
 */
function safeFileName(name: string | undefined): string {
  const cleaned = (name ?? 'foto').normalize('NFC').replace(/[\p{Cc}\p{Cf}/\\]/gu, '').trim();
  return (cleaned || 'foto').slice(0, 200);
}

export function createDraftUploads(ctx: OrderContext) {
  const { deps, orders, requireOrder, uploadView, releaseCheckout } = ctx;
  const { db, storage } = deps;

  return {
    async addUpload(orderId: string, file: { buffer: Buffer; fileName: string | undefined }): Promise<UploadView> {
      const existing = await requireOrder(orderId);
      if (!isEditable(existing)) throw conflict('orderLocked');
      await releaseCheckout(existing);
      // Cheap early answer; the count is enforced again under the row lock below.
      if ((await orders.uploadCount(orderId)) >= UPLOAD_LIMITS.maxPhotos) throw conflict('tooManyPhotos', { max: UPLOAD_LIMITS.maxPhotos });
      const processed = await processCustomerPhoto(file.buffer);
      if (!processed.ok) {
        const status = processed.code === 'fileTooLarge' ? 413 : processed.code === 'tooManyPixels' || processed.code === 'resolutionTooLow' ? 422 : 415;
        throw new AppError(status, processed.code, processed.code, processed.code === 'resolutionTooLow' ? { minShortSidePx: UPLOAD_LIMITS.minShortSidePx } : undefined);
      }
      const image = processed.image;
      // Before anything is stored: a refused photo (no face, several, or blurred, dark, burnt out or tilted beyond
      // use) leaves nothing behind. Its code is the customer's message (errors.<code>, with advice).
      const quality = await deps.checkPhoto(image.buffer);
      if (quality?.verdict === 'refused') throw unprocessable((quality.issues.find((issue) => isRefusing(issue.code)) ?? quality.issues[0]!).code);
      // Every photo of an order shows the same person: a face unlike all the accepted ones is refused.
      if (showsAnotherPerson(quality, (await orders.uploads(orderId)).map((upload) => upload.quality))) throw unprocessable('differentPerson');
      const key = `uploads/${orderId}/${randomBytes(16).toString('hex')}.${image.extension}`;
      const files = [key, thumbnailKey(key)];
      // Noted first: should this process die before the row commits, the deletion job finds the files.
      await noteIntent(db, files, deps.now());
      try {
        await storage.put(key, image.buffer, { contentType: image.mimeType });
        await storage.put(thumbnailKey(key), image.thumbnail, { contentType: 'image/jpeg' });
        const row = await db.transaction(async (tx) => {
          const repo = createOrderRepository(tx);
          const order = await repo.lock(orderId);
          if (!order) throw notFound('orderNotFound');
          if (!isEditable(order) || order.providerSessionId) throw conflict('orderLocked');
          if ((await repo.uploadCount(orderId)) >= UPLOAD_LIMITS.maxPhotos) throw conflict('tooManyPhotos', { max: UPLOAD_LIMITS.maxPhotos });
          // Again under the lock: of two photos sent at once, the second is compared with the first.
          if (showsAnotherPerson(quality, (await repo.uploads(orderId)).map((upload) => upload.quality))) throw unprocessable('differentPerson');
          // New photos after an earlier deletion (a retry days later) are kept under the usual rules again.
          if (order.photosDeletedAt) await repo.update(orderId, { photosDeletedAt: null });
          await settleIntent(tx, files);
          return repo.insertUpload({
            id: randomUUID(),
            orderId,
            fileName: safeFileName(file.fileName),
            fileSize: image.bytes,
            mimeType: image.mimeType,
            width: image.width,
            height: image.height,
            storageKey: key,
            uploadOrder: await repo.nextUploadOrder(orderId),
            quality: quality ?? { verdict: 'unchecked' },
            createdAt: deps.now(),
          });
        });
        return uploadView(row);
      } catch (error) {
        // Nothing may stay behind for a refused or failed upload (and if this cleanup fails, the note stays
        // and the deletion job removes the files).
        const cleaned = await Promise.allSettled(files.map((file) => storage.delete(file)));
        if (cleaned.every((result) => result.status === 'fulfilled')) await settleIntent(db, files).catch(() => {});
        throw error;
      }
    },

    async removeUpload(orderId: string, uploadId: string) {
      const order = await requireOrder(orderId);
      if (!isEditable(order)) throw conflict('orderLocked');
      await releaseCheckout(order);
      const upload = await orders.findUpload(orderId, uploadId);
      if (!upload) throw notFound('photoNotFound');
      await orders.deleteUpload(upload.id);
      await Promise.all([storage.delete(upload.storageKey), storage.delete(thumbnailKey(upload.storageKey))]);
    },
  };
}
