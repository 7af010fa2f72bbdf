// The studio in the shop: after payment a durable job makes the order's drafts (src/studio does the
// pictures), staff regenerate one or all, and choose who makes the pictures of an order.
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { BaseStyle, Location, Outfit, PackageKey } from '../../../domain/catalog.js';
import { canTransition, isInProduction, type OrderStatus, type ProductionMode } from '../../../domain/order-state.js';
import { qualityReport, type StudioJobProgress } from '../../../domain/stored-json.js';
import type { Inference } from '../../../studio/inference/client.js';
import { planDrafts, type PlanPhoto, type PlannedDraft } from '../../../studio/plan.js';
import { photoFills } from '../../../studio/framing.js';
import { OUTPUT_FORMATS, OUTPUT_FORMAT_KEYS } from '../../../studio/formats.js';
import { assessPhoto } from '../../../studio/quality-gate.js';
import { renderDraft, type DraftSpec, type RenderedDraft } from '../../../studio/render.js';
import { checkStudioDraft, type DraftVerdict } from '../../../studio/output-gate.js';
import { storedDescriptor } from '../../../studio/identity.js';
import type { FaceDescriptor } from '../../../studio/inference/types.js';
import { changeList, type RedoChanges } from '../../../studio/redo-reason.js';
import type { Database, Executor } from '../../db/client.js';
import { generatedImages, orderUploads, orders } from '../../db/schema.js';
import { conflict, notFound } from '../../http/errors.js';
import { handlerOf, type JobHandler } from '../../jobs/runner.js';
import { createJobQueue, jobOf, type JobQueue, type JobRow, type Queue } from '../../jobs/queue.js';
import type { Storage } from '../../storage/storage.js';
import { createOrderRepository, extrasOf, type OrderRow, type UploadRow } from '../orders/order-repository.js';
import { photoQualityView } from './photo-quality.js';

export { PRODUCTION_MODES, type ProductionMode } from '../../../domain/order-state.js';

/** A studio job: the order's drafts of one generation (all, some slots, or one per format asked for). */
export interface DraftsPayload {
  orderId: string;
  generation: number;
  /** Only these slots (one regenerated draft); all when missing. */
  indices?: number[];
  /** A redo (customer-orders) or a staff "make again": one new draft per format named, from this generation's plan. */
  formats?: string[];
  /** The drafts they replace, in the same order: the new one differs from each in photo or backdrop. */
  from?: RedoSource[];
  /** What the customer's reason asked for (redo-reason.ts). */
  changes?: RedoChanges;
}

/** The studio's queue: a job makes drafts (DraftsPayload) and reports how many (StudioJobProgress). */
export const STUDIO_QUEUE: Queue<DraftsPayload, StudioJobProgress> = 'studio.drafts';

/** What a new draft is made in place of: its photo and backdrop. */
export interface RedoSource {
  photoId?: string;
  backdrop?: number;
}

/** A partial run (one draft again, a redo) never replaces a full run. */
function isPartial(payload: DraftsPayload): boolean {
  return Boolean(payload.indices || payload.formats);
}

/**
 * One draft per format asked for, from the plan: in that format always (a redo keeps the picture's shape), and
 * where it can, as the customer's reason asks and unlike the draft it replaces (`from`): another photo, another
 * backdrop, or at least one of the two; the frame tighter or looser when asked. A format the plan lacks takes the
 * next free draft, in the format asked for.
 */
