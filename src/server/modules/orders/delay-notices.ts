// The promised delivery time, kept or owned up to: a paid order whose photos are not released when the time
// its package promised has passed (business hours from payment, as every delivery claim counts them) owes the
// customer a word. Once per order a mail says so (the sender renders it from the database, its dedupe key keeps
// it single, also when every process runs this), and the status page says it as long as it lasts. Whatever made
// it late (a generator that gave up, a studio run that failed, a busy team), staff see the order as overdue on
// their dashboard. A redo the customer asked for has its own due time (requestRevision) and owes its own mail.
import { and, eq, isNotNull, isNull, lte, notExists, notInArray } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { addBusinessHours } from '../../../domain/business-hours.js';
import { deliveryHours, type PackageKey } from '../../../domain/catalog.js';
import type { Database } from '../../db/client.js';
import { orders, revisionRequests } from '../../db/schema.js';
import { deferMail } from '../../mail/deferred-mail.js';
import { extrasOf } from './order-repository.js';

export const PRODUCTION_DELAYED_MAIL = 'productionDelayed';
export const REDO_DELAYED_MAIL = 'redoDelayed';

/** When the photos were promised: the package's delivery time from payment (null: not paid, no package). */
export function promisedBy(order: { paidAt: Date | null; package: string | null; featureExtraVariants: boolean; featureExpressDelivery: boolean }): Date | null {
  if (!order.paidAt || !order.package) return null;
  return addBusinessHours(order.paidAt, deliveryHours(order.package as PackageKey, extrasOf(order)));
}

export function createDelayNotices(deps: { db: Database; now: () => Date; log: FastifyBaseLogger }) {
  /** Owes the notice for each paid order past its promised time; returns how many were owed this run. */
  async function run(): Promise<number> {
    const now = deps.now();
    const open = await deps.db
      .select({ id: orders.id, orderNumber: orders.orderNumber, paidAt: orders.paidAt, package: orders.package, featureExtraVariants: orders.featureExtraVariants, featureExpressDelivery: orders.featureExpressDelivery })
      .from(orders)
      // Not when the customer deleted their photos: production stopped, and staff write to them (tracking says so).
      // Not a team order itself: its members' orders are made (and promised) one by one.
      // Not while a redo is open: the order is in production again, but under the redo's own due time (below).
      .where(
        and(
          eq(orders.paymentStatus, 'paid'),
          notInArray(orders.status, ['completed', 'cancelled']),
          isNotNull(orders.paidAt),
          isNull(orders.photosDeletedAt),
          isNull(orders.seats),
          notExists(deps.db.select({ one: revisionRequests.id }).from(revisionRequests).where(and(eq(revisionRequests.orderId, orders.id), eq(revisionRequests.status, 'open')))),
        ),
      );
    let owed = 0;
    for (const order of open) {
      const due = promisedBy(order);
      if (!due || due > now) continue;
      await deferMail(deps.db, { kind: PRODUCTION_DELAYED_MAIL, key: `production-delayed:${order.id}`, orderId: order.id, data: { orderId: order.id } }, now);
      owed++;
    }
    // Redos past their own due time, while still open (staff answer them when done), photos kept.
    const lateRedos = await deps.db
      .select({ id: revisionRequests.id, orderId: revisionRequests.orderId })
      .from(revisionRequests)
      .innerJoin(orders, eq(orders.id, revisionRequests.orderId))
      .where(and(eq(revisionRequests.status, 'open'), lte(revisionRequests.dueAt, now), isNull(orders.photosDeletedAt), notInArray(orders.status, ['cancelled'])));
    for (const redo of lateRedos) {
      await deferMail(deps.db, { kind: REDO_DELAYED_MAIL, key: `redo-delayed:${redo.id}`, orderId: redo.orderId, data: { orderId: redo.orderId, revisionId: redo.id } }, now);
      owed++;
    }
    if (owed) deps.log.info({ overdue: owed }, 'delay notices owed for orders past their promised time');
    return owed;
  }
  return { run };
}
