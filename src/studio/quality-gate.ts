// The quality gate at upload: is there exactly one face, large, sharp, well lit, upright and turned to the camera?
// Refusals stop an upload: no face, several faces, and a photo so blurred, dark, burnt out or tilted that
// nothing can be made of it. Milder cases are warnings with advice for the customer. Callable without a
// server: bytes and an inference client in, a report out. The report also carries the face's descriptor, for
// the identity check across an order's photos (identity.ts).
import sharp from 'sharp';
import { roundDescriptor } from './identity.js';
import type { Inference } from './inference/client.js';
import { SEGMENTATION_SIZE } from './inference/segmentation-size.js';
import type { Box, DetectedFace, FaceDescriptor, FaceLandmarks, RgbImage } from './inference/types.js';
import { EDGE_REACH, MOUTH_LINE } from './beside-the-head.js';
import { rowSpans } from './person-mask.js';
import { levellingAngle, turned } from './levelling.js';
import { FACE_SAMPLE_PX, GATE } from './thresholds.js';

/**
 * A severe case has a code of its own ('tooBlurred' beside 'blurred', …) rather than a severity on the same
 * code: a code then means one thing everywhere. Refusing codes reach the customer as the upload's error
 * (errors.<code>), warnings as advice under the photo (order.upload.quality.warnings.<code>, PhotoWarning),
 * and stored reports never hold a refusing code, because a refused photo is not stored.
 */
export const REFUSING_ISSUES = ['noFace', 'multipleFaces', 'tooBlurred', 'farTooDark', 'farTooBright', 'headTiltedTooFar'] as const;
export const WARNING_ISSUES = ['faceTooSmall', 'lowResolution', 'headTurned', 'headTilted', 'blurred', 'tooDark', 'tooBright', 'otherPeople'] as const;
export type QualityIssueCode = (typeof REFUSING_ISSUES)[number] | (typeof WARNING_ISSUES)[number];

/** Whether an issue's code refuses the photo (a stored report's code may be one the gate no longer gives). */
export function isRefusing(code: string): boolean {
  return (REFUSING_ISSUES as readonly string[]).includes(code);
}

export interface QualityIssue {
  code: QualityIssueCode;
  measured: number;
  limit: number;
}

export interface QualityReport {
  verdict: 'ok' | 'warning' | 'refused';
  issues: QualityIssue[];
  /** The main face in the stored photo's pixels, for framing later. */
  face: (Box & { yaw: number; pitch: number; roll: number }) | null;
  measures: { faces: number; faceHeightRatio?: number; faceHeightPx?: number; sharpness?: number; brightness?: number; clipped?: number; otherPersonAtSide?: number };
  /**
   * The main face's 128-d descriptor (biometric data: stored only with the photo, never logged or shown).
   * Missing in reports made before the identity check, and when the net found no face to describe.
   */
  descriptor?: FaceDescriptor;
}

/** Variance of the 4-neighbour Laplacian: low when edges are soft (blur, heavy noise reduction, upscaling). */
export function laplacianVariance(gray: Uint8Array, width: number, height: number): number {
  let sum = 0;
  let sumSq = 0;
  let n = 0;
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      const value = gray[i - width]! + gray[i + width]! + gray[i - 1]! + gray[i + 1]! - 4 * gray[i]!;
      sum += value;
      sumSq += value * value;
      n++;
    }
  }
  const mean = sum / n;
  return sumSq / n - mean * mean;
}

function clampBox(box: Box, width: number, height: number): Box {
  const x = Math.max(0, Math.floor(box.x));
  const y = Math.max(0, Math.floor(box.y));
  return { x, y, width: Math.max(1, Math.min(width - x, Math.round(box.width))), height: Math.max(1, Math.min(height - y, Math.round(box.height))) };
}

/**
 * `analysisLongSidePx`: the size the photo is examined at (GATE.analysisLongSidePx for uploads; a generated
 * head-and-shoulders picture, whose face is large, is examined smaller: OUTPUT_GATE.analysisLongSidePx).
 */
