// The external generator in the shop: a durable job sends the customer's photos (short-lived signed links)
// to the provider through the model's profile (one or more predictions), waits for each (Replicate: its signed
// webhook or reading the prediction, whichever comes first; Cog: its webhook, the only way a Cog container
// reports a result, and the files it PUTs to the shop's upload address, which also tell a prediction ended
// when its webhook is lost), and copies the outputs into our own storage at once as drafts for review
// (Replicate deletes them after an hour).
// One part a file (generator-predict.ts with generator-job.ts and generator-picture.ts, generator-webhook.ts,
// generator-start.ts, generator-self-check.ts), put together here into the one service the app uses. What
// the parts share is in generator-context.ts.
import { handlerOf } from '../../jobs/runner.js';
import { createGeneratorContext, GENERATOR_QUEUE, newPredictionId, type GeneratorDeps } from './generator-context.js';
import { createPredict } from './generator-predict.js';
import { createSelfCheck, SELF_CHECK_QUEUE } from './generator-self-check.js';
import { createGeneratorStart } from './generator-start.js';
import { createGeneratorWebhook } from './generator-webhook.js';

export function createGeneratorService(deps: GeneratorDeps) {
  const context = createGeneratorContext(deps);
  const { start, choose, enqueueFirst } = createGeneratorStart(context);

  const selfCheck = createSelfCheck({
    db: deps.db,
    storage: deps.storage,
    generator: deps.generator,
    inference: deps.inference,
    queue: deps.queue,
    publicUrl: deps.publicUrl,
    now: deps.now,
    log: deps.log,
    pollMs: context.pollMs,
    recheckMs: context.recheckMs,
    newPredictionId,
    webhookUrl: context.webhookUrl,
    uploadsOf: context.uploadsOf,
    dropUploads: context.dropUploads,
    async reported(jobId, predictionId) {
      const webhook = (await context.storedProgress(jobId)).webhook;
      return webhook?.id === predictionId && !webhook.collecting ? webhook : null;
    },
  });

  return {
    // Each prediction has its own deadline (PREDICTION_PATIENCE_MS); a run makes its pictures one after the other and
    // keeps each as it comes, so an attempt cut at two hours goes on where it stopped. The self-check waits for one
    // prediction at most 15 minutes.
    handlers: {
      ...handlerOf(GENERATOR_QUEUE, createPredict(context), { timeLimitMs: 2 * 60 * 60 * 1000 }),
      ...handlerOf(SELF_CHECK_QUEUE, selfCheck.handler, { timeLimitMs: 20 * 60 * 1000 }),
    },
    start,
    choose,
    enqueueFirst,
    webhookRoutes: createGeneratorWebhook(context),
    selfCheck: { start: selfCheck.start, latest: selfCheck.latest },
    configured: deps.generator !== null,
  };
}

export type GeneratorService = ReturnType<typeof createGeneratorService>;