export function draftsForFormats(plan: PlannedDraft[], formats: readonly string[], from: readonly RedoSource[] = [], changes: RedoChanges = {}): PlannedDraft[] {
  const taken = new Set<number>();
  const chosen: PlannedDraft[] = [];
  for (const [n, format] of formats.entries()) {
    const source = from[n] ?? {};
    const free = plan.filter((draft) => !taken.has(draft.index));
    const otherPhoto = (draft: PlannedDraft) => source.photoId === undefined || draft.photoId !== source.photoId;
    const otherBackdrop = (draft: PlannedDraft) => source.backdrop === undefined || draft.spec.backdrop.variant !== source.backdrop;
    // How well a draft answers: what was asked first, then anything new at all.
    const score = (draft: PlannedDraft) =>
      (draft.spec.format === format ? 8 : 0) + (changes.photo && otherPhoto(draft) ? 4 : 0) + (changes.backdrop && otherBackdrop(draft) ? 4 : 0) + (otherPhoto(draft) || otherBackdrop(draft) ? 1 : 0);
    const match = free.reduce<PlannedDraft | null>((best, draft) => (!best || score(draft) > score(best) ? draft : best), null);
    if (!match) continue;
    taken.add(match.index);
    const variation = changes.framing === 'tighter' ? 2 : changes.framing === 'looser' ? 1 : match.spec.variation;
    const { variation: _planned, ...spec } = match.spec;
    chosen.push({ ...match, spec: { ...spec, format: format as PlannedDraft['spec']['format'], ...(variation ? { variation } : {}) } });
  }
  return chosen.sort((a, b) => a.index - b.index);
}

type ImageRow = typeof generatedImages.$inferSelect;

/** The output format of a picture as its variant names it; staff uploads have none (a portrait then). */
export function formatOf(image: ImageRow): string {
  const format = image.variant?.format;
  return typeof format === 'string' ? format : 'portrait';
}

/** The photo and backdrop a studio picture was made from, as its variant records them. */
export function redoSourceOf(image: ImageRow): RedoSource {
  const variant = image.variant;
  return {
    ...(typeof variant?.photoId === 'string' ? { photoId: variant.photoId } : {}),
    ...(typeof variant?.backdrop?.variant === 'number' ? { backdrop: variant.backdrop.variant } : {}),
  };
}

export interface StudioDeps {
  db: Database;
  storage: Storage;
  inference: Inference;
  queue: JobQueue;
  now: () => Date;
  log: FastifyBaseLogger;
}

/** Paid becomes in progress, with its history entry, when the first pictures are being made. */
/**
 * One studio draft through the output gate (one face, the customer's own): rendered, checked, and where it fails
 * rendered again gently (no skin smoothing, no style look) and checked again. The verdict says whether to keep it.
 */
export async function renderChecked(
  input: { photo: Buffer; face: Parameters<typeof renderDraft>[0]['face']; spec: DraftSpec; references: readonly FaceDescriptor[]; inference: Inference },
  steps: { render: typeof renderDraft; check: typeof checkStudioDraft } = { render: renderDraft, check: checkStudioDraft },
): Promise<{ spec: DraftSpec; rendered: RenderedDraft; verdict: DraftVerdict }> {
  const { photo, face, references, inference } = input;
  let spec = input.spec;
  let rendered = await steps.render({ photo, face, spec, inference });
  let verdict = await steps.check(rendered.buffer, references, inference);
  if (!verdict.ok) {
    spec = { ...input.spec, gentle: true };
    rendered = await steps.render({ photo, face, spec, inference });
    verdict = await steps.check(rendered.buffer, references, inference);
  }
  return { spec, rendered, verdict };
}

export async function markProductionStarted(db: Database, orderId: string, by: string): Promise<void> {
  await db.transaction(async (tx) => {
    const repo = createOrderRepository(tx);
    const order = await repo.lock(orderId);
    if (!order || !canTransition(order.status as OrderStatus, 'in_progress', 'system')) return;
    await repo.update(orderId, { status: 'in_progress' });
    await repo.addHistory(orderId, { event: 'production_started', fromStatus: order.status, toStatus: 'in_progress', actorType: 'system', actorId: by, note: by });
  });
}

