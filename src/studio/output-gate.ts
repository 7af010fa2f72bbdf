// The gate a generated picture passes before anyone sees it: exactly one face, sharp, well lit, upright, and the
// customer's own (its descriptor close enough to the order's accepted photos). A picture that fails is discarded and asked
// for again; it never becomes a draft. The limits are the upload gate's (thresholds.ts).
import type { Inference } from './inference/client.js';
import type { Box, FaceDescriptor } from './inference/types.js';
import { compareIdentity } from './identity.js';
import { assessPhoto } from './quality-gate.js';
import { IDENTITY, OUTPUT_GATE } from './thresholds.js';

export type OutputRejection = 'noFace' | 'multipleFaces' | 'blurred' | 'badLight' | 'tilted' | 'otherPerson' | 'noDescriptor';

export type OutputVerdict =
  | { ok: true; face: Box; identity: { distance: number; limit: number } }
  | { ok: false; reason: OutputRejection; identity?: { distance: number; limit: number } };

/**
 * Checks one generated picture against the order's reference descriptors (at least one: without a reference
 * nothing could be checked, and nothing unchecked becomes a draft).
 */
export async function checkGeneratedPicture(picture: Buffer, references: readonly FaceDescriptor[], inference: Inference): Promise<OutputVerdict> {
  if (references.length === 0) throw new Error('no reference photo of the customer to check generated pictures against');
  const report = await assessPhoto(picture, inference, { analysisLongSidePx: OUTPUT_GATE.analysisLongSidePx, sides: false });
  const faces = oneFace(report);
  if (faces) return faces;
  // Blurred at either level of the upload gate (a picture blurred beyond use is 'tooBlurred' there).
  if (report.issues.some((issue) => issue.code === 'blurred' || issue.code === 'tooBlurred')) return { ok: false, reason: 'blurred' };
  // A customer's photo that is a little dark or tilted is usable (the studio balances and levels it); a picture
  // we deliver is not: at the upload gate's warning level already, it is made again.
  if (report.issues.some((issue) => ['tooDark', 'farTooDark', 'tooBright', 'farTooBright'].includes(issue.code))) return { ok: false, reason: 'badLight' };
  if (report.issues.some((issue) => issue.code === 'headTilted' || issue.code === 'headTiltedTooFar')) return { ok: false, reason: 'tilted' };
  const judged = sameIdentity(report, references);
  if (!judged.ok) return judged;
  const { x, y, width, height } = report.face!;
  return { ok: true, face: { x, y, width, height }, identity: judged.identity };
}

type Report = Awaited<ReturnType<typeof assessPhoto>>;

/** Exactly one face in the picture, or why not. */
function oneFace(report: Report): { ok: false; reason: 'noFace' | 'multipleFaces' } | null {
  const refused = report.issues.find((issue) => issue.code === 'noFace' || issue.code === 'multipleFaces');
  if (refused || !report.face) return { ok: false, reason: (refused?.code as 'noFace' | 'multipleFaces' | undefined) ?? 'noFace' };
  return null;
}

/** The face's descriptor within the identity limit of the nearest reference, with the distance for staff. */
function sameIdentity(
  report: Report,
  references: readonly FaceDescriptor[],
): { ok: true; identity: { distance: number; limit: number } } | { ok: false; reason: 'otherPerson' | 'noDescriptor'; identity?: { distance: number; limit: number } } {
  if (!report.descriptor) return { ok: false, reason: 'noDescriptor' };
  const comparison = compareIdentity(report.descriptor, references)!;
  const identity = { distance: Math.round(comparison.distance * 1000) / 1000, limit: IDENTITY.maxSamePersonDistance };
  return comparison.samePerson ? { ok: true, identity } : { ok: false, reason: 'otherPerson', identity };
}

export type DraftRejection = 'noFace' | 'multipleFaces' | 'otherPerson' | 'noDescriptor';

export type DraftVerdict =
  | { ok: true; identity: { distance: number; limit: number } | null }
  | { ok: false; reason: DraftRejection; identity?: { distance: number; limit: number } };

/**
 * The same gate for a studio draft, on what the studio can get wrong: exactly one face (no friend left in the
 * frame), and the customer's own by the identity net within the same limit (a retouch or a mask that changed the
 * face). Its light, sharpness and tilt are the customer's photo's, judged at upload. Without references (photos
 * the gate could not check) only the faces are counted.
 */
export async function checkStudioDraft(picture: Buffer, references: readonly FaceDescriptor[], inference: Inference): Promise<DraftVerdict> {
  const report = await assessPhoto(picture, inference, { analysisLongSidePx: OUTPUT_GATE.analysisLongSidePx, sides: false });
  const faces = oneFace(report);
  if (faces) return faces;
  if (references.length === 0) return { ok: true, identity: null };
  return sameIdentity(report, references);
}
