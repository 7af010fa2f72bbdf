// The generator job (queue GENERATOR_QUEUE): the order's pictures of one run, each made by generator-picture.ts,
// then the end of the run for staff, with the pictures the gate made it give up.
import { isInProduction } from '../../../domain/order-state.js';
import type { GeneratorJobProgress } from '../../../domain/stored-json.js';
import { GeneratorError } from '../../generator/generator-error.js';
import type { JobHandler } from '../../jobs/runner.js';
import { createOrderRepository, type OrderRow } from '../orders/order-repository.js';
import { GENERATOR_QUEUE, MAX_ATTEMPTS_PER_PICTURE, planFor, type GeneratorContext, type GeneratorPayload } from './generator-context.js';
import { openGeneratorJob, type GeneratorJob } from './generator-job.js';
import { makePicture } from './generator-picture.js';
import { markProductionStarted } from './studio-service.js';

/** The order, when its pictures are this run's to make; null: nothing to do. */
async function orderToMake(ctx: GeneratorContext, { orderId, generation }: GeneratorPayload): Promise<OrderRow | null> {
  const order = await createOrderRepository(ctx.deps.db).find(orderId);
  // Nothing for an order that is not in production, made another way now, or replaced by a newer run.
  if (!order || !isInProduction(order) || order.productionMode !== 'generator' || generation < order.studioGeneration) return null;
  // Never a prediction without the customer's photos: the provider would invent a stranger.
  if (order.photosDeletedAt) return null;
  return order;
}

/** The run's end in its progress; pictures given up end the job for staff. */
async function finish(job: GeneratorJob): Promise<void> {
  const { missing, plan } = job;
  await job.summary({ status: missing.size ? 'incomplete' : 'succeeded', predictionId: undefined, webhook: undefined });
  if (!missing.size) return;
  const numbers = [...missing].sort((a, b) => a - b).map((i) => i + 1);
  const stored = await job.ctx.storedPictures(job.order.id, job.generation, plan);
  // Asking the same model again at once would most likely be refused again: staff decide (their retry asks anew).
  throw new GeneratorError(
    `${numbers.length} of ${plan.length} pictures were discarded ${MAX_ATTEMPTS_PER_PICTURE} times by the gate (pictures ${numbers.join(', ')}; each attempt's reason is listed with the job). ${stored === 0 ? 'No picture became a draft' : `${stored} ${stored === 1 ? 'picture is' : 'pictures are'} drafts`}: review the photos, run the generator again or make the missing pictures another way.`,
    null,
    true,
  );
}

export function createPredict(ctx: GeneratorContext): JobHandler<GeneratorPayload, GeneratorJobProgress> {
  return async (job) => {
    const generator = ctx.deps.generator;
    if (!generator) throw new GeneratorError('no generator configured (GENERATOR)');
    // A redo (customer-orders) asks for some pictures of the run only.
    const { generation, indices } = job.payload;
    const order = await orderToMake(ctx, job.payload);
    if (!order) return;
    const plan = planFor(order, generation).filter((picture) => !indices || indices.includes(picture.index));
    const run = await openGeneratorJob(ctx, generator, job, order, plan);
    await markProductionStarted(ctx.deps.db, order.id, GENERATOR_QUEUE);
    for (const picture of plan) if ((await makePicture(run, picture)) === 'abandoned') return;
    await finish(run);
  };
}
