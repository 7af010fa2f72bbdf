// One studio draft: the customer's photo framed around the face, the person cut out with a refined edge,
// lightly retouched (retouch.ts), placed on a backdrop, marked as AI-made, at 300 DPI. Callable without a server.
import sharp from 'sharp';
import type { BaseStyle } from '../domain/catalog.js';
import { drawBackdrop, type BackdropKind } from './backdrops.js';
import { OUTPUT_DPI } from '../domain/catalog.js';
import { cleanEdge } from './clean-edge.js';
import { customerMap } from './customer-map.js';
import { fadeOutsidePhoto } from './fade-outside-photo.js';
import { OUTPUT_FORMATS, type OutputFormatKey } from './formats.js';
import { crownIn, frameFor } from './framing.js';
import { headMaskOf } from './head-mask.js';
import type { Inference } from './inference/client.js';
import { SEGMENTATION_SIZE } from './inference/segmentation-size.js';
import type { Box } from './inference/types.js';
import { levelled, type LevelledPhoto } from './levelled-photo.js';
import { dropGhosts, dropIslands } from './leftovers.js';
import { aiXmp } from './metadata.js';
import { applyStyle, smoothSkin } from './retouch.js';
import { applyTone, measureTone } from './tone.js';

export interface DraftSpec {
  format: OutputFormatKey;
  backdrop: { kind: BackdropKind; variant: number };
  style: BaseStyle;
  /** 0 or missing: the format's framing; 1 a little wider (more shoulders), 2 a little tighter. */
  variation?: number;
  /**
   * Only exposure and white balance, no skin smoothing and no style look: a draft made again because the face
   * was no longer recognised as the customer's (output-gate.ts checkStudioDraft).
   */
  gentle?: boolean;
}

/** The face's height in the frame per framing variation, relative to the format's; milder for 35 × 45 mm. */
const VARIATION_FACE_SCALE = [1, 0.9, 1.12];
const APPLICATION_FACE_SCALE = [1, 0.94, 1.05];

export interface RenderedDraft {
  buffer: Buffer;
  width: number;
  height: number;
  /** With `withMask`: the person's opacity (0–255) over the draft, the frame's pixels as they came from the photo, and the opacity as segmented (before the edge steps). */
  mask?: { alpha: Buffer; photo: Buffer; segmented: Buffer };
}

/** Mask probabilities between these become the soft edge; below is backdrop, above is person. */
const EDGE_LOW = 0.42;
const EDGE_HIGH = 0.72;
export const CREATOR_TOOL = 'Bewerbungsfoto Studio (studio drafts)';

