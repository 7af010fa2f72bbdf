// What the back office's operations share (order-lists.ts, order-detail.ts, status-changes.ts, results.ts,
// revisions.ts): their dependencies, the audit log entry, the count of an order's published pictures, the order
// lookup, and how many pictures an order's package promises.
import type { FastifyBaseLogger } from 'fastify';
import { and, count, eq } from 'drizzle-orm';
import { requiredResultCount, type PackageKey } from '../../../domain/catalog.js';
import type { SiteInfo } from '../../../domain/site.js';
import type { Database, Executor } from '../../db/client.js';
import { auditLog, generatedImages } from '../../db/schema.js';
import { notFound } from '../../http/errors.js';
import type { Mailer } from '../../mail/mailer.js';
import type { Storage } from '../../storage/storage.js';
import type { StaffIdentity } from '../auth/auth-service.js';
import { createOrderRepository, extrasOf, type OrderRow } from '../orders/order-repository.js';

export interface AdminDeps {
  db: Database;
  storage: Storage;
  mailer: Mailer;
  appSecret: string;
  publicUrl: string;
  site: SiteInfo;
  signedUrlTtlSeconds: number;
  now: () => Date;
  log: FastifyBaseLogger;
}

export function required(order: OrderRow): number {
  return order.package ? requiredResultCount(order.package as PackageKey, extrasOf(order)) : 0;
}

/** Made once per admin service; every operation gets the same one. */
export interface AdminContext {
  deps: AdminDeps;
  /** Writes one staff entry to the audit log (who, what, when, which order). */
  audit(staff: StaffIdentity, action: string, orderId: string | null, details?: Record<string, unknown>): Promise<void>;
  /** The order's published pictures, counted with the given executor (inside a transaction: the transaction). */
  activeCountIn(executor: Executor, orderId: string): Promise<number>;
  /** The order's published pictures, counted on deps.db. */
  activeCount(orderId: string): Promise<number>;
  /** The order, or 404 notFound. */
  requireOrder(orderId: string): Promise<OrderRow>;
}

export function createAdminContext(deps: AdminDeps): AdminContext {
  const { db } = deps;

  async function audit(staff: StaffIdentity, action: string, orderId: string | null, details?: Record<string, unknown>) {
    await db.insert(auditLog).values({ actorType: 'staff', staffUserId: staff.id, action, orderId, details: details ?? null, createdAt: deps.now() });
  }

  async function activeCountIn(executor: Executor, orderId: string): Promise<number> {
    const [row] = await executor.select({ n: count() }).from(generatedImages).where(and(eq(generatedImages.orderId, orderId), eq(generatedImages.status, 'active')));
    return Number(row?.n ?? 0);
  }

  async function activeCount(orderId: string): Promise<number> {
    const [row] = await db.select({ n: count() }).from(generatedImages).where(and(eq(generatedImages.orderId, orderId), eq(generatedImages.status, 'active')));
    return Number(row?.n ?? 0);
  }

  async function requireOrder(orderId: string): Promise<OrderRow> {
    const order = await createOrderRepository(db).find(orderId);
    if (!order) throw notFound('notFound');
    return order;
  }

  return { deps, audit, activeCountIn, activeCount, requireOrder };
}
