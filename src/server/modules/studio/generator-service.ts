// The external generator in the shop: a durable job sends the customer's photos (short-lived signed links)
// to the provider through the model's profile (one or more predictions), waits for each (Replicate: its signed
// webhook or reading the prediction, whichever comes first; Cog: its webhook, the only way a Cog container
// reports a result, while the job repeats the idempotent PUT to learn the prediction still runs), and copies
// the outputs into our own storage at once as drafts for review (Replicate deletes them after an hour).
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { OUTPUT_DPI, requiredResultCount, type PackageKey } from '../../../domain/catalog.js';
import { isInProduction } from '../../../domain/order-state.js';
import { aiXmp } from '../../../studio/metadata.js';
import type { Database, Executor } from '../../db/client.js';
import { generatedImages, jobs, orders } from '../../db/schema.js';
import { conflict, notFound } from '../../http/errors.js';
import type { ZodTypeProvider } from '../../http/zod-provider.js';
import { GeneratorError, toPrediction, type ImageGenerator, type Prediction, type PredictionStatus } from '../../generator/provider.js';
import { verifyWebhook, verifyWebhookToken, webhookToken } from '../../generator/webhook-signature.js';
import { createJobQueue, type JobQueue } from '../../jobs/queue.js';
import type { JobHandler } from '../../jobs/runner.js';
import type { Storage } from '../../storage/storage.js';
import { createOrderRepository, extrasOf, type OrderRow } from '../orders/order-repository.js';
import { processForeignImage } from '../uploads/image-processing.js';
import { photoQualityView } from './photo-quality.js';
import { draftStorageKey, markProductionStarted } from './studio-service.js';

export const GENERATOR_QUEUE = 'generator.predict';
export const GENERATOR_WEBHOOK_PATH = '/api/generator/webhook';
/** How long one prediction may take before the job cancels it and gives up this attempt (the retry starts anew). */
const PREDICTION_PATIENCE_MS = 15 * 60 * 1000;
/** The provider fetches the photos within this time. */
const INPUT_LINK_SECONDS = 15 * 60;
const MAX_OUTPUT_LONG_SIDE = 4000;
/** Application photos are portraits in 4:5; each profile fits this into its model's limits. */
const WANTED_SIZE = { width: 1024, height: 1280 };
const NEGATIVE_PROMPT = 'cartoon, illustration, painting, drawing, 3d render, deformed face, distorted eyes, extra limbs, extra fingers, text, watermark, logo, blurry, low quality, nsfw';

export interface GeneratorDeps {
  db: Database;
  storage: Storage;
  generator: ImageGenerator | null;
  queue: JobQueue;
  publicUrl: string;
  webhookSecret: string | null;
  now: () => Date;
  log: FastifyBaseLogger;
  /** Between two looks at the database (and, on Replicate, at the prediction). */
  pollMs?: number;
  /** Cog: between two repeats of the idempotent PUT that tell the prediction still runs. */
  recheckMs?: number;
}

interface GeneratorProgress {
  /** The prediction under way, and which of the profile's calls it is. */
  predictionId?: string;
  call?: number;
  calls?: number;
  /** Images that call answers with. */
  expected?: number;
  status?: string;
  done?: number;
  total?: number;
  /** Cog: the end its webhook reported (the container has no other way to tell). */
  webhook?: { id: string; status: PredictionStatus; error: string | null };
}

/** What the customer booked, as an instruction for the generative model. */
export function generatorPrompt(order: Pick<OrderRow, 'styleBase' | 'refineLocation' | 'refineOutfit' | 'gender'>): string {
  const style = { professional: 'classic, serious business look', casual: 'relaxed, approachable look', creative: 'modern, expressive look' }[order.styleBase ?? 'professional'] ?? 'classic look';
  const place = { office: 'a modern office, softly out of focus', studio: 'a neutral studio backdrop', creative: 'a colourful designed backdrop' }[order.refineLocation ?? 'studio'] ?? 'a neutral studio backdrop';
  const outfit = { business: 'a suit, blazer or business dress', smart_casual: 'a shirt or blouse without tie', casual: 'a sweater or t-shirt' }[order.refineOutfit ?? ''] ?? 'their own clothes';
  return `Professional head-and-shoulders application photo of the person in the input photos, keeping their face and identity exactly; ${style}; wearing ${outfit}; in front of ${place}; even soft light; looking into the camera.`;
}

