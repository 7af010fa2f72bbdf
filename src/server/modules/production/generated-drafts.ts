// One picture from the generator on its way to staff: decoded and encoded again like every image we keep,
// checked by the output gate (one sharp face, the customer's own), and, if it passes, framed in the three
// formats and stored as three drafts with its identity distance. A picture that fails is not stored at all.
import { randomUUID } from 'node:crypto';
import { and, eq, like } from 'drizzle-orm';
import { OUTPUT_DPI } from '../../../domain/catalog.js';
import type { Inference } from '../../../studio/inference/client.js';
import type { FaceDescriptor } from '../../../studio/inference/types.js';
import { storedDescriptor } from '../../../studio/identity.js';
import { checkGeneratedPicture, type OutputRejection } from '../../../studio/output-gate.js';
import { crownOf, frameGeneratedPicture, GENERATED_CREATOR_TOOL, tooTightFor } from '../../../studio/output-formats.js';
import type { PlannedPicture } from '../../../studio/prompts.js';
import type { Database } from '../../db/client.js';
import { generatedImages } from '../../db/schema.js';
import { GeneratorError } from '../../generator/generator-error.js';
import type { Storage } from '../../storage/storage.js';
import { noteIntent, settleIntent } from '../../storage/intents.js';
import type { OrderRow, UploadRow } from '../orders/order-repository.js';
import { processForeignImage } from '../../images/image-processing.js';
import { draftStorageKey } from './studio-service.js';

/** The largest picture we keep from a generator, on its long side. */
const MAX_PICTURE_LONG_SIDE = 4000;

export type PictureOutcome =
  | { stored: true; distance: number; drafts: number }
  | { stored: false; reason: OutputRejection | 'notAnImage' | 'tooTight'; distance?: number };

/** The order's reference faces: the descriptors of its accepted photos (the upload gate made them). */
export function referenceDescriptors(uploads: readonly UploadRow[]): FaceDescriptor[] {
  return uploads.map((upload) => storedDescriptor(upload.quality)).filter((descriptor): descriptor is FaceDescriptor => descriptor !== null);
}

/** The slot of one picture of a run: its three drafts' generation keys start with it. */
export function pictureSlot(generation: number, index: number): string {
  return `external:${generation}:${index}`;
}

/** Whether this picture of the run has its drafts already (a job or webhook that runs again adds nothing). */
export async function pictureStored(db: Database, orderId: string, generation: number, index: number): Promise<boolean> {
  const [row] = await db
    .select({ id: generatedImages.id })
    .from(generatedImages)
    .where(and(eq(generatedImages.orderId, orderId), like(generatedImages.generationKey, `${pictureSlot(generation, index)}:%`)))
    .limit(1);
  return row !== undefined;
}

export async function storeGeneratedPicture(deps: {
  db: Database;
  storage: Storage;
  inference: Inference;
  now: () => Date;
  order: OrderRow;
  references: readonly FaceDescriptor[];
  generatorName: string;
  predictionId: string;
  generation: number;
  picture: PlannedPicture;
  attempt: number;
  raw: Buffer;
}): Promise<PictureOutcome> {
  const { db, storage, order, picture } = deps;
  const processed = await processForeignImage(deps.raw, (image) =>
    image.resize({ width: MAX_PICTURE_LONG_SIDE, height: MAX_PICTURE_LONG_SIDE, fit: 'inside', withoutEnlargement: true }).flatten({ background: '#ffffff' }).jpeg({ quality: 95 }),
  );
  if (!processed.ok) return { stored: false, reason: 'notAnImage' };
  if (deps.references.length === 0) throw new GeneratorError('no photo of this order has a face description to check generated pictures against');
  const verdict = await checkGeneratedPicture(processed.image.buffer, deps.references, deps.inference);
  if (!verdict.ok) return { stored: false, reason: verdict.reason, ...(verdict.identity ? { distance: verdict.identity.distance } : {}) };

  const crownY = await crownOf(processed.image.buffer, verdict.face, deps.inference);
  // A face too large for a format within the studio's limits: asked again (a new seed frames it anew), never a draft framed tighter still.
  if (tooTightFor(verdict.face, { width: processed.image.width, height: processed.image.height }, crownY).length) return { stored: false, reason: 'tooTight', distance: verdict.identity.distance };
  const framed = await frameGeneratedPicture({ picture: processed.image.buffer, face: verdict.face, crownY, creatorTool: GENERATED_CREATOR_TOOL });
  const slot = pictureSlot(deps.generation, picture.index);
  const drafts = framed.map((output) => {
    const key = `${slot}:${output.format}`;
    return { output, key, storageKey: draftStorageKey(order.id, key) };
  });
  // The files go first and are noted, so a crash between them and the rows leaves nothing unlisted for long.
  await noteIntent(db, drafts.map((d) => d.storageKey), deps.now());
  for (const draft of drafts) await storage.put(draft.storageKey, draft.output.buffer, { contentType: 'image/jpeg' });
  await db.transaction(async (tx) => {
    for (const { output, key, storageKey } of drafts) {
      await tx
        .insert(generatedImages)
        .values({
          id: randomUUID(),
          orderId: order.id,
          fileName: `${order.orderNumber}-${output.format}-${picture.index + 1}.jpg`,
          fileSize: output.buffer.length,
          mimeType: 'image/jpeg',
          width: output.width,
          height: output.height,
          storageKey,
          generationType: 'external',
          generationKey: key,
          status: 'draft',
          variant: {
            generator: deps.generatorName,
            predictionId: deps.predictionId,
            generation: deps.generation,
            index: picture.index,
            attempt: deps.attempt,
            format: output.format,
            dpi: OUTPUT_DPI,
            identity: verdict.identity,
            outfit: { category: picture.outfit.category, description: picture.outfit.description },
            background: { location: picture.background.location, description: picture.background.description },
            faceHeightShare: output.faceHeightShare,
          },
          createdAt: deps.now(),
          updatedAt: deps.now(),
        })
        .onConflictDoNothing();
    }
    await settleIntent(tx, drafts.map((d) => d.storageKey));
  });
  return { stored: true, distance: verdict.identity.distance, drafts: drafts.length };
}