export async function assessPhoto(
  input: Buffer,
  inference: Inference,
  /** `sides: false` skips the look for someone at the photo's side (its person map): the output gate's pictures have a drawn backdrop there. */
  options: { analysisLongSidePx?: number; sides?: boolean } = {},
): Promise<QualityReport> {
  const image = sharp(input).rotate();
  const meta = await image.metadata();
  const width = meta.autoOrient?.width ?? meta.width ?? 0;
  const height = meta.autoOrient?.height ?? meta.height ?? 0;
  const scale = Math.min(1, (options.analysisLongSidePx ?? GATE.analysisLongSidePx) / Math.max(width, height));
  const size = { width: Math.round(width * scale), height: Math.round(height * scale) };
  const analysed = await decoded(input, size);
  // The faces are found on a smaller copy (the detector looks at 256 px; its time grows with the input) and
  // mapped back; sharpness, light and the descriptor's chip use the analysed size.
  const detectScale = Math.min(1, GATE.detectionLongSidePx / Math.max(analysed.width, analysed.height));
  const detectOn = detectScale < 1 ? await shrunk(analysed, detectScale) : null;
  const faces = (await inference.detectFaces(detectOn ?? analysed))
    .filter((face) => face.score >= GATE.minFaceScore)
    .map((face) => (detectOn ? scaledFace(face, analysed.width / detectOn.width, analysed.height / detectOn.height) : face));
  if (faces.length === 0) return { verdict: 'refused', issues: [{ code: 'noFace', measured: 0, limit: 1 }], face: null, measures: { faces: 0 } };

  const sorted = [...faces].sort((a, b) => b.box.height - a.box.height);
  const main = sorted[0]!;
  const others = sorted.slice(1).filter((face) => face.box.height >= main.box.height * GATE.otherFaceRelativeHeight);
  if (others.length > 0) {
    return { verdict: 'refused', issues: [{ code: 'multipleFaces', measured: others.length + 1, limit: 1 }], face: null, measures: { faces: others.length + 1 } };
  }

  const issues: QualityIssue[] = [];
  const faceHeightRatio = main.box.height / analysed.height;
  if (faceHeightRatio < GATE.minFaceHeightRatio) issues.push({ code: 'faceTooSmall', measured: round(faceHeightRatio), limit: GATE.minFaceHeightRatio });
  const faceHeightPx = main.box.height / scale;
  if (faceHeightPx < GATE.minFaceHeightPx) issues.push({ code: 'lowResolution', measured: Math.round(faceHeightPx), limit: GATE.minFaceHeightPx });
  const turned = Math.max(Math.abs(main.yaw) / GATE.maxYaw, Math.abs(main.pitch) / GATE.maxPitch);
  if (turned > 1) issues.push({ code: 'headTurned', measured: round(Math.max(Math.abs(main.yaw), Math.abs(main.pitch))), limit: Math.abs(main.yaw) / GATE.maxYaw >= Math.abs(main.pitch) / GATE.maxPitch ? GATE.maxYaw : GATE.maxPitch });
  // Framing does not straighten a tilted head, so the tilt is judged apart from turning, with its own advice.
  const roll = Math.abs(main.roll);
  if (roll > GATE.maxUsableRoll) issues.push({ code: 'headTiltedTooFar', measured: round(roll), limit: GATE.maxUsableRoll });
  else if (roll > GATE.maxRoll) issues.push({ code: 'headTilted', measured: round(roll), limit: GATE.maxRoll });

  // The face's light and sharpness (here), someone at the side and the descriptor (the models' thread) at once.
  const [{ brightness, clipped, sharpness }, atSide, descriptor] = await Promise.all([
    faceLight(analysed, main),
    options.sides === false ? 0 : otherPersonAtSide(analysed, main, inference),
    // Described even when refused: the output gate (output-gate.ts) judges a generated picture's identity apart
    // from its light and tilt. A refused upload is not stored, so neither is its descriptor.
    inference.describeFace(analysed, main),
  ]);
  if (sharpness < GATE.minUsableSharpness) issues.push({ code: 'tooBlurred', measured: Math.round(sharpness), limit: GATE.minUsableSharpness });
  else if (sharpness < GATE.minSharpness) issues.push({ code: 'blurred', measured: Math.round(sharpness), limit: GATE.minSharpness });
  if (brightness < GATE.minUsableBrightness) issues.push({ code: 'farTooDark', measured: Math.round(brightness), limit: GATE.minUsableBrightness });
  else if (brightness < GATE.minBrightness) issues.push({ code: 'tooDark', measured: Math.round(brightness), limit: GATE.minBrightness });
  // Burnt out: the face's mean near white, or a large part of it clipped; the measure that tripped is reported.
  else if (brightness > GATE.maxUsableBrightness) issues.push({ code: 'farTooBright', measured: Math.round(brightness), limit: GATE.maxUsableBrightness });
  else if (clipped > GATE.maxUsableClippedShare) issues.push({ code: 'farTooBright', measured: round(clipped), limit: GATE.maxUsableClippedShare });
  else if (brightness > GATE.maxBrightness || clipped > GATE.maxClippedShare) {
    issues.push({ code: 'tooBright', measured: Math.round(brightness), limit: GATE.maxBrightness });
  }
  // Someone else at the photo's side (a friend cropped away: hair, a half face, a hand). The studio cuts such
  // people away, but pieces can stay: the customer hears that a photo of them alone works best.
  if (atSide > GATE.maxOtherPersonAtSide) issues.push({ code: 'otherPeople', measured: round(atSide), limit: GATE.maxOtherPersonAtSide });
  // The upload answers with the first issue: a refusal comes before the warnings.
  issues.sort((a, b) => Number(isRefusing(b.code)) - Number(isRefusing(a.code)));

  return {
    verdict: issues.some((issue) => isRefusing(issue.code)) ? 'refused' : issues.length ? 'warning' : 'ok',
    issues,
    face: { x: Math.round(main.box.x / scale), y: Math.round(main.box.y / scale), width: Math.round(main.box.width / scale), height: Math.round(main.box.height / scale), yaw: round(main.yaw), pitch: round(main.pitch), roll: round(main.roll) },
    measures: { faces: 1, faceHeightRatio: round(faceHeightRatio), faceHeightPx: Math.round(faceHeightPx), sharpness: Math.round(sharpness), brightness: Math.round(brightness), clipped: round(clipped), otherPersonAtSide: round(atSide) },
    ...(descriptor ? { descriptor: roundDescriptor(descriptor) } : {}),
  };
}