/** Whether the job is a studio job making all drafts of a later generation than `generation`. */
function isNewerFullRun(job: JobRow, generation: number): boolean {
  const other = jobOf(STUDIO_QUEUE, job)?.payload;
  return other !== undefined && !isPartial(other) && typeof other.generation === 'number' && other.generation > generation;
}

/** Where a draft's file lives: its slot's key, so a second run overwrites instead of adding. */
export function draftStorageKey(orderId: string, key: string): string {
  return `results/${orderId}/${key.replace(/:/g, '-')}.jpg`;
}

export function createStudioService(deps: StudioDeps) {
  const { db, storage, inference, queue, now } = deps;

  /** The face to frame around: from the gate's report, or found now for a photo the gate could not check. */
  async function faceOf(upload: UploadRow, photo: Buffer) {
    const stored = qualityReport(upload.quality);
    if (stored?.face) return stored.face;
    const report = await assessPhoto(photo, inference);
    await db.update(orderUploads).set({ quality: report }).where(eq(orderUploads.id, upload.id));
    return report.face;
  }

  /** Per format, how well the photo fills it (framing.ts): tight selfies give the formats they fill. */
  function fillsOf(upload: UploadRow): PlanPhoto['fills'] {
    const face = qualityReport(upload.quality)?.face;
    if (!face) return undefined;
    return Object.fromEntries(OUTPUT_FORMAT_KEYS.map((key) => [key, photoFills(face, upload, OUTPUT_FORMATS[key])]));
  }

  function plan(order: OrderRow, uploads: UploadRow[], generation: number): PlannedDraft[] {
    return planDrafts({
      package: order.package as PackageKey,
      extras: extrasOf(order),
      style: (order.styleBase as BaseStyle) ?? 'professional',
      location: (order.refineLocation as Location | null) ?? null,
      outfit: (order.refineOutfit as Outfit | null) ?? null,
      photos: uploads.map((u) => {
        const quality = photoQualityView(u.quality);
        return { id: u.id, verdict: quality.verdict, fills: fillsOf(u), othersAtSide: quality.warnings.includes('otherPeople') };
      }),
      generation,
    });
  }

  const makeDrafts: JobHandler<DraftsPayload, StudioJobProgress> = async (job, context) => {
    const payload = job.payload;
    const repo = createOrderRepository(db);
    /**
     * Asked before the run and before each draft: nothing more for an order that is gone, unpaid, finished,
     * made another way now, or whose photos are deleted; and a full run that a newer full run replaced
     * (staff regenerated all, or a dead job was retried late) stops, so two generations never mix.
     */
    const current = async (): Promise<OrderRow | null> => {
      const order = await repo.find(payload.orderId);
      if (!order || !isInProduction(order) || order.productionMode !== 'studio' || order.photosDeletedAt) return null;
      if (!isPartial(payload) && (await queue.forOrder(order.id, 100)).some((other) => isNewerFullRun(other, payload.generation))) return null;
      return order;
    };
    const order = await current();
    if (!order) return;
    const photos = new Map<string, Buffer>();
    // Only photos with a face can be framed; one the gate could not check at upload is checked now.
    const uploads: UploadRow[] = [];
    for (const upload of await repo.uploads(order.id)) {
      if (!qualityReport(upload.quality)?.face) {
        photos.set(upload.id, await storage.getBuffer(upload.storageKey));
        if (!(await faceOf(upload, photos.get(upload.id)!))) continue;
        upload.quality = (await repo.findUpload(order.id, upload.id))!.quality;
      }
      uploads.push(upload);
    }
    if (uploads.length === 0) throw new Error('no photo of this order shows a face the studio can frame');
    const all = plan(order, uploads, payload.generation);
    const planned = payload.formats ? draftsForFormats(all, payload.formats, payload.from, payload.changes) : all.filter((draft) => !payload.indices || payload.indices.includes(draft.index));
    const existing = new Set(
      (await db.select({ key: generatedImages.generationKey }).from(generatedImages).where(eq(generatedImages.orderId, order.id))).map((row) => row.key),
    );
    await markProductionStarted(db, order.id, STUDIO_QUEUE);
    let done = planned.filter((draft) => existing.has(draft.key)).length;
    let refused = 0;
    // The customer's own faces, as the upload gate described them: what every draft is compared with.
    const references = uploads.map((upload) => storedDescriptor(upload.quality)).filter((descriptor): descriptor is FaceDescriptor => descriptor !== null);
    await context.progress({ done, total: planned.length });
    // A photo is let go after its last draft: with it go what its drafts found once and kept for the others
    // (its people, head mask, levelled copy: render.ts keeps them per photo buffer), a few MB each.
    const draftsLeft = new Map<string, number>();
    for (const draft of planned) if (!existing.has(draft.key)) draftsLeft.set(draft.photoId, (draftsLeft.get(draft.photoId) ?? 0) + 1);
    for (const [id] of photos) if (!draftsLeft.has(id)) photos.delete(id);
    for (const draft of planned) {
      // Made by an earlier run of this job (that stopped halfway): made once, never twice.
      if (existing.has(draft.key)) continue;
      // Past the queue's time limit the attempt has failed already (runner.ts): no more drafts on its account.
      if (context.signal.aborted) return;
      if (!(await current())) return;
      const upload = uploads.find((u) => u.id === draft.photoId)!;
      if (!photos.has(upload.id)) photos.set(upload.id, await storage.getBuffer(upload.storageKey));
      const photo = photos.get(upload.id)!;
      const face = await faceOf(upload, photo);
      if (!face) throw new Error(`no face in photo ${upload.id}`);
      // Every draft passes the generator's output gate on what the studio can get wrong: one face, the
      // customer's own. One the retouch or the mask changed too far is made again gently, else not made.
      const { spec, rendered, verdict } = await renderChecked({ photo, face, spec: draft.spec, references, inference });
      const left = draftsLeft.get(upload.id)! - 1;
      if (left > 0) draftsLeft.set(upload.id, left);
      else photos.delete(upload.id);
      if (!verdict.ok) {
        deps.log.warn({ orderId: order.id, slot: draft.key, reason: verdict.reason, distance: verdict.identity?.distance }, 'studio draft failed the output gate twice; not made');
        refused++;
        await context.progress({ done, total: planned.length, refused });
        continue;
      }
      // The file's name follows from the slot: a second run overwrites, it never adds one.
      const key = draftStorageKey(order.id, draft.key);
      await storage.put(key, rendered.buffer, { contentType: 'image/jpeg' });
      await db
        .insert(generatedImages)
        .values({
          id: randomUUID(),
          orderId: order.id,
          fileName: `${order.orderNumber}-${draft.spec.format}-${draft.index + 1}.jpg`,
          fileSize: rendered.buffer.length,
          mimeType: 'image/jpeg',
          width: rendered.width,
          height: rendered.height,
          storageKey: key,
          generationType: 'studio',
          generationKey: draft.key,
          status: 'draft',
          variant: {
            ...spec,
            identity: verdict.identity,
            photoId: draft.photoId,
            requestedOutfit: draft.requestedOutfit,
            generation: payload.generation,
            index: draft.index,
            // A customer's redo: what its reason changed (none read: an empty list). A staff "make again" has none.
            ...(payload.changes ? { redo: changeList(payload.changes) } : {}),
          },
          createdAt: now(),
          updatedAt: now(),
        })
        .onConflictDoNothing();
      done++;
      await context.progress({ done, total: planned.length, ...(refused ? { refused } : {}) });
    }
  };

  return {
    // A run of drafts takes a minute or two on two cores; a job still running after 15 minutes hangs (a draft is
    // saved as it is made, so the next attempt goes on from there).
    handlers: handlerOf(STUDIO_QUEUE, makeDrafts, { timeLimitMs: 15 * 60 * 1000 }),

    /** After payment (in the payment's transaction): the first drafts, once per order. */
    async enqueueFirstDrafts(tx: Executor, orderId: string): Promise<void> {
      const txQueue = createJobQueue(tx, now);
      await txQueue.enqueue({ queue: STUDIO_QUEUE, payload: { orderId, generation: 0 }, orderId, dedupeKey: `${orderId}:0:all` });
    },

    /** Staff: all drafts again (a new generation; the drafts not yet published are taken down), or one. */
    async regenerate(orderId: string, draftId?: string): Promise<{ jobId: number | null; generation: number }> {
      return db.transaction(async (tx) => {
        const repo = createOrderRepository(tx);
        const order = await repo.lock(orderId);
        if (!order) throw notFound('notFound');
        if (!isInProduction(order)) throw conflict('orderLocked');
        if (order.productionMode !== 'studio') throw conflict('notStudioMode');
        const txQueue = createJobQueue(tx, now);
        // One run at a time: drafts made while a run is under way would mix two generations.
        if (await txQueue.activeFor(orderId)) throw conflict('jobRunning');
        const generation = order.studioGeneration + 1;
        await tx.update(orders).set({ studioGeneration: generation, updatedAt: now() }).where(eq(orders.id, orderId));
        let again: Pick<DraftsPayload, 'formats' | 'from'> | undefined;
        if (draftId) {
          const [draft] = await tx.select().from(generatedImages).where(and(eq(generatedImages.id, draftId), eq(generatedImages.orderId, orderId)));
          if (!draft || draft.generationType !== 'studio' || draft.status !== 'draft') throw notFound('notFound');
          // The same format again (a square stays a square), from another photo or backdrop.
          again = { formats: [formatOf(draft)], from: [redoSourceOf(draft)] };
          await tx.update(generatedImages).set({ status: 'deleted', updatedAt: now() }).where(eq(generatedImages.id, draftId));
        } else {
          await tx
            .update(generatedImages)
            .set({ status: 'deleted', updatedAt: now() })
            .where(and(eq(generatedImages.orderId, orderId), eq(generatedImages.generationType, 'studio'), eq(generatedImages.status, 'draft')));
        }
        const jobId = await txQueue.enqueue({
          queue: STUDIO_QUEUE,
          payload: { orderId, generation, ...again },
          orderId,
          dedupeKey: `${orderId}:${generation}:${again ? 'one' : 'all'}`,
        });
        return { jobId, generation };
      });
    },

    /** Staff choose who makes the pictures; switching a paid order to the studio starts its drafts if it has none. */
    async setProductionMode(orderId: string, mode: ProductionMode): Promise<{ jobId: number | null }> {
      return db.transaction(async (tx) => {
        const repo = createOrderRepository(tx);
        const order = await repo.lock(orderId);
        if (!order) throw notFound('notFound');
        await tx.update(orders).set({ productionMode: mode, updatedAt: now() }).where(eq(orders.id, orderId));
        if (mode !== 'studio' || !isInProduction(order)) return { jobId: null };
        const [made] = await tx.select({ id: generatedImages.id }).from(generatedImages).where(and(eq(generatedImages.orderId, orderId), eq(generatedImages.generationType, 'studio'))).limit(1);
        if (made) return { jobId: null };
        // A new generation: whatever ran before for this order, these drafts are made afresh.
        const generation = order.studioGeneration + 1;
        await tx.update(orders).set({ studioGeneration: generation }).where(eq(orders.id, orderId));
        const jobId = await createJobQueue(tx, now).enqueue({ queue: STUDIO_QUEUE, payload: { orderId, generation }, orderId, dedupeKey: `${orderId}:${generation}:all` });
        return { jobId };
      });
    },

    async jobsOf(orderId: string) {
      return queue.forOrder(orderId);
    },

  };
}

export type StudioService = ReturnType<typeof createStudioService>;
