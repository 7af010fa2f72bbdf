// One studio draft: the customer's photo framed around the face, the person cut out with a refined edge,
// mildly balanced, placed on a backdrop, marked as AI-made, at 300 DPI. Callable without a server.
import sharp from 'sharp';
import type { BaseStyle } from '../domain/catalog.js';
import { drawBackdrop, type BackdropKind } from './backdrops.js';
import { OUTPUT_DPI } from '../domain/catalog.js';
import { OUTPUT_FORMATS, type OutputFormatKey } from './formats.js';
import { frameFor, visibleArea } from './framing.js';
import type { Inference } from './inference/client.js';
import { SEGMENTATION_SIZE } from './inference/segmentation-size.js';
import type { Box } from './inference/types.js';
import { aiXmp } from './metadata.js';
import { measureTone } from './tone.js';

export interface DraftSpec {
  format: OutputFormatKey;
  backdrop: { kind: BackdropKind; variant: number };
  style: BaseStyle;
}

export interface RenderedDraft {
  buffer: Buffer;
  width: number;
  height: number;
}

/** Mask probabilities between these become the soft edge; below is backdrop, above is person. */
const EDGE_LOW = 0.42;
const EDGE_HIGH = 0.72;
export const CREATOR_TOOL = 'Bewerbungsfoto Studio (studio drafts)';

export async function renderDraft(input: { photo: Buffer; face: Box; spec: DraftSpec; inference: Inference }): Promise<RenderedDraft> {
  const format = OUTPUT_FORMATS[input.spec.format];
  const { width, height } = format;
  const meta = await sharp(input.photo).metadata();
  const photo = { width: meta.autoOrient?.width ?? meta.width!, height: meta.autoOrient?.height ?? meta.height! };
  const frame = frameFor(input.face, photo, format);

  // The frame, with what lies beyond the photo filled by its edge pixels (the backdrop covers them later).
  const inside = {
    left: Math.max(0, frame.x),
    top: Math.max(0, frame.y),
    right: Math.min(photo.width, frame.x + frame.width),
    bottom: Math.min(photo.height, frame.y + frame.height),
  };
  // One pass at output size: the part inside the photo is cut out and scaled, the rest filled with its edge
  // pixels (sharp extends after resizing, so the padding is given in output pixels). No full-size copy.
  const scale = width / frame.width;
  const pad = {
    left: Math.round((inside.left - frame.x) * scale),
    top: Math.round((inside.top - frame.y) * scale),
    right: Math.round((frame.x + frame.width - inside.right) * scale),
    bottom: Math.round((frame.y + frame.height - inside.bottom) * scale),
  };
  const frameRgb = await sharp(input.photo)
    .rotate()
    .extract({ left: inside.left, top: inside.top, width: inside.right - inside.left, height: inside.bottom - inside.top })
    .resize(Math.max(1, width - pad.left - pad.right), Math.max(1, height - pad.top - pad.bottom), { fit: 'fill' })
    .extend({ ...pad, extendWith: 'copy' })
    .removeAlpha()
    .raw()
    .toBuffer();

  const small = await sharp(frameRgb, { raw: { width, height, channels: 3 } }).resize(SEGMENTATION_SIZE, SEGMENTATION_SIZE, { fit: 'fill' }).raw().toBuffer();
  const probabilities = await input.inference.segment({ data: new Uint8Array(small.buffer, small.byteOffset, small.byteLength), width: SEGMENTATION_SIZE, height: SEGMENTATION_SIZE });

  // The refined edge: enlarged smoothly, the uncertain band stretched into a short ramp, then feathered.
  const slope = 1 / (EDGE_HIGH - EDGE_LOW);
  const alpha = await sharp(Buffer.from(probabilities), { raw: { width: SEGMENTATION_SIZE, height: SEGMENTATION_SIZE, channels: 1 } })
    .resize(width, height, { fit: 'fill', kernel: 'cubic' })
    .linear(slope, -EDGE_LOW * 255 * slope)
    .blur(Math.max(0.6, width / 1200))
    .extractChannel(0)
    .raw()
    .toBuffer();
  // Nothing of the person beyond the photo's own edges.
  const visible = visibleArea(frame, photo, { width, height });
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (x < visible.x || x >= visible.x + visible.width || y < visible.y || y >= visible.y + visible.height) alpha[y * width + x] = 0;
    }
  }

  const tone = measureTone(new Uint8Array(frameRgb.buffer, frameRgb.byteOffset, frameRgb.byteLength), new Uint8Array(alpha.buffer, alpha.byteOffset, alpha.byteLength));
  let person = sharp(frameRgb, { raw: { width, height, channels: 3 } }).linear(tone.gains, [0, 0, 0]);
  if (input.spec.style === 'creative') person = person.modulate({ saturation: 1.08 });
  if (input.spec.style === 'casual') person = person.modulate({ saturation: 1.03, brightness: 1.01 });
  const personRgba = await person.joinChannel(alpha, { raw: { width, height, channels: 1 } }).raw().toBuffer();

  const backdrop = await drawBackdrop(input.spec.backdrop.kind, input.spec.backdrop.variant, width, height);

  const buffer = await sharp(backdrop, { raw: { width, height, channels: 3 } })
    .composite([{ input: personRgba, raw: { width, height, channels: 4 } }])
    .jpeg({ quality: 92, chromaSubsampling: '4:4:4' })
    .withMetadata({ density: OUTPUT_DPI })
    .withExif({ IFD0: { Software: CREATOR_TOOL, ImageDescription: 'AI-assisted composite: person cut out by a model and placed on a generated backdrop' } })
    .withXmp(aiXmp('composite', 'AI-assisted composite: the person from the customer\u2019s own photo, cut out by a segmentation model and placed on a generated backdrop.', CREATOR_TOOL))
    .toBuffer();
  return { buffer, width, height };
}
