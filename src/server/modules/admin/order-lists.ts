// The back office's lists: the order list (filtered by status, searched by order number or e-mail, counted up
// to a limit) and the dashboard (counts per status, orders waiting for their pictures by due time, team orders,
// open redo requests, new contact messages).
import { addBusinessHours } from '../../../domain/business-hours.js';
import { and, asc, count, desc, eq, ilike, inArray, isNotNull, isNull, or, sql } from 'drizzle-orm';
import { deliveryHours, requiredResultCount, type PackageKey } from '../../../domain/catalog.js';
import { ORDER_STATUSES, type OrderStatus } from '../../../domain/order-state.js';
import type { DashboardResponse, OrderListResponse } from '../../../domain/staff-api.js';
import { contactMessages, orders, revisionRequests } from '../../db/schema.js';
import { extrasOf } from '../orders/order-repository.js';
import type { AdminContext } from './admin-context.js';

export const PAGE_SIZE = 25;
/** The order list counts matching orders up to this many, then says "more than". */
export const COUNT_LIMIT = 1_000;

export function createOrderLists(ctx: AdminContext) {
  const { deps } = ctx;
  const { db } = deps;

  return {
    async list(input: { page: number; status?: OrderStatus; q?: string }): Promise<OrderListResponse> {
      const filters = [isNotNull(orders.orderedAt)];
      if (input.status) filters.push(eq(orders.status, input.status));
      const q = input.q?.trim();
      if (q) {
        const pattern = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        filters.push(or(ilike(orders.orderNumber, pattern), ilike(orders.email, pattern))!);
      }
      const where = and(...filters);
      // Counted up to a limit: an exact count would read every matching order (a year of them) on each page.
      const [countRow] = await db
        .select({ n: count() })
        .from(db.select({ one: sql`1` }).from(orders).where(where).limit(COUNT_LIMIT + 1).as('matching'));
      const counted = Number(countRow?.n ?? 0);
      const page = Math.max(1, input.page);
      // The page's ids first (read from an index alone, offset included), then those 25 orders and the count of
      // their published results: nothing is fetched or counted for the rows the offset skips.
      const pageRows = db
        .select({ id: orders.id, createdAt: orders.createdAt })
        .from(orders)
        .where(where)
        .orderBy(desc(orders.createdAt), desc(orders.id))
        .limit(PAGE_SIZE)
        .offset((page - 1) * PAGE_SIZE)
        .as('page_rows');
      const rows = await db
        .select({
          id: orders.id,
          orderNumber: orders.orderNumber,
          createdAt: orders.createdAt,
          email: orders.email,
          package: orders.package,
          status: orders.status,
          paymentStatus: orders.paymentStatus,
          totalCents: orders.totalCents,
          featureExtraVariants: orders.featureExtraVariants,
          // Written out with the alias: inside the subquery an unqualified "id" would mean the image's id.
          activeResults: sql<number>`(select count(*) from generated_images gi where gi.order_id = "page_rows"."id" and gi.status = 'active')`,
        })
        .from(pageRows)
        .innerJoin(orders, eq(orders.id, pageRows.id))
        .orderBy(desc(pageRows.createdAt), desc(pageRows.id));
      return {
        orders: rows.map((r) => ({
          id: r.id,
          orderNumber: r.orderNumber,
          createdAt: r.createdAt.toISOString(),
          email: r.email,
          package: r.package,
          status: r.status,
          paymentStatus: r.paymentStatus,
          totalCents: r.totalCents,
          activeResults: Number(r.activeResults),
          requiredResults: r.package ? requiredResultCount(r.package as PackageKey, r.featureExtraVariants ? ['extra_variants'] : []) : 0,
        })),
        total: Math.min(counted, COUNT_LIMIT),
        /** False when more orders match than were counted: "more than `total`". */
        totalExact: counted <= COUNT_LIMIT,
        page,
        pageSize: PAGE_SIZE,
      };
    },

    async dashboard(): Promise<DashboardResponse> {
      const now = deps.now();
      const counted = await db.select({ status: orders.status, n: count() }).from(orders).where(isNotNull(orders.orderedAt)).groupBy(orders.status);
      // One entry for each of ORDER_STATUSES (fromEntries does not say so itself).
      const counts = Object.fromEntries(ORDER_STATUSES.map((s) => [s, Number(counted.find((c) => c.status === s)?.n ?? 0)])) as Record<OrderStatus, number>;
      const waitingRows = await db
        .select()
        .from(orders)
        // A team order has no pictures of its own (its members' orders are listed, each with its due time).
        .where(and(inArray(orders.status, ['paid', 'in_progress']), eq(orders.paymentStatus, 'paid'), isNull(orders.seats)))
        .limit(500);
      const revisions = await db
        .select({
          id: revisionRequests.id,
          orderId: revisionRequests.orderId,
          orderNumber: orders.orderNumber,
          message: revisionRequests.message,
          imageIds: revisionRequests.imageIds,
          dueAt: revisionRequests.dueAt,
          createdAt: revisionRequests.createdAt,
        })
        .from(revisionRequests)
        .innerJoin(orders, eq(orders.id, revisionRequests.orderId))
        .where(eq(revisionRequests.status, 'open'))
        .orderBy(asc(revisionRequests.dueAt), asc(revisionRequests.createdAt));
      // Team orders (paid): their seats and how far their members are; members in the list carry their company.
      const teamRows = await db
        .select({
          id: orders.id,
          orderNumber: orders.orderNumber,
          company: orders.billingName,
          seats: orders.seats,
          paidAt: orders.paidAt,
          joined: sql<number>`(select count(*) from orders m where m.team_order_id = "orders"."id" and m.status <> 'cancelled')`,
          submitted: sql<number>`(select count(*) from orders m where m.team_order_id = "orders"."id" and m.payment_status = 'paid')`,
          delivered: sql<number>`(select count(*) from orders m where m.team_order_id = "orders"."id" and m.status = 'completed')`,
        })
        .from(orders)
        .where(and(isNotNull(orders.seats), eq(orders.paymentStatus, 'paid')))
        .orderBy(desc(orders.paidAt))
        .limit(100);
      const teamIds = [...new Set(waitingRows.map((o) => o.teamOrderId).filter((id): id is string => id !== null))];
      const companies = new Map(
        (teamIds.length ? await db.select({ id: orders.id, company: orders.billingName, orderNumber: orders.orderNumber }).from(orders).where(inArray(orders.id, teamIds)) : []).map((t) => [
          t.id,
          { orderId: t.id, orderNumber: t.orderNumber, company: t.company },
        ]),
      );
      const openRedos = new Map(revisions.filter((r) => r.dueAt).map((r) => [r.orderId, r.dueAt!]));
      const waiting = waitingRows
        .map((o) => {
          const extras = extrasOf(o);
          const hours = o.package ? deliveryHours(o.package as PackageKey, extras) : 48;
          // A redo is due on its own time (customer-orders requestRevision).
          const redoDue = openRedos.get(o.id);
          const dueAt = redoDue ?? addBusinessHours(o.paidAt ?? o.createdAt, hours);
          // The customer deleted their photos while the order was being made: the job stopped; staff must get in touch.
          const photosDeleted = o.photosDeletedAt !== null;
          return {
            id: o.id,
            orderNumber: o.orderNumber,
            email: o.email,
            package: o.package,
            status: o.status,
            paidAt: o.paidAt?.toISOString() ?? null,
            dueAt,
            overdue: dueAt < now,
            express: hours <= 12,
            photosDeleted,
            redo: redoDue !== undefined,
            team: o.teamOrderId ? (companies.get(o.teamOrderId) ?? null) : null,
          };
        })
        // Orders that cannot go on without staff first, then by due time.
        .sort((a, b) => Number(b.photosDeleted) - Number(a.photosDeleted) || a.dueAt.getTime() - b.dueAt.getTime())
        .map((w) => ({ ...w, dueAt: w.dueAt.toISOString() }));
      const messages = await db.select().from(contactMessages).where(eq(contactMessages.status, 'new')).orderBy(desc(contactMessages.createdAt)).limit(50);
      return {
        counts,
        waiting,
        teams: teamRows
          .filter((t) => Number(t.delivered) < (t.seats ?? 0))
          .map((t) => ({ ...t, joined: Number(t.joined), submitted: Number(t.submitted), delivered: Number(t.delivered), paidAt: t.paidAt?.toISOString() ?? null })),
        revisions: revisions.map(({ imageIds, ...r }) => ({ ...r, pictures: imageIds.length, dueAt: r.dueAt?.toISOString() ?? null, overdue: r.dueAt !== null && r.dueAt < now, createdAt: r.createdAt.toISOString() })),
        contactMessages: messages.map((m) => ({ id: m.id, name: m.name, email: m.email, message: m.message, createdAt: m.createdAt.toISOString() })),
      };
    },
  };
}
