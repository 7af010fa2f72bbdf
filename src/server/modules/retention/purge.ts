// Deleting an order's photos: files and rows, and a record of what went (docs/rules.md §6).
import { eq, lt, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { auditLog, generatedImages, invoices, orderUploads, orders, photoChecks } from '../../db/schema.js';
import type { Storage } from '../../storage/storage.js';
import { retentionAfterPhotos } from '../../../domain/invoice.js';
import { invoiceStorageKey } from '../invoices/invoice-service.js';
import { createOrderRepository } from '../orders/order-repository.js';

export interface PurgeDeps {
  db: Database;
  storage: Storage;
  now: () => Date;
}

export interface PurgeResult {
  uploads: number;
  results: number;
  files: number;
}

/**
 * Removes every upload and result of an order, files and rows, marks the order and records it.
 * The order row stays locked meanwhile: a second process skips it. After a crash the rows are still
 * there and the next run finishes the job (files already gone are simply not found again).
 */
export async function purgeOrderPhotos(
  deps: PurgeDeps,
  orderId: string,
  options: { reason: 'retention' | 'customer' | 'unpaidDraft'; actorType: 'system' | 'customer'; deleteOrder?: boolean },
): Promise<PurgeResult | null> {
  const { db, storage } = deps;
  return db.transaction(async (tx) => {
    const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update', { skipLocked: true });
    if (!order || order.photosDeletedAt) return null;
    // Everything stored for the order lives under its prefixes, thumbnails included.
    const files = (await storage.deletePrefix(`uploads/${orderId}/`)) + (await storage.deletePrefix(`results/${orderId}/`));
    const now = deps.now();
    const uploads = await tx.delete(orderUploads).where(eq(orderUploads.orderId, orderId)).returning({ id: orderUploads.id });
    await tx.delete(photoChecks).where(eq(photoChecks.orderId, orderId));
    const results = await tx.delete(generatedImages).where(eq(generatedImages.orderId, orderId)).returning({ id: generatedImages.id });
    const details = { reason: options.reason, orderNumber: order.orderNumber, uploads: uploads.length, results: results.length, files };
    if (options.deleteOrder) {
      await tx.delete(orders).where(eq(orders.id, orderId));
      await tx.insert(auditLog).values({ actorType: options.actorType, action: 'order.deleted', orderId: null, details, createdAt: now });
    } else {
      const repo = createOrderRepository(tx);
      await repo.update(orderId, { photosDeletedAt: now, photosDeleteAfter: null });
      // The invoices stay, apart from the photos: 8 years from now, or longer where the statutory period
      // set at issue ends later.
      const until = retentionAfterPhotos(now);
      await tx
        .update(invoices)
        .set({ retainUntil: sql`greatest(${invoices.retainUntil}, ${until.toISOString()}::timestamptz)` })
        .where(eq(invoices.orderId, orderId));
      await repo.addHistory(orderId, {
        event: options.actorType === 'customer' ? 'photos_deleted_by_customer' : 'photos_deleted',
        actorType: options.actorType,
        note: `${uploads.length} uploads, ${results.length} results`,
      });
      await tx.insert(auditLog).values({ actorType: options.actorType, action: 'order.photos_deleted', orderId, details, createdAt: now });
    }
    return { uploads: uploads.length, results: results.length, files };
  });
}

/** Invoices whose 8 years are over: PDF and row deleted. */
export async function purgeExpiredInvoices(deps: PurgeDeps): Promise<number> {
  const expired = await deps.db.select().from(invoices).where(lt(invoices.retainUntil, deps.now()));
  for (const invoice of expired) {
    // The key follows from the number: a PDF whose row never got its key (a crash in between) goes too.
    await deps.storage.delete(invoice.storageKey ?? invoiceStorageKey(invoice));
    await deps.db.delete(invoices).where(eq(invoices.id, invoice.id));
    await deps.db.insert(auditLog).values({ actorType: 'system', action: 'invoice.deleted', orderId: invoice.orderId, details: { number: invoice.number }, createdAt: deps.now() });
  }
  return expired.length;
}