/** Sharpness and light, judged on the face itself, sampled at a fixed width so photo size does not matter. */
async function faceLight(image: RgbImage, main: DetectedFace): Promise<{ brightness: number; clipped: number; sharpness: number }> {
  const region = clampBox(main.box, image.width, image.height);
  const sampleHeight = Math.max(1, Math.round((region.height / region.width) * FACE_SAMPLE_PX));
  const gray = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } })
    .extract({ left: region.x, top: region.y, width: region.width, height: region.height })
    .resize({ width: FACE_SAMPLE_PX, height: sampleHeight, fit: 'fill' })
    .greyscale()
    .raw()
    .toBuffer();
  const grayPixels = new Uint8Array(gray.buffer, gray.byteOffset, gray.byteLength);
  const brightness = grayPixels.reduce((sum, value) => sum + value, 0) / grayPixels.length;
  const clipped = grayPixels.reduce((count, value) => count + (value >= 250 ? 1 : 0), 0) / grayPixels.length;
  // Sharpness on the face stretched to full contrast: a dark but sharp face is dark, not blurred.
  return { brightness, clipped, sharpness: laplacianVariance(stretchContrast(grayPixels), FACE_SAMPLE_PX, sampleHeight) };
}

function scaledFace(face: DetectedFace, sx: number, sy: number): DetectedFace {
  if (sx === 1 && sy === 1) return face;
  const point = (p: { x: number; y: number }) => ({ x: p.x * sx, y: p.y * sy });
  const { landmarks, ...rest } = face;
  return {
    ...rest,
    box: { x: face.box.x * sx, y: face.box.y * sy, width: face.box.width * sx, height: face.box.height * sy },
    ...(landmarks
      ? {
          landmarks: {
            rightEyeOuter: point(landmarks.rightEyeOuter),
            rightEyeInner: point(landmarks.rightEyeInner),
            leftEyeOuter: point(landmarks.leftEyeOuter),
            leftEyeInner: point(landmarks.leftEyeInner),
            noseBottom: point(landmarks.noseBottom),
          } satisfies FaceLandmarks,
        }
      : {}),
  };
}

/** The photo upright, at `size`, as RGB pixels. */
async function decoded(input: Buffer, size: { width: number; height: number }): Promise<RgbImage> {
  const { data, info } = await sharp(input).rotate().resize({ ...size, fit: 'fill' }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width: info.width, height: info.height };
}

