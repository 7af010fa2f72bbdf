import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { ExtraKey } from '../../../domain/catalog.js';
import type { PhotoRefusalDetails } from '../../../domain/stored-json.js';
import { preparedPer, type Executor } from '../../db/client.js';
import { enqueueRow, type EnqueueOptions, type JobPayload } from '../../jobs/queue.js';
import { orderHistory, orderUploads, orders, photoChecks, storageIntents } from '../../db/schema.js';

export type OrderRow = typeof orders.$inferSelect;

/** The extras booked on an order, in catalogue order (stored as one flag column each). */
export function extrasOf(order: Pick<OrderRow, 'featureExtraVariants' | 'featureExpressDelivery'>): ExtraKey[] {
  return [...(order.featureExtraVariants ? (['extra_variants'] as const) : []), ...(order.featureExpressDelivery ? (['express_delivery'] as const) : [])];
}
export type UploadRow = typeof orderUploads.$inferSelect;
export type PhotoCheckRow = typeof photoChecks.$inferSelect;
export type HistoryInput = Omit<typeof orderHistory.$inferInsert, 'id' | 'createdAt' | 'orderId'>;

/** What recordPhotoCheck did: recorded it, or why the order takes no photo now. */
export type PhotoCheckRoom = 'recorded' | 'orderNotFound' | 'orderLocked' | 'checkoutOpen' | 'tooManyPhotos';

const p = sql.placeholder;

/**
 * recordPhotoCheck's statement, prepared once per database handle: each connection parses and plans it once (it
 * runs for every photo of an upload rush, where building and planning it anew cost more than running it). The
 * order's checks (the database function photo_check_room), the check's row, its job (for the photo's order) and
 * the settled note of its file; written only when there is room.
 *
 * photo_check_room must run once per photo (it counts the order's photos and locks the order's row). drizzle's
 * $with cannot write `as materialized`, so this relies on PostgreSQL's rule: a WITH query that is read more than
 * once (here by `inserted` and by the final select) or that calls a volatile function (photo_check_room is
 * volatile) is computed once and kept, never folded into the queries that read it.
 */
const photoCheckStatement = preparedPer((db) => {
  const room = db
    .$with('room', { verdict: sql<string>`verdict`.as('verdict') })
    .as(sql`select photo_check_room(${p('orderId')}::uuid, ${p('max')}::integer) as verdict`);
  const inserted = db.$with('inserted', {}).as(
    sql`insert into ${photoChecks} (id, order_id, file_name, storage_key, status, created_at)
        select ${p('id')}::uuid, ${p('orderId')}::uuid, ${p('fileName')}::text, ${p('storageKey')}::text, 'checking', ${p('createdAt')}::timestamptz
        from room where verdict = 'room'
        returning id`,
  );
  const queued = db.$with('queued', {}).as(
    enqueueRow(sql`inserted`, {
      queue: p('queue'),
      payloadJson: p('payloadJson'),
      orderId: p('orderId'),
      dedupeKey: p('dedupeKey'),
      maxAttempts: p('maxAttempts'),
      runAt: p('runAt'),
      createdAt: p('createdAt'),
    }),
  );
  const settled = db
    .$with('settled', {})
    .as(sql`delete from ${storageIntents} where ${storageIntents.key} = ${p('storageKey')}::text and exists (select 1 from inserted)`);
  return db.with(room, inserted, queued, settled).select({ verdict: room.verdict }).from(room).prepare('photo_check_record');
});

