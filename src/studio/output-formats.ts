// A generated picture in the shop's three formats: the studio's face framing (formats.ts, framing.ts) applied
// to the generator's output, 300 DPI, marked as AI-generated. The generator painted the whole picture, so a
// frame never reaches past its edges (nothing is filled in): where the ideal frame would, the frame is
// narrowed around the face instead, and the face comes out a little larger.
import sharp from 'sharp';
import { OUTPUT_DPI } from '../domain/catalog.js';
import { crownIn, frameFor } from './framing.js';
import { OUTPUT_FORMAT_KEYS, OUTPUT_FORMATS, type OutputFormat, type OutputFormatKey } from './formats.js';
import type { Inference } from './inference/client.js';
import { SEGMENTATION_SIZE } from './inference/segmentation-size.js';
import type { Box } from './inference/types.js';
import { aiXmp } from './metadata.js';

export interface FramedOutput {
  format: OutputFormatKey;
  buffer: Buffer;
  width: number;
  height: number;
  /** The face's height as a share of the frame's height (the format asks for format.faceHeight). */
  faceHeightShare: number;
}

/**
 * Who made a generated draft, as its files say (EXIF Software, XMP creator tool): the shop. Which provider or
 * GPU host ran the model is for the privacy policy and staff, not for every file a customer passes on.
 */
export const GENERATED_CREATOR_TOOL = 'Bewerbungsfoto Studio (generated drafts)';

/** The largest share of a frame's height the face may take when the picture's edges force a narrower frame (more where the format itself asks for more). */
const MAX_FACE_SHARE = 0.6;

/**
 * The format's frame around the face, kept inside the picture: as large as the format asks, but no larger than
 * lets the face sit where the format puts it (centred, at faceCenterY) without passing an edge; only when even a
 * frame at MAX_FACE_SHARE would pass one does the face move off its place instead.
 */
export function frameInside(face: Box, picture: { width: number; height: number }, format: OutputFormat, crownY: number | null = null): Box {
  const ideal = frameFor(face, picture, format, crownY);
  const aspect = format.width / format.height;
  const centerX = face.x + face.width / 2;
  const centerY = face.y + face.height / 2;
  const fits = Math.min(
    centerY / format.faceCenterY,
    (picture.height - centerY) / (1 - format.faceCenterY),
    (2 * Math.min(centerX, picture.width - centerX)) / aspect,
  );
  const largest = Math.min(picture.height, picture.width / aspect);
  const height = Math.min(largest, Math.max(Math.min(ideal.height, fits), face.height / Math.max(MAX_FACE_SHARE, format.faceHeight + 0.1)));
  const width = height * aspect;
  const x = Math.min(Math.max(0, centerX - width / 2), picture.width - width);
  let y = Math.min(Math.max(0, centerY - format.faceCenterY * height), picture.height - height);
  // Never below the top of the head: the detector's box is larger than the face and knows nothing of hair or a
  // cap, so a frame placed by the box alone cut the crown off squares (issue 55). Up to the format's headroom above
  // the measured crown, or the picture's top where the picture itself allows no more.
  if (crownY !== null) y = Math.min(y, Math.max(0, crownY - (format.headroom ?? 0) * height));
  return { x: Math.round(x), y: Math.round(y), width: Math.max(1, Math.floor(width)), height: Math.max(1, Math.floor(height)) };
}

/**
 * The formats this picture cannot give within the studio's own limits (formats.ts maxFaceHeight): the face is so
 * large in it that even the widest frame inside the picture makes it larger than the studio would ever deliver.
 * Such a picture is not framed tighter still, nor filled in: it is asked for again (generated-drafts.ts).
 */
export function tooTightFor(face: Box, picture: { width: number; height: number }, crownY: number | null = null, formats: readonly OutputFormatKey[] = OUTPUT_FORMAT_KEYS): OutputFormatKey[] {
  return formats.filter((key) => face.height / frameInside(face, picture, OUTPUT_FORMATS[key], crownY).height > OUTPUT_FORMATS[key].maxFaceHeight);
}

/**
 * The size a format is delivered in: 4:5 and 1:1 as large as the generator's picture gives (never below the
 * format's own size); 35 × 45 mm exactly its print size at 300 DPI.
 */
export function deliverySize(format: OutputFormat, frame: Box): { width: number; height: number } {
  if (format.key === 'application') return { width: format.width, height: format.height };
  const scale = Math.max(1, frame.width / format.width);
  return { width: Math.round(format.width * scale), height: Math.round(format.height * scale) };
}

/**
 * The top of the head above the face in a picture, hair or a cap included, in the picture's pixels (framing.ts
 * crownIn): from the person map of the whole picture; null where the map shows no one over the face.
 */
export async function crownOf(picture: Buffer, face: Box, inference: Pick<Inference, 'segment'>): Promise<number | null> {
  const { data, info } = await sharp(picture).rotate().resize(SEGMENTATION_SIZE, SEGMENTATION_SIZE, { fit: 'fill' }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const meta = await sharp(picture).metadata();
  const mask = await inference.segment({ data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width: info.width, height: info.height });
  return crownIn({ mask, left: 0, top: 0, right: meta.autoOrient?.width ?? meta.width!, bottom: meta.autoOrient?.height ?? meta.height! }, face);
}

export async function frameGeneratedPicture(input: {
  /** The generator's picture, decoded and re-encoded already (no foreign metadata). */
  picture: Buffer;
  /** The main face in the picture's pixels. */
  face: Box;
  /** The top of the head (crownOf), so no frame cuts it; null: the face box alone. */
  crownY?: number | null;
  /** EXIF Software and XMP creator tool (GENERATED_CREATOR_TOOL in the shop). */
  creatorTool: string;
  formats?: readonly OutputFormatKey[];
}): Promise<FramedOutput[]> {
  const meta = await sharp(input.picture).metadata();
  const picture = { width: meta.autoOrient?.width ?? meta.width!, height: meta.autoOrient?.height ?? meta.height! };
  const outputs: FramedOutput[] = [];
  for (const key of input.formats ?? OUTPUT_FORMAT_KEYS) {
    const format = OUTPUT_FORMATS[key];
    const frame = frameInside(input.face, picture, format, input.crownY ?? null);
    const size = deliverySize(format, frame);
    const buffer = await sharp(input.picture)
      .rotate()
      .extract({ left: frame.x, top: frame.y, width: Math.min(frame.width, picture.width - frame.x), height: Math.min(frame.height, picture.height - frame.y) })
      .resize(size.width, size.height, { fit: 'fill', kernel: 'lanczos3' })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 92, chromaSubsampling: '4:4:4' })
      .withMetadata({ density: OUTPUT_DPI })
      .withExif({ IFD0: { Software: input.creatorTool, ImageDescription: 'AI-generated by an image generation model from the customer\u2019s photos' } })
      .withXmp(aiXmp('generated', `AI-generated by ${input.creatorTool} from the customer\u2019s photos, framed for ${format.key}.`, input.creatorTool))
      .toBuffer();
    outputs.push({ format: key, buffer, width: size.width, height: size.height, faceHeightShare: Math.round((input.face.height / frame.height) * 1000) / 1000 });
  }
  return outputs;
}