/** The same order and run get the same seed (a retry makes the same pictures); another run gets others. */
function seedFor(orderId: string, generation: number): number {
  return createHash('sha256').update(`${orderId}:${generation}`).digest().readUInt32BE(0) & 0x7fffffff;
}

/** A prediction id as Cog's docs recommend: 16 random bytes, base32, lower case, no padding (26 characters). */
function newPredictionId(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  let bits = 0;
  let value = 0;
  let id = '';
  for (const byte of randomBytes(16)) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      id += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return bits > 0 ? id + alphabet[(value << (5 - bits)) & 31] : id;
}

const outputKey = (generation: number, call: number, index: number) => `external:${generation}:${call}:${index}`;
const pending = (prediction: Prediction) => prediction.status === 'starting' || prediction.status === 'processing';

export function createGeneratorService(deps: GeneratorDeps) {
  const { db, storage, generator, now } = deps;
  const pollMs = deps.pollMs ?? 3000;
  const recheckMs = deps.recheckMs ?? 60_000;

  async function collectedFor(orderId: string, generation: number, call: number | null): Promise<number> {
    const pattern = call === null ? `external:${generation}:%` : `${outputKey(generation, call, 0).slice(0, -1)}%`;
    const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(generatedImages).where(and(eq(generatedImages.orderId, orderId), sql`${generatedImages.generationKey} like ${pattern}`));
    return row?.n ?? 0;
  }

  /**
   * Copies a finished prediction's outputs into our storage as drafts; running it twice adds nothing.
   * The profile reads the model's output (a wrong profile or a model answering something else is an error
   * here); each output arrives as bytes from `generator.fetchOutput` (an address or a data: URI).
   */
  async function collect(order: OrderRow, generation: number, call: number, prediction: Prediction, expected: number): Promise<number> {
    if (!generator) throw new GeneratorError('no generator configured');
    const references = generator.profile.outputs(prediction.output, expected);
    let stored = 0;
    for (const [index, reference] of references.entries()) {
      const key = outputKey(generation, call, index);
      const [existing] = await db.select({ id: generatedImages.id }).from(generatedImages).where(and(eq(generatedImages.orderId, order.id), eq(generatedImages.generationKey, key)));
      if (existing) continue;
      const raw = await generator.fetchOutput(reference);
      // Checked like an upload, decoded and encoded again like every image we keep: no foreign metadata,
      // our AI marking, 300 DPI.
      const processed = await processForeignImage(raw, (image) =>
        image
          .resize({ width: MAX_OUTPUT_LONG_SIDE, height: MAX_OUTPUT_LONG_SIDE, fit: 'inside', withoutEnlargement: true })
          .flatten({ background: '#ffffff' })
          .jpeg({ quality: 92 })
          .withMetadata({ density: OUTPUT_DPI })
          .withExif({ IFD0: { Software: generator.name, ImageDescription: 'AI-generated by an image generation model' } })
          .withXmp(aiXmp('generated', `AI-generated by ${generator.name} from the customer\u2019s photos.`, generator.name)),
      );
      if (!processed.ok) throw new GeneratorError(`output ${index + 1} of prediction ${prediction.id} is not an image we can use: ${processed.code}`);
      const { buffer: data, width, height } = processed.image;
      const storageKey = draftStorageKey(order.id, key);
      await storage.put(storageKey, data, { contentType: 'image/jpeg' });
      await db
        .insert(generatedImages)
        .values({
          id: randomUUID(),
          orderId: order.id,
          fileName: `${order.orderNumber}-generator-${call + 1}-${index + 1}.jpg`,
          fileSize: data.length,
          mimeType: 'image/jpeg',
          width,
          height,
          storageKey,
          generationType: 'external',
          generationKey: key,
          status: 'draft',
          variant: { generator: generator.name, profile: generator.profile.key, predictionId: prediction.id, generation, call, index },
          createdAt: now(),
          updatedAt: now(),
        })
        .onConflictDoNothing();
      stored++;
    }
    return stored;
  }

  function webhookUrl(predictionId: string): string | null {
    if (!deps.webhookSecret || !generator) return null;
    // Replicate signs its calls; a Cog container does not, so its address carries a token only we can make.
    if (generator.kind === 'replicate') return `${deps.publicUrl}${GENERATOR_WEBHOOK_PATH}`;
    return `${deps.publicUrl}${GENERATOR_WEBHOOK_PATH}?prediction=${predictionId}&token=${webhookToken(deps.webhookSecret, predictionId)}`;
  }

  async function storedProgress(jobId: number): Promise<GeneratorProgress> {
    const [row] = await db.select({ progress: jobs.progress }).from(jobs).where(eq(jobs.id, jobId));
    return (row?.progress as GeneratorProgress | null) ?? {};
  }

  const predict: JobHandler = async (job, context) => {
    if (!generator) throw new GeneratorError('no generator configured (GENERATOR)');
    const { orderId, generation } = job.payload as { orderId: string; generation: number };
    const repo = createOrderRepository(db);
    const order = await repo.find(orderId);
    // Nothing for an order that is not in production, made another way now, or replaced by a newer run.
    if (!order || !isInProduction(order) || order.productionMode !== 'generator' || generation < order.studioGeneration) return;
    // Never a prediction without the customer's photos: the provider would invent a stranger.
    if (order.photosDeletedAt) return;
    const total = requiredResultCount(order.package as PackageKey, extrasOf(order));
    let progress: GeneratorProgress = (job.progress as GeneratorProgress | null) ?? {};
    // Keeps what the webhook route noted meanwhile (it writes into the same progress).
    const save = async (next: GeneratorProgress) => {
      const { webhook } = await storedProgress(job.id);
      progress = { ...next, ...(webhook && webhook.id === next.predictionId ? { webhook } : {}) };
      await context.progress({ ...progress });
    };

    const uploads = await repo.uploads(order.id);
    if (uploads.length === 0) throw new GeneratorError('the order has no photos to send');
    // Best first (a model that takes one face photo takes the first): the upload gate's clean photos, then
    // those with fewer warnings, unchecked ones last; otherwise in the customer's order.
    const rank = (quality: unknown) => {
      const view = photoQualityView(quality);
      return view.verdict === 'ok' ? 0 : view.verdict === 'warning' ? view.warnings.length : 100;
    };
    const best = uploads.map((u, i) => ({ u, i, rank: rank(u.quality) })).sort((a, b) => a.rank - b.rank || a.i - b.i);
    // The provider fetches them from outside: links served by this shop need its public address.
    const faces = await Promise.all(
      best.map(async ({ u }) => {
        const link = await storage.signedUrl(u.storageKey, { expiresInSeconds: INPUT_LINK_SECONDS });
        return link.startsWith('/') ? `${deps.publicUrl}${link}` : link;
      }),
    );
    const calls = generator.profile.calls({ faces, prompt: generatorPrompt(order), negativePrompt: NEGATIVE_PROMPT, count: total, seed: seedFor(order.id, generation), ...WANTED_SIZE });

    for (const [call, { input, outputs }] of calls.entries()) {
      if ((await collectedFor(order.id, generation, call)) >= outputs) continue;
      // A job that runs again (its worker died, the provider was slow) continues with its prediction.
      let prediction: Prediction | null = null;
      if (progress.call === call && progress.predictionId) {
        const id = progress.predictionId;
        const reported = (await storedProgress(job.id)).webhook;
        prediction = reported?.id === id ? { id, status: reported.status, output: null, error: reported.error } : await generator.check(id, input, webhookUrl(id));
      }
      if (!prediction || prediction.status === 'failed' || prediction.status === 'canceled') {
        const id = newPredictionId();
        // Cog takes our id: noted first, so that a webhook faster than the answer finds its job.
        if (generator.kind === 'cog') await save({ predictionId: id, call, calls: calls.length, expected: outputs, status: 'starting', done: await collectedFor(order.id, generation, null), total });
        prediction = await generator.create(input, { id, webhookUrl: webhookUrl(id) });
        await save({ predictionId: prediction.id, call, calls: calls.length, expected: outputs, status: prediction.status, done: await collectedFor(order.id, generation, null), total });
        if (call === 0) await markProductionStarted(db, order.id, GENERATOR_QUEUE);
      }

      // Staff may choose another way, or a newer run, while the provider works: its outputs are not wanted.
      const wanted = async () => {
        const latest = await repo.find(orderId);
        return latest !== null && isInProduction(latest) && latest.productionMode === 'generator' && generation >= latest.studioGeneration;
      };
      const deadline = Date.now() + PREDICTION_PATIENCE_MS;
      let lastCheck = Date.now();
      while (pending(prediction)) {
        // The webhook may have stored the outputs already: then there is nothing to wait for.
        if ((await collectedFor(order.id, generation, call)) >= outputs) break;
        const reported = (await storedProgress(job.id)).webhook;
        if (reported?.id === prediction.id) {
          prediction = { ...prediction, status: reported.status, error: reported.error };
          break;
        }
        if (!(await wanted())) {
          // Abandoned: it would run on (and cost) for nothing.
          await generator.cancel(prediction.id);
          return;
        }
        if (Date.now() > deadline) {
          await generator.cancel(prediction.id).catch(() => {});
          throw new GeneratorError(`prediction ${prediction.id} still ${prediction.status} after ${PREDICTION_PATIENCE_MS / 60000} minutes (canceled)`);
        }
        await new Promise((resolve) => setTimeout(resolve, pollMs));
        if (generator.readable) prediction = await generator.check(prediction.id, input, null);
        else if (Date.now() - lastCheck >= recheckMs) {
          // Cog: the same PUT again creates nothing while the prediction runs; a container that lost it
          // (restarted) starts it again, and its webhook then brings the result.
          lastCheck = Date.now();
          const again = await generator.check(prediction.id, input, webhookUrl(prediction.id));
          if (pending(again)) prediction = again;
        }
        await save({ ...progress, status: prediction.status });
      }
      if ((await collectedFor(order.id, generation, call)) >= outputs) {
        // Cog: a repeated PUT may have started it again just as the first run ended.
        if (generator.kind === 'cog') await generator.cancel(prediction.id);
        continue;
      }
      if (prediction.status === 'failed' || prediction.status === 'canceled') throw new GeneratorError(`prediction ${prediction.id} ${prediction.status}: ${prediction.error ?? 'no reason given'}`);
      if (!(await wanted())) return;
      if (generator.kind === 'cog') throw new GeneratorError(`prediction ${prediction.id} ended without its outputs being stored (its webhook did not bring them)`);
      await collect(order, generation, call, prediction, outputs);
    }
    await save({ ...progress, status: 'succeeded', done: await collectedFor(order.id, generation, null), total });
  };

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

  /**
   * The provider's "completed" webhook: outputs are stored as soon as they exist. Replicate's call is signed
   * and only a hint (Replicate itself is asked what the prediction holds); a Cog container's call is the
   * result itself (there is nothing to ask), trusted by the token in the address we gave it.
   */
  const webhookRoutes: FastifyPluginAsync = async (app) => {
    // Cog sends file outputs inline as data: URIs, several MB each.
    const bodyLimit = generator?.kind === 'cog' ? 100 * 1024 * 1024 : 256 * 1024;
    app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit }, (_request, body, done) => done(null, body));
    // Only a Cog container's webhook address carries these.
    const querystring = z.object({ prediction: z.string().max(64).optional(), token: z.string().max(100).optional() }).strict();
    // A Cog call's token is checked before its (large) body is read.
    const tokenFirst = async (request: FastifyRequest, reply: FastifyReply) => {
      if (generator?.kind !== 'cog' || !deps.webhookSecret) return;
      const { prediction, token } = request.query as { prediction?: unknown; token?: unknown };
      if (typeof prediction === 'string' && typeof token === 'string' && verifyWebhookToken(deps.webhookSecret, prediction, token)) return;
      request.log.warn({ event: 'generator_webhook_bad_signature', ip: request.ip }, 'generator webhook refused');
      return reply.status(400).send({ error: { code: 'badSignature', requestId: request.id } });
    };
    app.withTypeProvider<ZodTypeProvider>().post(GENERATOR_WEBHOOK_PATH, { bodyLimit, onRequest: tokenFirst, schema: { querystring } }, async (request, reply) => {
      const header = (name: string) => {
        const value = request.headers[name];
        return typeof value === 'string' ? value : undefined;
      };
      if (!deps.webhookSecret || !generator) return reply.status(404).send({ error: { code: 'notFound', requestId: request.id } });
      const body = typeof request.body === 'string' ? request.body : '';
      const refuse = () => {
        request.log.warn({ event: 'generator_webhook_bad_signature', ip: request.ip }, 'generator webhook refused');
        return reply.status(400).send({ error: { code: 'badSignature', requestId: request.id } });
      };
      let reported: Prediction;
      if (generator.kind === 'replicate') {
        if (!(await verifyWebhook(deps.webhookSecret, { id: header('webhook-id'), timestamp: header('webhook-timestamp'), signature: header('webhook-signature') }, body, now()))) return refuse();
      } else {
        const { prediction, token } = request.query;
        if (!prediction || !token || !verifyWebhookToken(deps.webhookSecret, prediction, token)) return refuse();
      }
      try {
        reported = toPrediction(JSON.parse(body), request.query.prediction);
      } catch {
        return reply.status(400).send({ error: { code: 'badRequest', requestId: request.id } });
      }
      if (generator.kind === 'cog' && reported.id !== request.query.prediction) return refuse();
      const [job] = await db.select().from(jobs).where(and(eq(jobs.queue, GENERATOR_QUEUE), sql`${jobs.progress}->>'predictionId' = ${reported.id}`));
      if (!job) return reply.status(204).send();
      const progress = (job.progress as GeneratorProgress | null) ?? {};
      const prediction = generator.kind === 'replicate' ? await generator.check(reported.id, {}, null) : reported;
      const order = job.orderId ? await createOrderRepository(db).find(job.orderId) : null;
      let end: GeneratorProgress['webhook'] = pending(prediction) ? undefined : { id: prediction.id, status: prediction.status, error: prediction.error };
      if (order && prediction.status === 'succeeded') {
        try {
          const stored = await collect(order, (job.payload as { generation: number }).generation, progress.call ?? 0, prediction, progress.expected ?? 0);
          request.log.info({ orderId: order.id, predictionId: prediction.id, stored }, 'generator outputs stored from webhook');
        } catch (error) {
          if (!(error instanceof GeneratorError)) throw error;
          // The job reports it to staff (for Cog it cannot learn it any other way).
          request.log.warn({ orderId: order.id, predictionId: prediction.id, err: error }, 'generator outputs refused');
          end = { id: prediction.id, status: 'failed', error: error.message };
        }
      }
      // Cog: the job learns the end only from here.
      if (end && generator.kind === 'cog') {
        await db.update(jobs).set({ progress: sql`coalesce(${jobs.progress}, '{}'::jsonb) || ${JSON.stringify({ webhook: end })}::jsonb` }).where(eq(jobs.id, job.id));
      }
      return reply.status(204).send();
    });
  };

  /** After payment (in its transaction), for an order set to the generator. */
  async function enqueueFirst(tx: Executor, orderId: string): Promise<void> {
    await createJobQueue(tx, now).enqueue({ queue: GENERATOR_QUEUE, payload: { orderId, generation: 0 }, orderId, dedupeKey: `${orderId}:0:generator`, maxAttempts: 3 });
  }

  return { handlers: { [GENERATOR_QUEUE]: predict } as Record<string, JobHandler>, start, choose, enqueueFirst, webhookRoutes, configured: generator !== null };
}

export type GeneratorService = ReturnType<typeof createGeneratorService>;