/** Data access for orders; every function takes the database or a transaction. */
export function createOrderRepository(db: Executor) {
  return {
    async insert(values: typeof orders.$inferInsert): Promise<OrderRow> {
      const [row] = await db.insert(orders).values(values).returning();
      return row!;
    },
    async find(id: string): Promise<OrderRow | null> {
      const [row] = await db.select().from(orders).where(eq(orders.id, id));
      return row ?? null;
    },
    /** Reads the order and locks its row until the transaction ends (PostgreSQL; PGlite runs one transaction at a time). */
    async lock(id: string): Promise<OrderRow | null> {
      const [row] = await db.select().from(orders).where(eq(orders.id, id)).for('update');
      return row ?? null;
    },
    async update(id: string, values: Partial<typeof orders.$inferInsert>): Promise<OrderRow> {
      const [row] = await db
        .update(orders)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(orders.id, id))
        .returning();
      return row!;
    },
    async uploads(orderId: string): Promise<UploadRow[]> {
      return db.select().from(orderUploads).where(eq(orderUploads.orderId, orderId)).orderBy(asc(orderUploads.uploadOrder));
    },
    async uploadCount(orderId: string): Promise<number> {
      const [row] = await db.select({ n: count() }).from(orderUploads).where(eq(orderUploads.orderId, orderId));
      return Number(row?.n ?? 0);
    },
    async nextUploadOrder(orderId: string): Promise<number> {
      const [row] = await db
        .select({ next: sql<number>`coalesce(max(${orderUploads.uploadOrder}) + 1, 0)` })
        .from(orderUploads)
        .where(eq(orderUploads.orderId, orderId));
      return Number(row?.next ?? 0);
    },
    async insertUpload(values: typeof orderUploads.$inferInsert): Promise<UploadRow> {
      const [row] = await db.insert(orderUploads).values(values).returning();
      return row!;
    },
    async findUpload(orderId: string, uploadId: string): Promise<UploadRow | null> {
      const [row] = await db
        .select()
        .from(orderUploads)
        .where(and(eq(orderUploads.orderId, orderId), eq(orderUploads.id, uploadId)));
      return row ?? null;
    },
    async deleteUpload(uploadId: string): Promise<void> {
      await db.delete(orderUploads).where(eq(orderUploads.id, uploadId));
    },
    /** The order's photos, accepted and still being checked, in one statement (the limit of UPLOAD_LIMITS.maxPhotos counts both). */
    async photoCount(orderId: string): Promise<number> {
      const [row] = await db
        .select({
          n: sql<number>`(select count(*) from ${orderUploads} where ${orderUploads.orderId} = ${orderId}) + (select count(*) from ${photoChecks} where ${photoChecks.orderId} = ${orderId} and ${photoChecks.status} = 'checking')`,
        })
        .from(orders)
        .where(eq(orders.id, orderId));
      return Number(row?.n ?? 0);
    },
    /** Photos of the order still waiting for their check: they count towards the most an order takes. */
    async checkingCount(orderId: string): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(photoChecks)
        .where(and(eq(photoChecks.orderId, orderId), eq(photoChecks.status, 'checking')));
      return Number(row?.n ?? 0);
    },
    async photoChecks(orderId: string, status: PhotoCheckRow['status']): Promise<PhotoCheckRow[]> {
      return db
        .select()
        .from(photoChecks)
        .where(and(eq(photoChecks.orderId, orderId), eq(photoChecks.status, status)))
        .orderBy(asc(photoChecks.createdAt));
    },
    async findPhotoCheck(id: string, orderId?: string): Promise<PhotoCheckRow | null> {
      const [row] = await db
        .select()
        .from(photoChecks)
        .where(orderId ? and(eq(photoChecks.id, id), eq(photoChecks.orderId, orderId)) : eq(photoChecks.id, id));
      return row ?? null;
    },
    /**
     * A photo that waits for its check, recorded in one statement when its order takes it: under the order's row
     * lock (the database function photo_check_room, migration 0018) the order is still editable, has no open
     * payment page, and its photos and the checks under way are below `max`; then the check is inserted, its job
     * queued and its file's note settled. Otherwise nothing is written and the answer says why.
     */
    async recordPhotoCheck<Payload extends JobPayload>(
      values: { id: string; orderId: string; fileName: string; storageKey: string; createdAt: Date },
      max: number,
      job: EnqueueOptions<Payload>,
    ): Promise<PhotoCheckRoom> {
      const rows = await photoCheckStatement(db).execute({
        orderId: values.orderId,
        max,
        id: values.id,
        fileName: values.fileName,
        storageKey: values.storageKey,
        createdAt: values.createdAt.toISOString(),
        queue: job.queue,
        payloadJson: JSON.stringify(job.payload),
        dedupeKey: job.dedupeKey ?? null,
        maxAttempts: job.maxAttempts ?? 5,
        runAt: (job.runAt ?? values.createdAt).toISOString(),
      });
      const verdict = rows[0]?.verdict;
      if (verdict === 'room') return 'recorded';
      if (verdict === 'orderNotFound' || verdict === 'orderLocked' || verdict === 'checkoutOpen' || verdict === 'tooManyPhotos') return verdict;
      throw new Error(`photo_check_room answered ${String(verdict)}`);
    },
    /** Removes a check still under way; false when it is gone or already decided. */
    async takePhotoCheck(id: string): Promise<boolean> {
      const rows = await db
        .delete(photoChecks)
        .where(and(eq(photoChecks.id, id), eq(photoChecks.status, 'checking')))
        .returning({ id: photoChecks.id });
      return rows.length > 0;
    },
    async refusePhotoCheck(id: string, code: string, details: PhotoRefusalDetails | null, at: Date): Promise<boolean> {
      const rows = await db
        .update(photoChecks)
        .set({ status: 'refused', code, details, finishedAt: at })
        .where(and(eq(photoChecks.id, id), eq(photoChecks.status, 'checking')))
        .returning({ id: photoChecks.id });
      return rows.length > 0;
    },
    async deletePhotoCheck(id: string): Promise<void> {
      await db.delete(photoChecks).where(eq(photoChecks.id, id));
    },
    async addHistory(orderId: string, entry: HistoryInput): Promise<void> {
      await db.insert(orderHistory).values({ ...entry, orderId });
    },
    async history(orderId: string) {
      return db.select().from(orderHistory).where(eq(orderHistory.orderId, orderId)).orderBy(asc(orderHistory.createdAt), asc(orderHistory.id));
    },
  };
}

export type OrderRepository = ReturnType<typeof createOrderRepository>;
