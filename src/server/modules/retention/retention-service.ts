// The 30-day deletion promise, kept by a job: photos of completed or cancelled orders 30 days later,
// unpaid drafts after 24 hours (docs/rules.md §6), a team member's unsent photos 30 days after joining.
// Every run is idempotent and driven by the database.
import { and, eq, inArray, isNotNull, isNull, lt, or } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { RETENTION } from '../../../domain/catalog.js';
import type { DatabaseHandle } from '../../db/client.js';
import { isDatabaseUnavailable } from '../../db/errors.js';
import { orders } from '../../db/schema.js';
import { createRateLimiter } from '../../http/rate-limit.js';
import { createJobQueue } from '../../jobs/queue.js';
import { DEFERRED_MAIL_QUEUE } from '../../mail/deferred-mail.js';
import { sweepAbandonedWrites } from '../../storage/intents.js';
import type { Storage } from '../../storage/storage.js';
import { purgeExpiredInvoices, purgeOrderPhotos } from './purge.js';

const DAY = 24 * 3600 * 1000;
/** A placed order with a payment still under way (an open page, a SEPA debit) is left alone this long. */
const PAYMENT_GRACE_DAYS = 14;
/** A sent mail's job is kept this long (staff may look at it); the mail itself stays in outgoing_mail. */
export const MAIL_JOB_KEEP_DAYS = 14;

export interface RetentionRun {
  purged: { orderId: string; orderNumber: string; reason: string; uploads: number; results: number; files: number }[];
  draftsDeleted: number;
  /** Files of uploads whose row never committed (storage/intents.ts). */
  abandonedFiles: number;
  /** Temporary files of interrupted writes (local disk). */
  temporaryFiles: number;
  /** Jobs of mails sent more than MAIL_JOB_KEEP_DAYS ago. */
  mailJobs: number;
}

/** A temporary file this old belongs to a write that was cut off (a write takes seconds). */
export const TEMPORARY_STALE_MS = 15 * 60 * 1000;

export function createRetentionService(deps: { db: DatabaseHandle; storage: Storage; now: () => Date; log?: FastifyBaseLogger }) {
  const db = deps.db.db;

  async function run(): Promise<RetentionRun> {
    const now = deps.now();
    const doneBefore = new Date(now.getTime() - RETENTION.daysAfterCompletion * DAY);
    const unpaidBefore = new Date(now.getTime() - RETENTION.unpaidDraftHours * 3600 * 1000);
    const unsentMemberBefore = new Date(now.getTime() - RETENTION.unsentMemberDays * DAY);
    const graceBefore = new Date(now.getTime() - PAYMENT_GRACE_DAYS * DAY);
    const due = await db
      .select({ id: orders.id, orderNumber: orders.orderNumber, status: orders.status, orderedAt: orders.orderedAt, paymentStatus: orders.paymentStatus })
      .from(orders)
      .where(
        and(
          isNull(orders.photosDeletedAt),
          or(
            and(eq(orders.status, 'completed'), isNotNull(orders.completedAt), lt(orders.completedAt, doneBefore)),
            and(eq(orders.status, 'cancelled'), isNotNull(orders.cancelledAt), lt(orders.cancelledAt, doneBefore)),
            // Unpaid: 24 h after the draft was made, or after the order button for a placed order; never while
            // a payment is under way (the session is kept until it is paid, failed or expired), up to a grace period.
            and(inArray(orders.paymentStatus, ['pending', 'failed']), eq(orders.status, 'created'), isNull(orders.orderedAt), isNull(orders.teamOrderId), lt(orders.createdAt, unpaidBefore)),
            // A team member's draft is paid for by the team: their photos wait for them longer, then go and free the seat.
            and(eq(orders.status, 'created'), isNull(orders.orderedAt), isNotNull(orders.teamOrderId), lt(orders.createdAt, unsentMemberBefore)),
            and(
              inArray(orders.paymentStatus, ['pending', 'failed']),
              eq(orders.status, 'created'),
              isNotNull(orders.orderedAt),
              lt(orders.orderedAt, unpaidBefore),
              or(isNull(orders.providerSessionId), lt(orders.orderedAt, graceBefore)),
            ),
          ),
        ),
      )
      .limit(500);
    const result: RetentionRun = { purged: [], draftsDeleted: 0, abandonedFiles: 0, temporaryFiles: 0, mailJobs: 0 };
    for (const order of due) {
      const unpaid = order.paymentStatus !== 'paid' && order.status === 'created';
      // A draft never ordered has no contract to keep: it goes entirely. A placed but unpaid order keeps its row.
      const deleteOrder = unpaid && !order.orderedAt;
      const reason = unpaid ? 'unpaidDraft' : 'retention';
      try {
        const counts = await purgeOrderPhotos({ db, storage: deps.storage, now: deps.now }, order.id, { reason, actorType: 'system', deleteOrder });
        if (!counts) continue;
        if (deleteOrder) result.draftsDeleted++;
        result.purged.push({ orderId: order.id, orderNumber: order.orderNumber, reason, ...counts });
      } catch (error) {
        // Without a database the rest would fail the same way: the run ends and is tried again soon.
        if (isDatabaseUnavailable(error)) throw error;
        deps.log?.error({ err: error, orderId: order.id }, 'retention purge failed; retried on the next run');
      }
    }
    await createRateLimiter(db, deps.now).prune();
    await purgeExpiredInvoices({ db, storage: deps.storage, now: deps.now });
    // Bytes of writes that never committed: a photo stored for an upload whose row never came, and the
    // temporary files of writes cut off by a crash.
    result.abandonedFiles = await sweepAbandonedWrites(db, deps.storage, now);
    result.temporaryFiles = await deps.storage.sweepTemporary(TEMPORARY_STALE_MS);
    result.mailJobs = await createJobQueue(db, deps.now).purgeFinished(DEFERRED_MAIL_QUEUE, new Date(now.getTime() - MAIL_JOB_KEEP_DAYS * DAY));
    if (result.purged.length || result.abandonedFiles || result.temporaryFiles || result.mailJobs) {
      deps.log?.info({ purged: result.purged.length, draftsDeleted: result.draftsDeleted, abandonedFiles: result.abandonedFiles, temporaryFiles: result.temporaryFiles, mailJobs: result.mailJobs }, 'retention run');
    }
    return result;
  }

  return { run };
}

export type RetentionService = ReturnType<typeof createRetentionService>;
