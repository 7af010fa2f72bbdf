// One generator job at work (generator-predict.ts runs it, generator-picture.ts makes each picture): its order
// and plan, the customer's faces as the provider fetches them, its progress as stored (attempts, the gate's
// verdicts, pictures given up), and what every step of it asks: the call for a picture, whether its pictures
// are still wanted.
import { isInProduction } from '../../../domain/order-state.js';
import type { DiscardedPicture, GeneratorJobProgress, StoredPhotoQuality } from '../../../domain/stored-json.js';
import type { FaceDescriptor } from '../../../studio/inference/types.js';
import { seedFor, type PlannedPicture } from '../../../studio/prompts.js';
import { GeneratorError } from '../../generator/generator-error.js';
import type { ModelCall } from '../../generator/profiles/profile.js';
import type { ImageGenerator } from '../../generator/provider.js';
import type { Job } from '../../jobs/queue.js';
import { createOrderRepository, type OrderRow } from '../orders/order-repository.js';
import { pictureStored } from './generated-drafts.js';
import { INPUT_LINK_SECONDS, WANTED_SIZE, type GeneratorContext, type GeneratorPayload } from './generator-context.js';
import { photoQualityView } from './photo-quality.js';

export interface GeneratorJob {
  ctx: GeneratorContext;
  generator: ImageGenerator;
  jobId: number;
  order: OrderRow;
  generation: number;
  /** The pictures this job asks for: the run's plan, or a redo's slots of it. */
  plan: PlannedPicture[];
  /** The customer's faces every picture is checked against. */
  references: FaceDescriptor[];
  /** The progress as this job last stored it. */
  readonly progress: GeneratorJobProgress;
  /** Predictions asked for per picture, over every run of the job (each attempt has its own seed). */
  attempts: Record<string, number>;
  discarded: DiscardedPicture[];
  /** Pictures given up: every attempt was discarded by the gate. */
  missing: Set<number>;
  save(next: GeneratorJobProgress): Promise<void>;
  /** Saves the progress with the job's counts (pictures, drafts stored, attempts, verdicts). */
  summary(extra: GeneratorJobProgress): Promise<void>;
  /** One picture of the plan, one attempt: one prediction of one image, with the attempt's own seed. */
  callFor(picture: PlannedPicture, attempt: number): ModelCall;
  /** Whether the order still wants this run's pictures. */
  wanted(): Promise<boolean>;
  /** Whether the picture's drafts are stored (by the job, or by the webhook). */
  stored(picture: PlannedPicture): Promise<boolean>;
}

/** The order's photos as links the provider fetches from outside, best first. */
async function faceLinks(ctx: GeneratorContext, order: OrderRow): Promise<string[]> {
  const { storage, publicUrl } = ctx.deps;
  const uploads = await createOrderRepository(ctx.deps.db).uploads(order.id);
  if (uploads.length === 0) throw new GeneratorError('the order has no photos to send');
  // Best first (a model that takes one face photo takes the first): the upload gate's clean photos, then
  // those with fewer warnings, unchecked ones last; otherwise in the customer's order.
  const rank = (quality: StoredPhotoQuality | null) => {
    const view = photoQualityView(quality);
    return view.verdict === 'ok' ? 0 : view.verdict === 'warning' ? view.warnings.length : 100;
  };
  const best = uploads.map((u, i) => ({ u, i, rank: rank(u.quality) })).sort((a, b) => a.rank - b.rank || a.i - b.i);
  // The provider fetches them from outside: links served by this shop need its public address.
  return Promise.all(
    best.map(async ({ u }) => {
      const link = await storage.signedUrl(u.storageKey, { expiresInSeconds: INPUT_LINK_SECONDS });
      return link.startsWith('/') ? `${publicUrl}${link}` : link;
    }),
  );
}

export async function openGeneratorJob(ctx: GeneratorContext, generator: ImageGenerator, job: Job<GeneratorPayload, GeneratorJobProgress>, order: OrderRow, plan: PlannedPicture[]): Promise<GeneratorJob> {
  const { db } = ctx.deps;
  const { generation } = job.payload;
  const references = await ctx.referencesOf(order);
  let progress: GeneratorJobProgress = job.progress ?? {};
  // The webhook route writes the end of a prediction into the same progress, from another request: one
  // statement keeps it (when it is about the prediction under way), so neither write can undo the other.
  const save = async (next: GeneratorJobProgress) => {
    // Only while this worker holds the job (as queue.progress does): a worker whose lease ran out writes nothing.
    await ctx.deps.queue.progressKeeping(job.id, job.lockedBy, next, { key: 'webhook', id: next.predictionId ?? '' });
    progress = await ctx.storedProgress(job.id);
  };
  const attempts: Record<string, number> = { ...(progress.attempts ?? {}) };
  const discarded: DiscardedPicture[] = [...(progress.discarded ?? [])];
  const missing = new Set<number>(progress.missing ?? []);
  const summary = async (extra: GeneratorJobProgress) =>
    save({ ...progress, ...extra, pictures: plan.length, total: plan.length, done: await ctx.storedPictures(order.id, generation, plan), attempts, discarded, missing: [...missing] });

  const faces = await faceLinks(ctx, order);
  const callFor = (picture: PlannedPicture, attempt: number) => {
    const [call] = generator.profile.calls({ faces, prompt: picture.prompt, negativePrompt: picture.negativePrompt, count: 1, seed: seedFor(order.id, generation, picture.index, attempt), ...WANTED_SIZE });
    if (!call) throw new GeneratorError(`profile "${generator.profile.key}" makes no call for one picture`);
    return call;
  };
  // Staff may choose another way, or a newer run, while the provider works: its outputs are not wanted.
  const wanted = async () => {
    const latest = await createOrderRepository(db).find(order.id);
    return latest !== null && isInProduction(latest) && latest.productionMode === 'generator' && generation >= latest.studioGeneration;
  };

  return {
    ctx,
    generator,
    jobId: job.id,
    order,
    generation,
    plan,
    references,
    get progress() {
      return progress;
    },
    attempts,
    discarded,
    missing,
    save,
    summary,
    callFor,
    wanted,
    stored: (picture) => pictureStored(db, order.id, generation, picture.index),
  };
}
