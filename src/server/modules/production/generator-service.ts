// The external generator in the shop: a durable job sends the customer's photos (short-lived signed links)
// to the provider through the model's profile (one or more predictions), waits for each (Replicate: its signed
// webhook or reading the prediction, whichever comes first; Cog: its webhook, the only way a Cog container
// reports a result, and the files it PUTs to the shop's upload address, which also tell a prediction ended
// when its webhook is lost), and copies the outputs into our own storage at once as drafts for review
// (Replicate deletes them after an hour).
import { randomBytes } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { BaseStyle, ExtraKey, Gender, Location, Outfit, PackageKey } from '../../../domain/catalog.js';
import { isInProduction } from '../../../domain/order-state.js';
import type { DiscardedPicture, GeneratorJobProgress, JobProgress, StoredPhotoQuality } from '../../../domain/stored-json.js';
import type { Inference } from '../../../studio/inference/client.js';
import type { FaceDescriptor } from '../../../studio/inference/types.js';
import { planGeneration, seedFor, type PlannedPicture } from '../../../studio/prompts.js';
import type { Database, Executor } from '../../db/client.js';
import { jobs, orders } from '../../db/schema.js';
import { conflict, notFound } from '../../http/errors.js';
import type { ZodTypeProvider } from '../../http/zod-provider.js';
import { GeneratorError, toPrediction, type ImageGenerator, type Prediction } from '../../generator/provider.js';
import { GENERATOR_UPLOAD_PATH, verifyUploadToken } from '../../generator/upload-address.js';
import { verifyWebhook, verifyWebhookToken, webhookToken } from '../../generator/webhook-signature.js';
import { createJobQueue, jobOf, type JobQueue, type Queue } from '../../jobs/queue.js';
import { handlerOf, type JobHandler } from '../../jobs/runner.js';
import { noteIntent, settleIntent } from '../../storage/intents.js';
import { StorageNotFoundError, type Storage } from '../../storage/storage.js';
import { createOrderRepository, extrasOf, type OrderRow } from '../orders/order-repository.js';
import { pictureStored, referenceDescriptors, storeGeneratedPicture, type PictureOutcome } from './generated-drafts.js';
import { photoQualityView } from './photo-quality.js';
import { createSelfCheck, SELF_CHECK_QUEUE } from './generator-self-check.js';
import { markProductionStarted } from './studio-service.js';

/** A generator job: the order's pictures of one run (generation), or some of them (a redo's slots). */
export interface GeneratorPayload {
  orderId: string;
  generation: number;
  /** Only these pictures of the run's plan; all when missing. */
  indices?: number[];
}

/** The generator's queue: a job asks for a run's pictures; its progress notes each prediction and the gate's verdicts. */
export const GENERATOR_QUEUE: Queue<GeneratorPayload, GeneratorJobProgress> = 'generator.predict';
export const GENERATOR_WEBHOOK_PATH = '/api/generator/webhook';
/** Storage: the files a Cog container uploaded, per prediction, until they are checked and stored as drafts. */
const UPLOAD_PREFIX = 'generator-uploads';
/** One uploaded file: a model's PNG of 1024 × 1280 is 2–3 MB. */
const MAX_UPLOAD_BYTES = 25 * 1024 * 1024;
/** How long one prediction may take before the job cancels it and gives up this attempt (the retry starts anew). */
const PREDICTION_PATIENCE_MS = 15 * 60 * 1000;
/** The provider fetches the photos within this time. */
const INPUT_LINK_SECONDS = 15 * 60;
/** Application photos are portraits in 4:5; each profile fits this into its model's limits (a model without a size input, as InstantID, takes the face photo's shape). */
const WANTED_SIZE = { width: 1024, height: 1280 };
/**
 * How often one picture is asked for (each time with a new seed) while the gate discards what comes back:
 * not the customer, no face, several faces, blurred. Then the run goes on without it and staff are told.
 */
export const MAX_ATTEMPTS_PER_PICTURE = 3;
/** Cog: how long the webhook may take to check and store a picture before the job asks for it again. */
const COLLECT_PATIENCE_MS = 2 * 60 * 1000;

