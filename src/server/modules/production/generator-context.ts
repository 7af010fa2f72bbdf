// What the generator's operations share (generator-predict.ts and the files it uses, generator-webhook.ts,
// generator-start.ts, and the self-check through generator-service.ts): their dependencies, the queue and its
// limits, a run's plan, and the helpers more than one of them needs: reading and storing a finished prediction's
// picture, the files a Cog container uploaded, the webhook address, a job's stored progress.
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { BaseStyle, ExtraKey, Gender, Location, Outfit, PackageKey } from '../../../domain/catalog.js';
import type { GeneratorJobProgress, JobProgress } from '../../../domain/stored-json.js';
import type { Inference } from '../../../studio/inference/client.js';
import type { FaceDescriptor } from '../../../studio/inference/types.js';
import { planGeneration, type PlannedPicture } from '../../../studio/prompts.js';
import type { Database } from '../../db/client.js';
import { jobs } from '../../db/schema.js';
import { GeneratorError } from '../../generator/generator-error.js';
import type { ImageGenerator, Prediction } from '../../generator/provider.js';
import { GENERATOR_UPLOAD_PATH } from '../../generator/upload-address.js';
import { webhookToken } from '../../generator/webhook-signature.js';
import type { JobQueue, Queue } from '../../jobs/queue.js';
import { settleIntent } from '../../storage/intents.js';
import { StorageNotFoundError, type Storage } from '../../storage/storage.js';
import { createOrderRepository, extrasOf, type OrderRow } from '../orders/order-repository.js';
import { pictureStored, referenceDescriptors, storeGeneratedPicture, type PictureOutcome } from './generated-drafts.js';

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
export const UPLOAD_PREFIX = 'generator-uploads';
/** One uploaded file: a model's PNG of 1024 × 1280 is 2–3 MB. */
export const MAX_UPLOAD_BYTES = 25 * 1024 * 1024;
/** How long one prediction may take before the job cancels it and gives up this attempt (the retry starts anew). */
export const PREDICTION_PATIENCE_MS = 15 * 60 * 1000;
/** The provider fetches the photos within this time. */
export const INPUT_LINK_SECONDS = 15 * 60;
/** Application photos are portraits in 4:5; each profile fits this into its model's limits (a model without a size input, as InstantID, takes the face photo's shape). */
export const WANTED_SIZE = { width: 1024, height: 1280 };
/**
 * How often one picture is asked for (each time with a new seed) while the gate discards what comes back:
 * not the customer, no face, several faces, blurred. Then the run goes on without it and staff are told.
 */
export const MAX_ATTEMPTS_PER_PICTURE = 3;
/** Cog: how long the webhook may take to check and store a picture before the job asks for it again. */
export const COLLECT_PATIENCE_MS = 2 * 60 * 1000;

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
export function newPredictionId(): string {
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

export const pending = (prediction: Prediction) => prediction.status === 'starting' || prediction.status === 'processing';

/** Made once per generator service; every operation gets the same one. */
export interface GeneratorContext {
  deps: GeneratorDeps;
  /** Between two looks at the database (and, on Replicate, at the prediction). */
  pollMs: number;
  /** Cog: between two repeats of the idempotent PUT that tell the prediction still runs. */
  recheckMs: number;
  /** Pictures of this run with their drafts stored. */
  storedPictures(orderId: string, generation: number, plan: PlannedPicture[]): Promise<number>;
  /** A finished prediction's picture through the gate into drafts; running it twice adds nothing. */
  collect(order: OrderRow, generation: number, picture: PlannedPicture, attempt: number, prediction: Prediction, references: FaceDescriptor[]): Promise<PictureOutcome>;
  /** The files a Cog container uploaded for one prediction, oldest first. */
  uploadsOf(predictionId: string): Promise<string[]>;
  /** Their addresses, as the container reported them (the output it would have sent by webhook). */
  uploadAddress(key: string): string;
  /** A prediction's uploaded files, once read (or refused): gone, and their notes settled. */
  dropUploads(predictionId: string): Promise<void>;
  /** The order's reference faces (the upload gate's descriptors); without any nothing could be checked. */
  referencesOf(order: OrderRow): Promise<FaceDescriptor[]>;
  webhookUrl(predictionId: string): string | null;
  /** The progress a generator job or a self-check (both note their prediction and its webhook) has stored now. */
  storedProgress(jobId: number): Promise<JobProgress>;
}

export function createGeneratorContext(deps: GeneratorDeps): GeneratorContext {
  const { db, storage, generator, now } = deps;

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

  const uploadsOf = (predictionId: string) => storage.listKeys(`${UPLOAD_PREFIX}/${predictionId}/`);
  const uploadAddress = (key: string) => `${deps.publicUrl}${GENERATOR_UPLOAD_PATH}/files/${key.slice(UPLOAD_PREFIX.length + 1)}`;

  async function dropUploads(predictionId: string): Promise<void> {
    if (generator?.kind !== 'cog') return;
    const keys = await uploadsOf(predictionId);
    if (!keys.length) return;
    await storage.deletePrefix(`${UPLOAD_PREFIX}/${predictionId}/`);
    await settleIntent(db, keys);
  }

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

  async function storedProgress(jobId: number): Promise<JobProgress> {
    const [row] = await db.select({ progress: jobs.progress }).from(jobs).where(eq(jobs.id, jobId));
    return row?.progress ?? {};
  }

  return {
    deps,
    pollMs: deps.pollMs ?? 3000,
    recheckMs: deps.recheckMs ?? 60_000,
    storedPictures,
    collect,
    uploadsOf,
    uploadAddress,
    dropUploads,
    referencesOf,
    webhookUrl,
    storedProgress,
  };
}
