// The provider's way back into the shop: its "completed" webhook, and (Cog) the upload address the container
// PUTs each output file to before its webhook.
import { randomBytes } from 'node:crypto';
import { and, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { GeneratorJobProgress } from '../../../domain/stored-json.js';
import { jobs } from '../../db/schema.js';
import type { ZodTypeProvider } from '../../http/zod-provider.js';
import { GeneratorError } from '../../generator/generator-error.js';
import { toPrediction, type Prediction } from '../../generator/provider.js';
import { GENERATOR_UPLOAD_PATH, verifyUploadToken } from '../../generator/upload-address.js';
import { verifyWebhook, verifyWebhookToken } from '../../generator/webhook-signature.js';
import { jobOf, type JobRow } from '../../jobs/queue.js';
import { noteIntent } from '../../storage/intents.js';
import { createOrderRepository, type OrderRow } from '../orders/order-repository.js';
import { GENERATOR_QUEUE, GENERATOR_WEBHOOK_PATH, MAX_UPLOAD_BYTES, pending, planFor, UPLOAD_PREFIX, type GeneratorContext } from './generator-context.js';
import { SELF_CHECK_QUEUE } from './generator-self-check.js';

type WebhookEnd = GeneratorJobProgress['webhook'];

export function createGeneratorWebhook(ctx: GeneratorContext): FastifyPluginAsync {
  const { deps } = ctx;
  const { db, storage, generator, now } = deps;

  /** Whether the call is the provider's: Replicate's signature, or the token in a Cog webhook's address. */
  async function verified(request: FastifyRequest, query: { prediction?: string; token?: string }, body: string): Promise<boolean> {
    const header = (name: string) => {
      const value = request.headers[name];
      return typeof value === 'string' ? value : undefined;
    };
    if (generator!.kind === 'replicate') return verifyWebhook(deps.webhookSecret!, { id: header('webhook-id'), timestamp: header('webhook-timestamp'), signature: header('webhook-signature') }, body, now());
    const { prediction, token } = query;
    return Boolean(prediction && token && verifyWebhookToken(deps.webhookSecret!, prediction, token));
  }

  /** Writes the end of a prediction into its job's progress, where the job (or the self-check) reads it. */
  async function note(jobId: number, webhook: NonNullable<WebhookEnd>): Promise<void> {
    await deps.queue.mergeProgress(jobId, { webhook });
  }

  /** An order's picture, checked and stored as soon as its prediction succeeded; the end the job learns, with the gate's verdict. */
  async function takePicture(request: FastifyRequest, job: JobRow, order: OrderRow, prediction: Prediction, end: WebhookEnd): Promise<WebhookEnd> {
    const progress = job.progress ?? {};
    const orderJob = jobOf(GENERATOR_QUEUE, job);
    if (!orderJob || prediction.status !== 'succeeded' || typeof progress.picture !== 'number') return end;
    const generation = orderJob.payload.generation;
    const picture = planFor(order, generation)[progress.picture];
    try {
      if (!picture) throw new GeneratorError(`picture ${progress.picture + 1} is not in this run's plan`);
      const outcome = await ctx.collect(order, generation, picture, progress.attempt ?? 0, prediction, await ctx.referencesOf(order));
      request.log.info({ orderId: order.id, predictionId: prediction.id, stored: outcome.stored }, 'generator picture taken from webhook');
      if (!outcome.stored && end) return { ...end, rejection: { reason: outcome.reason, ...(outcome.distance !== undefined ? { distance: outcome.distance } : {}) } };
      return end;
    } catch (error) {
      if (!(error instanceof GeneratorError)) throw error;
      // The job reports it to staff (for Cog it cannot learn it any other way).
      request.log.warn({ orderId: order.id, predictionId: prediction.id, err: error }, 'generator outputs refused');
      return { id: prediction.id, status: 'failed', error: error.message, ...(error.final ? { final: true } : {}) };
    }
  }

  /**
   * The provider's "completed" webhook: outputs are stored as soon as they exist. Replicate's call is signed
   * and only a hint (Replicate itself is asked what the prediction holds); a Cog container's call is the
   * result itself (there is nothing to ask), trusted by the token in the address we gave it.
   */
  function webhookRoute(app: FastifyInstance): void {
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
      if (!deps.webhookSecret || !generator) return reply.status(404).send({ error: { code: 'notFound', requestId: request.id } });
      const body = typeof request.body === 'string' ? request.body : '';
      const refuse = () => {
        request.log.warn({ event: 'generator_webhook_bad_signature', ip: request.ip }, 'generator webhook refused');
        return reply.status(400).send({ error: { code: 'badSignature', requestId: request.id } });
      };
      if (!(await verified(request, request.query, body))) return refuse();
      let reported: Prediction;
      try {
        reported = toPrediction(JSON.parse(body), request.query.prediction);
      } catch {
        return reply.status(400).send({ error: { code: 'badRequest', requestId: request.id } });
      }
      if (generator.kind === 'cog' && reported.id !== request.query.prediction) return refuse();
      const [job] = await db.select().from(jobs).where(and(inArray(jobs.queue, [GENERATOR_QUEUE, SELF_CHECK_QUEUE]), sql`${jobs.progress}->>'predictionId' = ${reported.id}`));
      if (!job) return reply.status(204).send();
      const prediction = generator.kind === 'replicate' ? await generator.check(reported.id, {}, null) : reported;
      const order = job.orderId ? await createOrderRepository(db).find(job.orderId) : null;
      let end: WebhookEnd = pending(prediction) ? undefined : { id: prediction.id, status: prediction.status, error: prediction.error, ...(prediction.predictTime !== undefined ? { predictTime: prediction.predictTime } : {}) };
      // Cog: the job learns at once that the prediction ended (so it stops repeating its PUT, which would start
      // it again), and waits while the picture is checked here.
      if (end && generator.kind === 'cog' && prediction.status === 'succeeded') await note(job.id, { ...end, collecting: Date.now() });
      // An order's picture (a self-check has no order and no picture of a plan).
      if (order) end = await takePicture(request, job, order, prediction, end);
      // Cog: the job learns the end only from here.
      if (end && generator.kind === 'cog') await note(job.id, end);
      return reply.status(204).send();
    });
  }

  /** A Cog container started with --upload-url (cogUploadUrl) PUTs each output file here before its webhook. */
  const uploadRoute: FastifyPluginAsync = async (uploads) => {
    // Raw bytes of any type: whether they are an image is the gate's business when the picture is read.
    uploads.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_UPLOAD_BYTES }, (_request, body, done) => done(null, body));
    const params = z.object({ token: z.string().max(100), filename: z.string().max(255) });
    const tokenFirst = async (request: FastifyRequest, reply: FastifyReply) => {
      const { token } = request.params as { token?: unknown };
      if (generator?.kind === 'cog' && deps.webhookSecret && typeof token === 'string' && verifyUploadToken(deps.webhookSecret, token)) return;
      request.log.warn({ event: 'generator_upload_refused', ip: request.ip }, 'generator upload refused');
      return reply.status(generator?.kind === 'cog' ? 400 : 404).send({ error: { code: generator?.kind === 'cog' ? 'badSignature' : 'notFound', requestId: request.id } });
    };
    uploads.withTypeProvider<ZodTypeProvider>().put(`${GENERATOR_UPLOAD_PATH}/:token/:filename`, { bodyLimit: MAX_UPLOAD_BYTES, onRequest: tokenFirst, schema: { params } }, async (request, reply) => {
      const predictionId = request.headers['x-prediction-id'];
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      if (typeof predictionId !== 'string' || !/^[a-z2-7]{26}$/.test(predictionId) || body.length === 0) return reply.status(400).send({ error: { code: 'badRequest', requestId: request.id } });
      // Only for a prediction a job is waiting for: nobody can park files here.
      const [job] = await db
        .select({ id: jobs.id })
        .from(jobs)
        .where(and(inArray(jobs.queue, [GENERATOR_QUEUE, SELF_CHECK_QUEUE]), sql`${jobs.status} in ('pending', 'running')`, sql`${jobs.progress}->>'predictionId' = ${predictionId}`));
      if (!job) return reply.status(404).send({ error: { code: 'notFound', requestId: request.id } });
      // Named so that listing gives them in the order they came (the output's order).
      const name = `${String(Date.now()).padStart(15, '0')}-${randomBytes(5).toString('hex').slice(0, 8)}`;
      const key = `${UPLOAD_PREFIX}/${predictionId}/${name}`;
      // Noted first: a file nobody reads (its job gave up) goes with the deletion job's sweep.
      await noteIntent(db, [key], now());
      const type = request.headers['content-type'];
      await storage.put(key, body, { contentType: typeof type === 'string' && /^[\w.+-]+\/[\w.+-]+$/.test(type) ? type : 'application/octet-stream' });
      request.log.info({ predictionId, bytes: body.length, file: request.params.filename.slice(0, 100) }, 'generator file uploaded');
      return reply.status(201).header('location', ctx.uploadAddress(key)).send();
    });
  };

  return async (app) => {
    webhookRoute(app);
    await app.register(uploadRoute);
  };
}
