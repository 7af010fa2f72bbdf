// What the customer's operations after the sale share (order-status-view.ts, tracking.ts, results.ts,
// revision-requests.ts, photo-deletion.ts): their dependencies, the order lookup, the order's published pictures,
// and the rules more than one of them applies (the redo budget used, a picture's format).
import { and, asc, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { SiteInfo } from '../../../domain/site.js';
import type { PictureVariant } from '../../../domain/stored-json.js';
import type { Database } from '../../db/client.js';
import { generatedImages } from '../../db/schema.js';
import { notFound } from '../../http/errors.js';
import type { Mailer } from '../../mail/mailer.js';
import type { Storage } from '../../storage/storage.js';
import type { InvoiceService } from '../invoices/invoice-service.js';
import { createOrderRepository, type OrderRow } from '../orders/order-repository.js';

export interface CustomerOrderDeps {
  db: Database;
  storage: Storage;
  appSecret: string;
  signedUrlTtlSeconds: number;
  site: SiteInfo;
  /** The PDFs of the order's invoices (the view reads their rows itself, with the rest of it). */
  invoices: Pick<InvoiceService, 'file'>;
  publicUrl: string;
  /** The status link by mail, when tracking is under guard (routes.ts). */
  mailer: Mailer;
  now: () => Date;
  log: FastifyBaseLogger;
}

/** Pictures asked to be made again so far, over all of an order's revisions (the package's redo budget). */
export function redoneCount(revisions: { imageIds: string[] }[]): number {
  return revisions.reduce((sum, r) => sum + r.imageIds.length, 0);
}

/** The output format a studio or generated picture was made in (its variant says); null for staff uploads. */
export function resultFormat(variant: PictureVariant | null): 'portrait' | 'square' | 'application' | null {
  const format = variant?.format;
  return format === 'portrait' || format === 'square' || format === 'application' ? format : null;
}

/** Made once per customer order service; every operation gets the same one. */
export interface CustomerOrderContext {
  deps: CustomerOrderDeps;
  /** The order, or 404 notFound. */
  requireOrder(orderId: string): Promise<OrderRow>;
  /** The order's published pictures, oldest first (as the status page numbers them). */
  activeResults(orderId: string): Promise<(typeof generatedImages.$inferSelect)[]>;
}

export function createCustomerOrderContext(deps: CustomerOrderDeps): CustomerOrderContext {
  const { db } = deps;

  async function activeResults(orderId: string) {
    return db
      .select()
      .from(generatedImages)
      .where(and(eq(generatedImages.orderId, orderId), eq(generatedImages.status, 'active')))
      .orderBy(asc(generatedImages.createdAt), asc(generatedImages.id));
  }

  async function requireOrder(orderId: string): Promise<OrderRow> {
    const order = await createOrderRepository(db).find(orderId);
    if (!order) throw notFound('notFound');
    return order;
  }

  return { deps, requireOrder, activeResults };
}