async function shrunk(image: RgbImage, factor: number): Promise<RgbImage> {
  const width = Math.max(1, Math.round(image.width * factor));
  const height = Math.max(1, Math.round(image.height * factor));
  const data = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } }).resize(width, height, { fit: 'fill' }).raw().toBuffer();
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width, height };
}

/** Person probability from which a pixel of the segmentation map counts as someone. */
const PERSON = 128;

/**
 * GATE.maxOtherPersonAtSide's measure: on the person map of the photo set level (as the studio sets it for a
 * draft), the share of the rows beside the face in which a person touches the photo's left or right edge
 * further out than EDGE_REACH face widths; the larger of the two sides.
 */
async function otherPersonAtSide(image: RgbImage, main: DetectedFace, inference: Inference): Promise<number> {
  const angle = levellingAngle(main.roll);
  // Turning the whole photo costs a few times the map's work: it is made twice the map's size first.
  const shrink = Math.min(1, (2 * SEGMENTATION_SIZE) / Math.max(image.width, image.height));
  const small = angle === 0 || shrink === 1 ? image : await shrunk(image, shrink);
  const level = await sharp(small.data, { raw: { width: small.width, height: small.height, channels: 3 } })
    .rotate((angle * 180) / Math.PI, { background: { r: 0, g: 0, b: 0 } })
    .resize(SEGMENTATION_SIZE, SEGMENTATION_SIZE, { fit: 'fill' })
    .raw()
    .toBuffer();
  const probabilities = await inference.segment({ data: new Uint8Array(level.buffer, level.byteOffset, level.byteLength), width: SEGMENTATION_SIZE, height: SEGMENTATION_SIZE });
  const canvas = turned(image, angle);
  const toMap = (p: { x: number; y: number }) => {
    const q = canvas.point(p);
    return { x: (q.x * SEGMENTATION_SIZE) / canvas.width, y: (q.y * SEGMENTATION_SIZE) / canvas.height };
  };
  const centre = toMap({ x: main.box.x + main.box.width / 2, y: main.box.y + main.box.height / 2 });
  const faceWidth = (main.box.width * SEGMENTATION_SIZE) / canvas.width;
  const faceHeight = (main.box.height * SEGMENTATION_SIZE) / canvas.height;
  const photo = rowSpans(
    [
      { x: 0, y: 0 },
      { x: image.width, y: 0 },
      { x: image.width, y: image.height },
      { x: 0, y: image.height },
    ].map(toMap),
    SEGMENTATION_SIZE,
  );
  const person = (y: number, x: number, inward: number) => probabilities[y * SEGMENTATION_SIZE + x]! >= PERSON || probabilities[y * SEGMENTATION_SIZE + x + inward]! >= PERSON;
  const top = Math.max(0, Math.floor(centre.y - faceHeight / 2));
  const mouth = Math.min(SEGMENTATION_SIZE, Math.ceil(centre.y - faceHeight / 2 + faceHeight * MOUTH_LINE));
  let rows = 0;
  let left = 0;
  let right = 0;
  for (let y = top; y < mouth; y++) {
    const { from, to } = photo[y]!;
    if (to - from < 2) continue;
    rows++;
    if (centre.x - from > EDGE_REACH * faceWidth && person(y, from, 1)) left++;
    if (to - centre.x > EDGE_REACH * faceWidth && person(y, to, -1)) right++;
  }
  return rows ? Math.max(left, right) / rows : 0;
}

/** Stretches the 1st–99th percentile of the values to 0–255. */
function stretchContrast(values: Uint8Array): Uint8Array {
  const histogram = new Uint32Array(256);
  for (const value of values) histogram[value]!++;
  const percentile = (share: number) => {
    let seen = 0;
    for (let v = 0; v < 256; v++) {
      seen += histogram[v]!;
      if (seen >= values.length * share) return v;
    }
    return 255;
  };
  const low = percentile(0.01);
  const high = Math.max(low + 1, percentile(0.99));
  const out = new Uint8Array(values.length);
  for (let i = 0; i < values.length; i++) out[i] = Math.max(0, Math.min(255, Math.round(((values[i]! - low) * 255) / (high - low))));
  return out;
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

export type { DetectedFace };
