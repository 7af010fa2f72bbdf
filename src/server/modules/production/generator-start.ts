// How an order's generator job comes about: staff choose the generator or run it again (a new run), the
// payment of an order set to the generator enqueues its first, and staff send a job round again.
import { eq } from 'drizzle-orm';
import { isInProduction } from '../../../domain/order-state.js';
import type { GeneratorJobProgress, JobProgress } from '../../../domain/stored-json.js';
import type { Executor } from '../../db/client.js';
import { orders } from '../../db/schema.js';
import { conflict, notFound } from '../../http/errors.js';
import { createJobQueue } from '../../jobs/queue.js';
import { createOrderRepository } from '../orders/order-repository.js';
import { GENERATOR_QUEUE, type GeneratorContext } from './generator-context.js';

/**
 * Staff send a generator job round again: every picture not yet stored is asked for anew, with new predictions.
 * The gate's verdicts so far stay for staff to read (`earlier`), but no longer count against the pictures; the
 * attempts per picture go on counting, so each new prediction has a seed none before it had.
 */
export function retriedProgress(progress: JobProgress | null): GeneratorJobProgress {
  const old = progress ?? {};
  return { attempts: old.attempts ?? {}, earlier: [...(old.earlier ?? []), ...(old.discarded ?? [])], discarded: [], missing: [] };
}

export function createGeneratorStart(ctx: GeneratorContext) {
  const { db, generator, now } = ctx.deps;

  /**
   * Staff: the generator makes this order's pictures, starting now (a new run). `choose` (the mode menu)
   * also accepts an order not in production yet, where it starts after payment; a studio run under way
   * stops at its next draft. `start` (run again) insists on an order in production and no run under way.
   */
  async function run(orderId: string, notInProduction: 'refuse' | 'remember'): Promise<number | null> {
    if (!generator) throw conflict('generatorNotConfigured');
    return db.transaction(async (tx) => {
      const order = await createOrderRepository(tx).lock(orderId);
      if (!order) throw notFound('notFound');
      if (!isInProduction(order)) {
        if (notInProduction === 'refuse') throw conflict('orderLocked');
        await tx.update(orders).set({ productionMode: 'generator', updatedAt: now() }).where(eq(orders.id, orderId));
        return null;
      }
      const queue = createJobQueue(tx, now);
      if (notInProduction === 'refuse' && (await queue.activeFor(orderId))) throw conflict('jobRunning');
      const generation = order.studioGeneration + 1;
      await tx.update(orders).set({ studioGeneration: generation, productionMode: 'generator', updatedAt: now() }).where(eq(orders.id, orderId));
      return queue.enqueue({ queue: GENERATOR_QUEUE, payload: { orderId, generation }, orderId, dedupeKey: `${orderId}:${generation}:generator`, maxAttempts: 3 });
    });
  }
  const start = (orderId: string) => run(orderId, 'refuse');
  const choose = (orderId: string) => run(orderId, 'remember');

  /** After payment (in its transaction), for an order set to the generator. */
  async function enqueueFirst(tx: Executor, orderId: string): Promise<void> {
    await createJobQueue(tx, now).enqueue({ queue: GENERATOR_QUEUE, payload: { orderId, generation: 0 }, orderId, dedupeKey: `${orderId}:0:generator`, maxAttempts: 3 });
  }

  return { start, choose, enqueueFirst };
}
