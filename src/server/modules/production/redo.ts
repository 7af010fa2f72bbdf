// A redo before accepting (customer-orders): new drafts for the pictures the customer named, made the way the
// order's pictures are made (studio, generator or staff by hand), in a new generation so that they differ
// from what was delivered. Called inside the transaction that records the revision.
import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { orders, type generatedImages } from '../../db/schema.js';
import { createJobQueue } from '../../jobs/queue.js';
import type { OrderRow } from '../orders/order-repository.js';
import { GENERATOR_QUEUE } from './generator-context.js';
import { formatOf, redoSourceOf, STUDIO_QUEUE } from './studio-service.js';
import type { RedoChanges } from '../../../studio/redo-reason.js';

type ImageRow = typeof generatedImages.$inferSelect;

/** The job that makes the new drafts, or null where staff make them by hand (the dashboard shows the revision). */
export async function enqueueRedo(tx: Executor, order: OrderRow, images: ImageRow[], now: Date, changes: RedoChanges = {}): Promise<number | null> {
  if (order.productionMode !== 'studio' && order.productionMode !== 'generator') return null;
  const generation = order.studioGeneration + 1;
  await tx.update(orders).set({ studioGeneration: generation, updatedAt: now }).where(eq(orders.id, order.id));
  const queue = createJobQueue(tx, () => now);
  if (order.productionMode === 'studio') {
    // One new draft per picture, in its format, from a new combination of photo, backdrop and framing, changed as
    // the customer's reason asks where the studio can (redo-reason.ts).
    return queue.enqueue({
      queue: STUDIO_QUEUE,
      payload: { orderId: order.id, generation, formats: images.map(formatOf), from: images.map(redoSourceOf), changes },
      orderId: order.id,
      dedupeKey: `${order.id}:${generation}:redo`,
    });
  }
  // The generator makes a picture in every format: the named pictures' slots again, with the new run's looks.
  const slots = images.map((image) => image.variant?.index).filter((index): index is number => typeof index === 'number');
  const indices = [...new Set(slots.length ? slots : images.map((_, n) => n))].sort((a, b) => a - b);
  return queue.enqueue({ queue: GENERATOR_QUEUE, payload: { orderId: order.id, generation, indices }, orderId: order.id, dedupeKey: `${order.id}:${generation}:generator`, maxAttempts: 3 });
}