export interface GeneratorDeps {
  db: Database;
  storage: Storage;
  generator: ImageGenerator | null;
  /** Checks every picture before it becomes a draft (output-gate.ts). */
  inference: Inference;
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

/** The plan of one run: the order's booking as the catalogue's pictures (prompts.ts). */
/**
 * Staff send a generator job round again: every picture not yet stored is asked for anew, with new predictions.
 * The gate's verdicts so far stay for staff to read (`earlier`), but no longer count against the pictures; the
 * attempts per picture go on counting, so each new prediction has a seed none before it had.
 */
export function retriedProgress(progress: JobProgress | null): GeneratorJobProgress {
  const old = progress ?? {};
  return { attempts: old.attempts ?? {}, earlier: [...(old.earlier ?? []), ...(old.discarded ?? [])], discarded: [], missing: [] };
}

export function planFor(order: OrderRow, generation: number): PlannedPicture[] {
  return planGeneration({
    package: order.package as PackageKey,
    extras: extrasOf(order) as ExtraKey[],
    style: (order.styleBase as BaseStyle | null) ?? 'professional',
    location: order.refineLocation as Location | null,
    outfit: order.refineOutfit as Outfit | null,
    gender: (order.gender as Gender | null) ?? 'diverse',
    generation,
    orderId: order.id,
  });
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

const pending = (prediction: Prediction) => prediction.status === 'starting' || prediction.status === 'processing';

export function createGeneratorService(deps: GeneratorDeps) {
  const { db, storage, generator, now } = deps;
  const pollMs = deps.pollMs ?? 3000;
  const recheckMs = deps.recheckMs ?? 60_000;

  /** Pictures of this run with their drafts stored. */
  async function storedPictures(orderId: string, generation: number, plan: PlannedPicture[]): Promise<number> {
    let n = 0;
    for (const picture of plan) if (await pictureStored(db, orderId, generation, picture.index)) n++;
    return n;
  }

  /**
   * Takes a finished prediction's picture through the gate into drafts; running it twice adds nothing. The
   * profile reads the model's output (a wrong profile or a model answering something else is an error here);
   * the picture arrives as bytes from `generator.fetchOutput` (an address or a data: URI), is checked (one
   * sharp face, the customer's own) and, if it passes, stored in the three formats (generated-drafts.ts).
   */
  async function collect(order: OrderRow, generation: number, picture: PlannedPicture, attempt: number, prediction: Prediction, references: FaceDescriptor[]): Promise<PictureOutcome> {
    if (!generator) throw new GeneratorError('no generator configured');
    if (await pictureStored(db, order.id, generation, picture.index)) return { stored: true, distance: NaN, drafts: 0 };
    const [reference] = generator.profile.outputs(prediction.output, 1);
    let outcome: PictureOutcome;
    try {
      const raw = await readPicture(prediction.id, reference!);
      outcome = await storeGeneratedPicture({ db, storage, inference: deps.inference, now, order, references, generatorName: generator.name, predictionId: prediction.id, generation, picture, attempt, raw });
    } finally {
      // Checked and stored, refused or unreadable: the container's upload has served (a picture is asked anew).
      await dropUploads(prediction.id);
    }
    // Bytes that are no image are the model's or the profile's fault, not bad luck: staff must see it.
    if (!outcome.stored && outcome.reason === 'notAnImage') throw new GeneratorError(`the picture of prediction ${prediction.id} is not an image we can use`);
    return outcome;
  }

  /** The storage key of a file a Cog container uploaded for this prediction, from the address we answered it. */
  function uploadedKey(predictionId: string, reference: string): string | null {
    const prefix = `${deps.publicUrl}${GENERATOR_UPLOAD_PATH}/files/`;
    if (!reference.startsWith(prefix)) return null;
    const [id, name, ...rest] = reference.slice(prefix.length).split('/');
    if (id !== predictionId || !name || rest.length || !/^[0-9]{15}-[a-z0-9]{8}$/.test(name)) throw new GeneratorError(`prediction ${predictionId} answered a file of another prediction: ${reference.slice(0, 200)}`);
    return `${UPLOAD_PREFIX}/${id}/${name}`;
  }

  /** One output as bytes: a file the container uploaded to us, an address at the provider, or a data: URI. */
  async function readPicture(predictionId: string, reference: string): Promise<Buffer> {
    const key = uploadedKey(predictionId, reference);
    if (key) {
      try {
        return await storage.getBuffer(key);
      } catch (error) {
        if (error instanceof StorageNotFoundError) throw new GeneratorError(`the file prediction ${predictionId} uploaded is gone (${reference.slice(0, 200)})`);
        throw error;
      }
    }
    return generator!.fetchOutput(reference);
  }

  /** The files a Cog container uploaded for one prediction, oldest first. */
  const uploadsOf = (predictionId: string) => storage.listKeys(`${UPLOAD_PREFIX}/${predictionId}/`);
  /** Their addresses, as the container reported them (the output it would have sent by webhook). */
  const uploadAddress = (key: string) => `${deps.publicUrl}${GENERATOR_UPLOAD_PATH}/files/${key.slice(UPLOAD_PREFIX.length + 1)}`;

  /** A prediction's uploaded files, once read (or refused): gone, and their notes settled. */
  async function dropUploads(predictionId: string): Promise<void> {
    if (generator?.kind !== 'cog') return;
    const keys = await uploadsOf(predictionId);
    if (!keys.length) return;
    await storage.deletePrefix(`${UPLOAD_PREFIX}/${predictionId}/`);
    await settleIntent(db, keys);
  }

  /** The order's reference faces (the upload gate's descriptors); without any nothing could be checked. */
  async function referencesOf(order: OrderRow): Promise<FaceDescriptor[]> {
    const references = referenceDescriptors(await createOrderRepository(db).uploads(order.id));
    if (references.length === 0) throw new GeneratorError('no photo of this order has a face description (photos checked before the identity check): run the photo check again or make the pictures another way');
    return references;
  }

  function webhookUrl(predictionId: string): string | null {
    if (!deps.webhookSecret || !generator) return null;
    // Replicate signs its calls; a Cog container does not, so its address carries a token only we can make.
    if (generator.kind === 'replicate') return `${deps.publicUrl}${GENERATOR_WEBHOOK_PATH}`;
    return `${deps.publicUrl}${GENERATOR_WEBHOOK_PATH}?prediction=${predictionId}&token=${webhookToken(deps.webhookSecret, predictionId)}`;
  }

  /** The progress a generator job or a self-check (both note their prediction and its webhook) has stored now. */
  async function storedProgress(jobId: number): Promise<JobProgress> {
    const [row] = await db.select({ progress: jobs.progress }).from(jobs).where(eq(jobs.id, jobId));
    return row?.progress ?? {};
  }

  const predict: JobHandler<GeneratorPayload, GeneratorJobProgress> = async (job) => {
    if (!generator) throw new GeneratorError('no generator configured (GENERATOR)');
    // A redo (customer-orders) asks for some pictures of the run only.
    const { orderId, generation, indices } = job.payload;
    const repo = createOrderRepository(db);
    const order = await repo.find(orderId);
    // Nothing for an order that is not in production, made another way now, or replaced by a newer run.
    if (!order || !isInProduction(order) || order.productionMode !== 'generator' || generation < order.studioGeneration) return;
    // Never a prediction without the customer's photos: the provider would invent a stranger.
    if (order.photosDeletedAt) return;
    const plan = planFor(order, generation).filter((picture) => !indices || indices.includes(picture.index));
    const references = await referencesOf(order);
    let progress: GeneratorJobProgress = job.progress ?? {};
    // The webhook route writes the end of a prediction into the same progress, from another request: one
    // statement keeps it (when it is about the prediction under way), so neither write can undo the other.
    const save = async (next: GeneratorJobProgress) => {
      const { webhook: _ignored, ...rest } = next;
      await db
        .update(jobs)
        .set({
          progress: sql`${JSON.stringify(rest)}::jsonb || case when ${jobs.progress}->'webhook'->>'id' = ${next.predictionId ?? ''} then jsonb_build_object('webhook', ${jobs.progress}->'webhook') else '{}'::jsonb end`,
          updatedAt: now(),
        })
        // Only while this worker holds the job (as queue.progress does): a worker whose lease ran out writes nothing.
        .where(and(eq(jobs.id, job.id), job.lockedBy ? eq(jobs.lockedBy, job.lockedBy) : sql`true`));
      progress = await storedProgress(job.id);
    };
    const attempts: Record<string, number> = { ...(progress.attempts ?? {}) };
    const discarded: DiscardedPicture[] = [...(progress.discarded ?? [])];
    const missing = new Set<number>(progress.missing ?? []);
    const summary = async (extra: GeneratorJobProgress) =>
      save({ ...progress, ...extra, pictures: plan.length, total: plan.length, done: await storedPictures(order.id, generation, plan), attempts, discarded, missing: [...missing] });

    const uploads = await repo.uploads(order.id);
    if (uploads.length === 0) throw new GeneratorError('the order has no photos to send');
    // Best first (a model that takes one face photo takes the first): the upload gate's clean photos, then
    // those with fewer warnings, unchecked ones last; otherwise in the customer's order.
    const rank = (quality: StoredPhotoQuality | null) => {
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
    /** One picture of the plan, one attempt: one prediction of one image, with the attempt's own seed. */
    const callFor = (picture: PlannedPicture, attempt: number) => {
      const [call] = generator.profile.calls({ faces, prompt: picture.prompt, negativePrompt: picture.negativePrompt, count: 1, seed: seedFor(order.id, generation, picture.index, attempt), ...WANTED_SIZE });
      if (!call) throw new GeneratorError(`profile "${generator.profile.key}" makes no call for one picture`);
      return call;
    };
    // Staff may choose another way, or a newer run, while the provider works: its outputs are not wanted.
    const wanted = async () => {
      const latest = await repo.find(orderId);
      return latest !== null && isInProduction(latest) && latest.productionMode === 'generator' && generation >= latest.studioGeneration;
    };

    /**
     * A Cog container runs one prediction at a time and answers 409 while its slot is taken (another order's
     * prediction, or ours just ending while its webhook is delivered): this one waits its turn.
     */
    const createWhenFree = async (input: Record<string, unknown>, id: string): Promise<Prediction> => {
      const until = Date.now() + PREDICTION_PATIENCE_MS;
      for (;;) {
        try {
          return await generator.create(input, { id, webhookUrl: webhookUrl(id) });
        } catch (error) {
          if (!(error instanceof GeneratorError) || error.status !== 409 || Date.now() > until) throw error;
          if (!(await wanted())) throw error;
          await new Promise((resolve) => setTimeout(resolve, pollMs));
        }
      }
    };

    await markProductionStarted(db, order.id, GENERATOR_QUEUE);
    for (const picture of plan) {
      while (!missing.has(picture.index) && !(await pictureStored(db, order.id, generation, picture.index))) {
        const used = attempts[picture.index] ?? 0;
        let attempt = used;
        let prediction: Prediction | null = null;
        // A job that runs again (its worker died, the provider was slow) continues with its prediction.
        const resuming = progress.picture === picture.index && progress.predictionId && progress.attempt === used - 1 ? progress.predictionId : null;
        if (resuming) {
          attempt = used - 1;
          const { input } = callFor(picture, attempt);
          const reported = (await storedProgress(job.id)).webhook;
          // Cog: a PUT would start a prediction that has ended anew (the loop below learns its end another way).
          prediction =
            reported?.id === resuming
              ? { id: resuming, status: reported.status, output: null, error: reported.error }
              : generator.kind === 'cog'
                ? { id: resuming, status: 'processing', output: null, error: null }
                : await generator.check(resuming, input, webhookUrl(resuming));
          // Failed, canceled, or (Cog) ended without its picture being stored: a new attempt.
          if (prediction.status === 'failed' || prediction.status === 'canceled' || (reported?.id === resuming && reported.status === 'succeeded')) prediction = null;
        }
        if (!prediction) {
          if (discarded.filter((d) => d.picture === picture.index).length >= MAX_ATTEMPTS_PER_PICTURE) {
            missing.add(picture.index);
            deps.log.warn({ orderId: order.id, picture: picture.index, attempts: used }, 'generator picture given up: every attempt was discarded by the gate');
            break;
          }
          attempt = used;
          attempts[picture.index] = used + 1;
          const id = newPredictionId();
          // Cog takes our id: noted first, so that a webhook faster than the answer finds its job.
          if (generator.kind === 'cog') await summary({ predictionId: id, picture: picture.index, attempt, status: 'starting', webhook: undefined });
          prediction = await createWhenFree(callFor(picture, attempt).input, id);
          await summary({ predictionId: prediction.id, picture: picture.index, attempt, status: prediction.status });
        }
        const { input } = callFor(picture, attempt);

        const deadline = Date.now() + PREDICTION_PATIENCE_MS;
        let lastCheck = Date.now();
        let rejection: { reason: string; distance?: number } | null = null;
        // Cog: what the last looks found without a webhook (files uploaded, the container idle), and since when.
        let filesSeen = false;
        let idleSeen = false;
        let fromUploads = false;
        let finalFailure = false;
        for (;;) {
          // The webhook may have stored the picture already: then there is nothing to wait for.
          if (await pictureStored(db, order.id, generation, picture.index)) break;
          // Cog: the webhook reports the end (and, once it has checked the picture, the gate's verdict).
          const reported = (await storedProgress(job.id)).webhook;
          const reportedHere = reported?.id === prediction.id ? reported : null;
          if (reportedHere?.collecting && Date.now() - reportedHere.collecting > COLLECT_PATIENCE_MS) {
            throw new GeneratorError(`prediction ${prediction.id} ended, but its webhook did not finish checking the picture within ${COLLECT_PATIENCE_MS / 1000} s; it is asked for again`);
          }
          if (reportedHere && !reportedHere.collecting) {
            prediction = { ...prediction, status: reportedHere.status, error: reportedHere.error };
            rejection = reportedHere.rejection ?? null;
            finalFailure = reportedHere.final === true;
            break;
          }
          if (!reportedHere && !pending(prediction)) break;
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
          // It ended and its webhook is checking the picture: nothing to ask the container (a repeated PUT
          // now would start it again).
          if (reportedHere) continue;
          if (generator.readable) prediction = await generator.check(prediction.id, input, null);
          else if (Date.now() - lastCheck >= recheckMs) {
            // Cog has no way to read a prediction, and a repeated PUT would start one that has ended anew (a
            // second paid run). Its files, uploaded just before its webhook is sent, tell it ended; still there
            // at the next look with no webhook, the webhook is lost and the job takes them itself. An idle
            // container at two looks in a row, with neither files nor webhook, ended it without reaching us.
            lastCheck = Date.now();
            const files = await uploadsOf(prediction.id);
            if (files.length && filesSeen) {
              deps.log.warn({ orderId: order.id, predictionId: prediction.id }, 'generator webhook lost: the picture is taken from the files the container uploaded');
              prediction = { ...prediction, status: 'succeeded', output: files.map(uploadAddress) };
              fromUploads = true;
              break;
            }
            filesSeen = files.length > 0;
            const health = filesSeen ? 'BUSY' : await generator.health!();
            // Its webhook may have come just now, after this round's first look: then that is the end.
            const late = health === 'READY' && idleSeen ? (await storedProgress(job.id)).webhook : undefined;
            if (late?.id === prediction.id || (await pictureStored(db, order.id, generation, picture.index))) continue;
            if (health === 'READY' && idleSeen) {
              throw new GeneratorError(
                `prediction ${prediction.id} no longer runs on the Cog container, and neither its webhook nor its files reached the shop: the container cannot reach ${deps.publicUrl} (its webhook and --upload-url), or it restarted during the prediction. It is not asked for again on its own, so that nothing is paid for twice: check the container's log and network, then run the generator again`,
                null,
                true,
              );
            }
            idleSeen = health === 'READY';
            if (health === 'SETUP_FAILED' || health === 'DEFUNCT' || health === 'UNHEALTHY') throw new GeneratorError(`the Cog container reports ${health} while prediction ${prediction.id} was to run`);
          }
          await save({ ...progress, status: prediction.status });
        }
        if (await pictureStored(db, order.id, generation, picture.index)) break;
        if (!rejection) {
          if (prediction.status === 'failed' || prediction.status === 'canceled') throw new GeneratorError(`prediction ${prediction.id} ${prediction.status}: ${prediction.error ?? 'no reason given'}`, null, finalFailure);
          if (!(await wanted())) return;
          if (generator.kind === 'cog' && !fromUploads) throw new GeneratorError(`prediction ${prediction.id} ended without its picture being stored (its webhook did not bring it)`);
          const outcome = await collect(order, generation, picture, attempt, prediction, references);
          if (!outcome.stored) rejection = { reason: outcome.reason, ...(outcome.distance !== undefined ? { distance: outcome.distance } : {}) };
        }
        if (rejection) {
          // Never a draft: noted for staff, and the picture is asked for again with a new seed.
          discarded.push({ picture: picture.index, attempt, ...rejection });
          deps.log.info({ orderId: order.id, picture: picture.index, attempt, reason: rejection.reason, distance: rejection.distance }, 'generator picture discarded by the gate');
          // Its prediction is settled: the next round asks anew instead of resuming it.
          await summary({ status: 'discarded', predictionId: undefined, webhook: undefined });
        }
      }
    }
    await summary({ status: missing.size ? 'incomplete' : 'succeeded', predictionId: undefined, webhook: undefined });
    if (missing.size) {
      const numbers = [...missing].sort((a, b) => a - b).map((i) => i + 1);
      const stored = await storedPictures(order.id, generation, plan);
      // Asking the same model again at once would most likely be refused again: staff decide (their retry asks anew).
      throw new GeneratorError(
        `${numbers.length} of ${plan.length} pictures were discarded ${MAX_ATTEMPTS_PER_PICTURE} times by the gate (pictures ${numbers.join(', ')}; each attempt's reason is listed with the job). ${stored === 0 ? 'No picture became a draft' : `${stored} ${stored === 1 ? 'picture is' : 'pictures are'} drafts`}: review the photos, run the generator again or make the missing pictures another way.`,
        null,
        true,
      );
    }
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
      const [job] = await db.select().from(jobs).where(and(inArray(jobs.queue, [GENERATOR_QUEUE, SELF_CHECK_QUEUE]), sql`${jobs.progress}->>'predictionId' = ${reported.id}`));
      if (!job) return reply.status(204).send();
      const progress = job.progress ?? {};
      const prediction = generator.kind === 'replicate' ? await generator.check(reported.id, {}, null) : reported;
      const order = job.orderId ? await createOrderRepository(db).find(job.orderId) : null;
      let end: GeneratorJobProgress['webhook'] = pending(prediction) ? undefined : { id: prediction.id, status: prediction.status, error: prediction.error, ...(prediction.predictTime !== undefined ? { predictTime: prediction.predictTime } : {}) };
      const note = async (webhook: NonNullable<GeneratorJobProgress['webhook']>) => {
        await db.update(jobs).set({ progress: sql`coalesce(${jobs.progress}, '{}'::jsonb) || ${JSON.stringify({ webhook })}::jsonb` }).where(eq(jobs.id, job.id));
      };
      // Cog: the job learns at once that the prediction ended (so it stops repeating its PUT, which would start
      // it again), and waits while the picture is checked here.
      if (end && generator.kind === 'cog' && prediction.status === 'succeeded') await note({ ...end, collecting: Date.now() });
      // An order's picture (a self-check has no order and no picture of a plan).
      const orderJob = jobOf(GENERATOR_QUEUE, job);
      if (orderJob && order && prediction.status === 'succeeded' && typeof progress.picture === 'number') {
        const generation = orderJob.payload.generation;
        const picture = planFor(order, generation)[progress.picture];
        try {
          if (!picture) throw new GeneratorError(`picture ${progress.picture + 1} is not in this run's plan`);
          const outcome = await collect(order, generation, picture, progress.attempt ?? 0, prediction, await referencesOf(order));
          if (!outcome.stored && end) end = { ...end, rejection: { reason: outcome.reason, ...(outcome.distance !== undefined ? { distance: outcome.distance } : {}) } };
          request.log.info({ orderId: order.id, predictionId: prediction.id, stored: outcome.stored }, 'generator picture taken from webhook');
        } catch (error) {
          if (!(error instanceof GeneratorError)) throw error;
          // The job reports it to staff (for Cog it cannot learn it any other way).
          request.log.warn({ orderId: order.id, predictionId: prediction.id, err: error }, 'generator outputs refused');
          end = { id: prediction.id, status: 'failed', error: error.message, ...(error.final ? { final: true } : {}) };
        }
      }
      // Cog: the job learns the end only from here.
      if (end && generator.kind === 'cog') await note(end);
      return reply.status(204).send();
    });

    // A Cog container started with --upload-url (cogUploadUrl) PUTs each output file here before its webhook.
    await app.register(async (uploads) => {
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
        return reply.status(201).header('location', uploadAddress(key)).send();
      });
    });
  };

  /** After payment (in its transaction), for an order set to the generator. */
  async function enqueueFirst(tx: Executor, orderId: string): Promise<void> {
    await createJobQueue(tx, now).enqueue({ queue: GENERATOR_QUEUE, payload: { orderId, generation: 0 }, orderId, dedupeKey: `${orderId}:0:generator`, maxAttempts: 3 });
  }

  const selfCheck = createSelfCheck({
    db,
    storage,
    generator,
    inference: deps.inference,
    queue: deps.queue,
    publicUrl: deps.publicUrl,
    now,
    log: deps.log,
    pollMs,
    recheckMs,
    newPredictionId,
    webhookUrl,
    uploadsOf,
    dropUploads,
    async reported(jobId, predictionId) {
      const webhook = (await storedProgress(jobId)).webhook;
      return webhook?.id === predictionId && !webhook.collecting ? webhook : null;
    },
  });

  return {
    handlers: { ...handlerOf(GENERATOR_QUEUE, predict), ...handlerOf(SELF_CHECK_QUEUE, selfCheck.handler) },
    start,
    choose,
    enqueueFirst,
    webhookRoutes,
    selfCheck: { start: selfCheck.start, latest: selfCheck.latest },
    configured: generator !== null,
  };
}

export type GeneratorService = ReturnType<typeof createGeneratorService>;