export async function renderDraft(input: { photo: Buffer; face: Box & { roll?: number }; spec: DraftSpec; inference: Inference; withMask?: boolean }): Promise<RenderedDraft> {
  const format = OUTPUT_FORMATS[input.spec.format];
  const { width, height } = format;
  const meta = await sharp(input.photo).metadata();
  const original = { width: meta.autoOrient?.width ?? meta.width!, height: meta.autoOrient?.height ?? meta.height! };
  // A head tilted sideways is set level: the photo is turned by the face's roll (once per photo).
  const source = await levelled(input.photo, original, input.face);
  const face = source.box(input.face);
  // The frame must not run past the photo's bottom (framing.ts); a turned photo's bottom is its higher lower corner.
  const framed = { width: source.width, height: source.bottom };
  const variation = input.spec.variation ?? 0;
  const faceScale = (format.key === 'application' ? APPLICATION_FACE_SCALE : VARIATION_FACE_SCALE)[variation] ?? 1;
  const head = await headMaskOf(source, face, input.inference);
  const crownY = crownIn(head, face);
  const frame = frameFor(face, framed, { ...format, faceHeight: format.faceHeight * faceScale, headHeight: format.headHeight && format.headHeight * faceScale, tighten: faceScale }, crownY);

  const scale = width / frame.width;
  // The backdrop is drawn (on this thread) while libvips cuts and scales the frame (on its own): on two cores
  // about 0.1 s less per draft.
  const [frameRgb, backdrop] = await Promise.all([cutFrame(source, frame, width, height), drawBackdrop(input.spec.backdrop.kind, input.spec.backdrop.variant, width, height)]);
  /** From the original photo's pixels to the output's. */
  const toOutput = (point: { x: number; y: number }) => {
    const p = source.point(point);
    return { x: (p.x - frame.x) * scale, y: (p.y - frame.y) * scale };
  };

  const mainInFrame = { x: (face.x - frame.x) * scale, y: (face.y - frame.y) * scale, width: face.width * scale, height: face.height * scale };
  const probabilities = await customerMap({ photo: input.photo, original, face: input.face, levelledFace: face, head, frameRgb, width, height, frame, scale, toOutput, mainInFrame, inference: input.inference });

  // The refined edge: enlarged smoothly and softened a little, then the uncertain band stretched into a short ramp
  // (sharp blurs before it applies `linear`, whatever the order of the calls: the ramp comes last).
  const slope = 1 / (EDGE_HIGH - EDGE_LOW);
  const alpha = await sharp(Buffer.from(probabilities), { raw: { width: SEGMENTATION_SIZE, height: SEGMENTATION_SIZE, channels: 1 } })
    .resize(width, height, { fit: 'fill', kernel: 'cubic' })
    .linear(slope, -EDGE_LOW * 255 * slope)
    .blur(Math.max(0.6, width / 1200))
    .extractChannel(0)
    .raw()
    .toBuffer();
  // Nothing of the person beyond the photo's own edges, and no hard cut where the photo ends inside the frame:
  // the person fades out over a short ramp there, as a body leaving a shallow depth of field would.
  const corners = [
    { x: 0, y: 0 },
    { x: original.width, y: 0 },
    { x: original.width, y: original.height },
    { x: 0, y: original.height },
  ].map(toOutput);
  // The colour estimates' map of where they are read (below) serves first as the ghosts' scratch and last as the
  // islands': one image less.
  const near = new Uint8Array(width * height);
  dropGhosts(alpha, width, height, near);
  fadeOutsidePhoto(alpha, width, height, corners);

  // For the tests' measures of the edge: the frame as the photo gave it, before the edge steps change it.
  const asPhotographed = input.withMask ? Buffer.from(frameRgb) : null;
  // And the mask as the model gave it: what it left clear is the old background, whatever the edge steps decide.
  const asSegmented = input.withMask ? Buffer.from(alpha) : null;
  // The old background leaves the edge (clean-edge.ts): no blue or green halo on the new backdrop.
  await cleanEdge(frameRgb, alpha, width, height, near);
  const rgb = new Uint8Array(frameRgb.buffer, frameRgb.byteOffset, frameRgb.byteLength);
  const alphaPixels = new Uint8Array(alpha.buffer, alpha.byteOffset, alpha.byteLength);
  // Pieces of the old picture apart from the person (a patch of wall, a speck, a bun's ribbon the edge's colours
  // cut off) go: about 0.1 s on a 4:5 draft.
  dropIslands(alphaPixels, width, height, undefined, near);

  // The light retouch (retouch.ts): exposure and white balance measured on the person, the skin of the face
  // smoothed gently, then the style's look.
  const tone = measureTone(rgb, alphaPixels);
  // In the frame's own pixels: the photo's colours are not read again after this.
  applyTone(rgb, tone, alphaPixels);
  const personRgb = rgb;
  if (!input.spec.gentle) {
    await smoothSkin(personRgb, alphaPixels, width, height, mainInFrame);
    applyStyle(personRgb, input.spec.style, alphaPixels);
  }
  const personRgba = await sharp(frameRgb, { raw: { width, height, channels: 3 } }).joinChannel(alpha, { raw: { width, height, channels: 1 } }).raw().toBuffer();

  const buffer = await sharp(backdrop, { raw: { width, height, channels: 3 } })
    .composite([{ input: personRgba, raw: { width, height, channels: 4 } }])
    // Huffman tables of libjpeg's own: the same pixels, a file 1–2 % larger, about 40 ms less per 4:5 draft.
    .jpeg({ quality: 92, chromaSubsampling: '4:4:4', optimiseCoding: false })
    .withMetadata({ density: OUTPUT_DPI })
    .withExif({ IFD0: { Software: CREATOR_TOOL, ImageDescription: 'AI-assisted composite: person cut out by a model and placed on a generated backdrop' } })
    .withXmp(aiXmp('composite', 'AI-assisted composite: the person from the customer\u2019s own photo, cut out by a segmentation model and placed on a generated backdrop.', CREATOR_TOOL))
    .toBuffer();
  return { buffer, width, height, ...(asPhotographed ? { mask: { alpha, photo: asPhotographed, segmented: asSegmented! } } : {}) };
}

/**
 * The frame, with what lies beyond the photo filled by its edge pixels (the backdrop covers them later), as raw
 * RGB at the output's size.
 */
function cutFrame(source: LevelledPhoto, frame: Box, width: number, height: number): Promise<Buffer> {
  const scale = width / frame.width;
  const inside = {
    left: Math.max(0, frame.x),
    top: Math.max(0, frame.y),
    right: Math.min(source.width, frame.x + frame.width),
    bottom: Math.min(source.height, frame.y + frame.height),
  };
  // One pass at output size: the part inside the photo is cut out and scaled, the rest filled with its edge
  // pixels (sharp extends after resizing, so the padding is given in output pixels). No full-size copy.
  const pad = {
    left: Math.round((inside.left - frame.x) * scale),
    top: Math.round((inside.top - frame.y) * scale),
    right: Math.round((frame.x + frame.width - inside.right) * scale),
    bottom: Math.round((frame.y + frame.height - inside.bottom) * scale),
  };
  return sharp(source.buffer)
    .rotate()
    .extract({ left: inside.left, top: inside.top, width: inside.right - inside.left, height: inside.bottom - inside.top })
    .resize(Math.max(1, width - pad.left - pad.right), Math.max(1, height - pad.top - pad.bottom), { fit: 'fill' })
    .extend({ ...pad, extendWith: 'copy' })
    .removeAlpha()
    .raw()
    .toBuffer();
}
