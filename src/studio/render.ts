// One studio draft: the customer's photo framed around the face, the person cut out with a refined edge,
// lightly retouched (retouch.ts), placed on a backdrop, marked as AI-made, at 300 DPI. Callable without a server.
import sharp from 'sharp';
import type { BaseStyle } from '../domain/catalog.js';
import { drawBackdrop, type BackdropKind } from './backdrops.js';
import { OUTPUT_DPI } from '../domain/catalog.js';
import { OUTPUT_FORMATS, type OutputFormatKey } from './formats.js';
import { crownIn, frameFor, type PersonMap } from './framing.js';
import type { Inference } from './inference/client.js';
import { POSE_INPUT } from './inference/pose-size.js';
import { SEGMENTATION_SIZE } from './inference/segmentation-size.js';
import type { Box, Pose } from './inference/types.js';
import { aiXmp } from './metadata.js';
import { guidedFilter } from './guided-filter.js';
import { within } from './mask-pieces.js';
import { customerRegion, decontaminate, dropIslands, isMixed, rowSpans, settleHoles } from './person-mask.js';
import { applyStyle, smoothSkin } from './retouch.js';
import { levellingAngle, turned } from './levelling.js';
import { applyTone, measureTone } from './tone.js';
import { GATE } from './thresholds.js';

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
  const photo = { width: source.width, height: source.height };
  const face = source.box(input.face);
  // The frame must not run past the photo's bottom (framing.ts); a turned photo's bottom is its higher lower corner.
  const framed = { width: source.width, height: source.bottom };
  const variation = input.spec.variation ?? 0;
  const faceScale = (format.key === 'application' ? APPLICATION_FACE_SCALE : VARIATION_FACE_SCALE)[variation] ?? 1;
  const head = await headMaskOf(source, face, input.inference);
  const crownY = crownIn(head, face);
  const frame = frameFor(face, framed, { ...format, faceHeight: format.faceHeight * faceScale, headHeight: format.headHeight && format.headHeight * faceScale, tighten: faceScale }, crownY);

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
  const framing = sharp(source.buffer)
    .rotate()
    .extract({ left: inside.left, top: inside.top, width: inside.right - inside.left, height: inside.bottom - inside.top })
    .resize(Math.max(1, width - pad.left - pad.right), Math.max(1, height - pad.top - pad.bottom), { fit: 'fill' })
    .extend({ ...pad, extendWith: 'copy' })
    .removeAlpha()
    .raw()
    .toBuffer();
  // The backdrop is drawn (on this thread) while libvips cuts and scales the frame (on its own): on two cores
  // about 0.1 s less per draft.
  const [frameRgb, backdrop] = await Promise.all([framing, drawBackdrop(input.spec.backdrop.kind, input.spec.backdrop.variant, width, height)]);
  /** From the original photo's pixels to the output's. */
  const toOutput = (point: { x: number; y: number }) => {
    const p = source.point(point);
    return { x: (p.x - frame.x) * scale, y: (p.y - frame.y) * scale };
  };

  const small = await sharp(frameRgb, { raw: { width, height, channels: 3 } }).resize(SEGMENTATION_SIZE, SEGMENTATION_SIZE, { fit: 'fill' }).raw().toBuffer();
  const mainInFrame = { x: (face.x - frame.x) * scale, y: (face.y - frame.y) * scale, width: face.width * scale, height: face.height * scale };
  const [segmented, { faces, poses }] = await Promise.all([
    input.inference.segment({ data: new Uint8Array(small.buffer, small.byteOffset, small.byteLength), width: SEGMENTATION_SIZE, height: SEGMENTATION_SIZE }),
    photoPeople(input.photo, input.inference),
  ]);
  withHead(segmented, head, face, { x0: frame.x, y0: frame.y, step: { x: width / SEGMENTATION_SIZE / scale, y: height / SEGMENTATION_SIZE / scale } });
  const others = faces
    .filter((box) => overlap(box, input.face) < 0.3)
    .map((box) => {
      const centre = toOutput({ x: box.x + box.width / 2, y: box.y + box.height / 2 });
      return { x: centre.x - (box.width * scale) / 2, y: centre.y - (box.height * scale) / 2, width: box.width * scale, height: box.height * scale };
    });
  // Only the customer: friends beside them and hands at the edge are someone else's (person-mask.ts).
  const toMap = (box: Box): Box => ({ x: (box.x * SEGMENTATION_SIZE) / width, y: (box.y * SEGMENTATION_SIZE) / height, width: (box.width * SEGMENTATION_SIZE) / width, height: (box.height * SEGMENTATION_SIZE) / height });
  const posesInMap = poses.map((pose) => ({
    score: pose.score,
    keypoints: pose.keypoints.map((point) => {
      const p = toOutput(point);
      return { x: (p.x * SEGMENTATION_SIZE) / width, y: (p.y * SEGMENTATION_SIZE) / height, score: point.score };
    }),
  }));
  const photoInMap = [
    { x: 0, y: 0 },
    { x: original.width, y: 0 },
    { x: original.width, y: original.height },
    { x: 0, y: original.height },
  ].map((corner) => {
    const p = toOutput(corner);
    return { x: (p.x * SEGMENTATION_SIZE) / width, y: (p.y * SEGMENTATION_SIZE) / height };
  });
  const keep = customerRegion(segmented, SEGMENTATION_SIZE, toMap(mainInFrame), others.map(toMap), posesInMap, rowSpans(photoInMap, SEGMENTATION_SIZE));
  const probabilities = new Uint8Array(segmented.length);
  for (let i = 0; i < probabilities.length; i++) probabilities[i] = Math.round((segmented[i]! * keep[i]!) / 255);
  settleHoles(probabilities, segmented, keep, small, SEGMENTATION_SIZE, toMap(mainInFrame));

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

  // The old background leaves the edge (no blue or green halo on the new backdrop): where the mask runs a
  // little outside the hair, pixels of the old background's colour become transparent, and the colour of
  // the mixed pixels that remain is cleaned of it.
  // For the tests' measures of the edge: the frame as the photo gave it, before the edge steps change it.
  const asPhotographed = input.withMask ? Buffer.from(frameRgb) : null;
  // And the mask as the model gave it: what it left clear is the old background, whatever the edge steps decide.
  const asSegmented = input.withMask ? Buffer.from(alpha) : null;
  const rgb = new Uint8Array(frameRgb.buffer, frameRgb.byteOffset, frameRgb.byteLength);
  const alphaPixels = new Uint8Array(alpha.buffer, alpha.byteOffset, alpha.byteLength);
  const [band, interior] = await Promise.all(
    [300, 60].map((share) => sharp(alpha, { raw: { width, height, channels: 1 } }).blur(Math.max(2, width / share)).extractChannel(0).raw().toBuffer()),
  );
  // The colour estimates are read only near the edge: where refineEdge, decontaminate and suppressSpill look.
  near.fill(0);
  for (let i = 0; i < near.length; i++) {
    const a = alpha[i]!;
    const inner = interior![i]!;
    if ((a > 0 && band![i]! < BAND_SOLID) || isMixed(a) || (inner > 0 && inner < INTERIOR_SOLID)) near[i] = 1;
  }
  // One after the other on the same scratch images: a draft's render rose about 5 MB less than with both at once.
  const scratch = blurScratch(width, height);
  const background = await maskedBlur(frameRgb, width, height, { where: alpha, atMost: 26 }, near, scratch);
  // The person's colour from well inside the mask: the rim may still be the old background.
  const foreground = await maskedBlur(frameRgb, width, height, { where: interior!, atLeast: INTERIOR_SOLID }, near, scratch);
  await nearerColour(foreground, frameRgb, alpha, band!, width, height, near, scratch);
  refineAndFilterEdge(rgb, alphaPixels, background, foreground, band!, width, height);
  decontaminate(rgb, alphaPixels, background, foreground);
  suppressSpill(rgb, interior!, background, foreground);
  keepOwnColour(rgb, alphaPixels, band!, foreground);
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
 * The detector looks for the other people's faces at this size on the photo's long side, as the upload gate
 * does (it works at 256 px; a larger input only grows the models' memory, which never shrinks).
 */
const FACE_SEARCH_PX = GATE.detectionLongSidePx;

// One search per photo: a photo gives several drafts (formats, backdrops), the job passes the same buffer.
const peopleOfPhoto = new WeakMap<Buffer, Promise<{ faces: Box[]; poses: Pose[] }>>();

/**
 * Every face and every body (pose) in the photo as sent (auto-oriented), in its pixels: also those outside a
 * draft's frame whose bodies reach into it. Its size is read here: a levelled copy's would stretch the search.
 */
function photoPeople(photo: Buffer, inference: Inference): Promise<{ faces: Box[]; poses: Pose[] }> {
  let found = peopleOfPhoto.get(photo);
  if (!found) {
    found = (async () => {
      const meta = await sharp(photo).metadata();
      const size = { width: meta.autoOrient?.width ?? meta.width!, height: meta.autoOrient?.height ?? meta.height! };
      const scale = Math.min(1, FACE_SEARCH_PX / Math.max(size.width, size.height));
      const { data, info } = await sharp(photo)
        .rotate()
        .resize(Math.max(1, Math.round(size.width * scale)), Math.max(1, Math.round(size.height * scale)), { fit: 'fill' })
        .removeAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true });
      const image = { data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width: info.width, height: info.height };
      // The pose model sees POSE_INPUT pixels anyway: sent that small, its input takes the models' memory a
      // sixteenth of the room (their WebAssembly memory keeps its largest size).
      const poseScale = Math.min(1, POSE_INPUT / Math.max(info.width, info.height));
      const forPoses = await sharp(data, { raw: { width: info.width, height: info.height, channels: 3 } })
        .resize(Math.max(1, Math.round(info.width * poseScale)), Math.max(1, Math.round(info.height * poseScale)), { fit: 'fill' })
        .raw()
        .toBuffer({ resolveWithObject: true });
      const poseImage = { data: new Uint8Array(forPoses.data.buffer, forPoses.data.byteOffset, forPoses.data.byteLength), width: forPoses.info.width, height: forPoses.info.height };
      const [faces, poses] = await Promise.all([inference.detectFaces(image), inference.detectPoses(poseImage)]);
      const poseX = size.width / poseImage.width;
      const poseY = size.height / poseImage.height;
      return {
        faces: faces.map((face) => ({ x: face.box.x / scale, y: face.box.y / scale, width: face.box.width / scale, height: face.box.height / scale })),
        poses: poses.map((pose) => ({ score: pose.score, keypoints: pose.keypoints.map((point) => ({ x: point.x * poseX, y: point.y * poseY, score: point.score })) })),
      };
    })();
    peopleOfPhoto.set(photo, found);
  }
  return found;
}

/** The person mask of a crop around the head, and where that crop lies in the (levelled) photo's pixels. */
export type HeadMask = PersonMap;

const headMasks = new WeakMap<Buffer, Map<string, Promise<HeadMask | null>>>();

/**
 * The segmentation model on a crop around the head (three face widths by two face heights), once per photo and
 * face. Seen this close, the model keeps what it loses on a whole bust: a cap's white crown, hair standing up.
 */
function headMaskOf(source: Source, face: Box, inference: Inference): Promise<HeadMask | null> {
  let perPhoto = headMasks.get(source.buffer);
  if (!perPhoto) headMasks.set(source.buffer, (perPhoto = new Map()));
  const key = `${face.x},${face.y},${face.width},${face.height}`;
  let found = perPhoto.get(key);
  if (!found) {
    found = (async () => {
      const left = Math.max(0, Math.round(face.x - face.width));
      const top = Math.max(0, Math.round(face.y - face.height * 0.8));
      const right = Math.min(source.width, Math.round(face.x + face.width * 2));
      const bottom = Math.min(source.height, Math.round(face.y + face.height * 1.2));
      if (right - left < 8 || bottom - top < 8) return null;
      const small = await sharp(source.buffer)
        .rotate()
        .extract({ left, top, width: right - left, height: bottom - top })
        .resize(SEGMENTATION_SIZE, SEGMENTATION_SIZE, { fit: 'fill' })
        .removeAlpha()
        .raw()
        .toBuffer();
      const mask = await inference.segment({ data: new Uint8Array(small.buffer, small.byteOffset, small.byteLength), width: SEGMENTATION_SIZE, height: SEGMENTATION_SIZE });
      return { mask, left, top, right, bottom };
    })();
    perPhoto.set(key, found);
  }
  return found;
}

/** Where the head mask counts: from the face box's sides this share of its width outwards, down to this share of its height. */
const HEAD_ZONE = { side: 0.2, down: 0.4, ramp: 0.15 } as const;
/**
 * Only where the head mask is sure (0–255): a cap's crown measures 230 and more; a hair bow or a ponytail against a
 * dark wall 130–200, which as half-transparent person showed as a grey ghost over the head: from 170 it
 * counts only in part (200 gives about half), so the brightest of such a bow can still come in faintly.
 */
const HEAD_SURE = { from: 170, to: 230 } as const;

/**
 * Over the top of the head the frame's person map takes the head mask where that is sure and surer (the higher of the two),
 * fading out over a short ramp at the zone's sides and bottom (and the head crop's top) so the two maps meet without a step. `toSource`:
 * the map's top left corner in the photo's pixels and one map pixel's size there.
 */
export function withHead(map: Uint8Array, head: HeadMask | null, face: Box, toSource: { x0: number; y0: number; step: { x: number; y: number } }): void {
  if (!head) return;
  const ramp = HEAD_ZONE.ramp * face.width;
  const zone = { left: face.x - HEAD_ZONE.side * face.width, right: face.x + face.width * (1 + HEAD_ZONE.side), bottom: face.y + face.height * HEAD_ZONE.down };
  const sx = SEGMENTATION_SIZE / (head.right - head.left);
  const sy = SEGMENTATION_SIZE / (head.bottom - head.top);
  const last = SEGMENTATION_SIZE - 1;
  const mask = head.mask;
  for (let my = 0; my < SEGMENTATION_SIZE; my++) {
    const py = toSource.y0 + (my + 0.5) * toSource.step.y;
    if (py < head.top || py >= head.bottom || py >= zone.bottom) continue;
    // Where the head crop's top lies inside the photo the crop may cut a tall head: the merge fades in below it
    // too (at the photo's own top edge, fadeOutsidePhoto fades the person).
    const fromTop = head.top > 0 ? (py - head.top) / ramp : 1;
    const hy = Math.min(last, Math.max(0, (py - head.top) * sy - 0.5));
    const y0 = Math.floor(hy);
    const y1 = Math.min(last, y0 + 1);
    const fy = hy - y0;
    for (let mx = 0; mx < SEGMENTATION_SIZE; mx++) {
      const px = toSource.x0 + (mx + 0.5) * toSource.step.x;
      const weight = Math.min(1, (px - zone.left) / ramp, (zone.right - px) / ramp, (zone.bottom - py) / ramp, fromTop);
      if (weight <= 0 || px < head.left || px >= head.right) continue;
      // Bilinear in the head mask.
      const hx = Math.min(last, Math.max(0, (px - head.left) * sx - 0.5));
      const x0 = Math.floor(hx);
      const x1 = Math.min(last, x0 + 1);
      const fx = hx - x0;
      const top = mask[y0 * SEGMENTATION_SIZE + x0]! * (1 - fx) + mask[y0 * SEGMENTATION_SIZE + x1]! * fx;
      const bottom = mask[y1 * SEGMENTATION_SIZE + x0]! * (1 - fx) + mask[y1 * SEGMENTATION_SIZE + x1]! * fx;
      const value = top * (1 - fy) + bottom * fy;
      const sure = Math.max(0, Math.min(255, ((value - HEAD_SURE.from) * 255) / (HEAD_SURE.to - HEAD_SURE.from)));
      const i = my * SEGMENTATION_SIZE + mx;
      map[i] = Math.max(map[i]!, Math.round(sure * weight));
    }
  }
}

/** Intersection over union of two boxes. */
function overlap(a: Box, b: Box): number {
  const w = Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x));
  const h = Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y));
  const inter = w * h;
  return inter / (a.width * a.height + b.width * b.height - inter);
}

/**
 * A see-through zone wider than an edge is no edge: what the model was unsure of beside the person (a friend's
 * dark hair behind her shoulder, kept at a quarter opacity) showed as a grey ghost on the new backdrop (issue 54's
 * "ragged smear over a shoulder"). Opacity below GHOST_SOLID further than GHOST_REACH (a share of the width) from
 * any pixel at GHOST_SOLID or more goes. Before the photo's edges fade the person out on purpose.
 */
const GHOST_SOLID = 200;
const GHOST_REACH = 1 / 100;

export function dropGhosts(alpha: Uint8Array, width: number, height: number, scratch: Uint8Array = new Uint8Array(width * height)): void {
  const near = within(alpha, GHOST_SOLID, width, height, Math.max(2, Math.round(width * GHOST_REACH)), scratch);
  for (let i = 0; i < alpha.length; i++) if (near[i] === 0 && alpha[i]! > 0 && alpha[i]! < GHOST_SOLID) alpha[i] = 0;
}

/** Share of the output's shorter side over which the person fades out where the photo ends inside the frame. */
const PHOTO_EDGE_FADE = 0.12;
/**
 * The same at the photo's top edge: the head seldom reaches it, but hair a little below it (the astronaut's,
 * Franck's: 3 to 6 % of the photo) faded over the full ramp showed as a see-through band over the head.
 */
const PHOTO_TOP_FADE = 0.02;

/**
 * Zero outside the photo, and a smooth ramp inside each of its edges that shows in the output (a photo edge
 * that runs along the output's own border, or outside it, shows nothing and needs none). `corners`: the
 * photo's corners in output pixels, clockwise from the top left; turned when the photo was levelled.
 */
function fadeOutsidePhoto(alpha: Buffer, width: number, height: number, corners: { x: number; y: number }[]): void {
  const edges = corners.map((a, i) => {
    const b = corners[(i + 1) % corners.length]!;
    const length = Math.hypot(b.x - a.x, b.y - a.y) || 1;
    // Inward normal: the corners go clockwise on screen (y down).
    const nx = -(b.y - a.y) / length;
    const ny = (b.x - a.x) / length;
    // The photo's top edge (the first) only just above the hair: a long fade there dims the top of the head.
    const ramp = Math.max(1, Math.min(width, height) * (i === 0 ? PHOTO_TOP_FADE : PHOTO_EDGE_FADE));
    return { nx, ny, offset: -(nx * a.x + ny * a.y), visible: crossesInterior(a, b, width, height), ramp };
  });
  for (let y = 0; y < height; y++) {
    // Each edge's distance is linear along the row: the pixels at least a ramp inside every visible edge (and
    // inside the others) form one run, which keeps its alpha as it is.
    let from = 0;
    let to = width;
    for (const edge of edges) {
      const need = edge.visible ? edge.ramp : 0;
      const base = edge.ny * (y + 0.5) + edge.offset - need;
      // nx·(x + 0.5) + base >= 0
      if (Math.abs(edge.nx) < 1e-9) {
        if (base < 0) to = from;
      } else if (edge.nx > 0) from = Math.max(from, Math.ceil(-base / edge.nx - 0.5));
      else to = Math.min(to, Math.floor(-base / edge.nx - 0.5) + 1);
    }
    for (let x = 0; x < width; x++) {
      if (x === from && to > from) x = to;
      if (x >= width) break;
      if (alpha[y * width + x] === 0) continue;
      let inside = Infinity;
      for (const edge of edges) {
        const distance = edge.nx * (x + 0.5) + edge.ny * (y + 0.5) + edge.offset;
        if (distance < 0) {
          inside = 0;
          break;
        }
        if (edge.visible) inside = Math.min(inside, distance / edge.ramp);
      }
      if (inside >= 1) continue;
      const i = y * width + x;
      // Smoothstep: no visible line where the ramp begins.
      alpha[i] = Math.round(alpha[i]! * inside * inside * (3 - 2 * inside));
    }
  }
}

/** Whether the segment a–b passes through the output's interior (more than a pixel inside its border). */
function crossesInterior(a: { x: number; y: number }, b: { x: number; y: number }, width: number, height: number): boolean {
  // Liang–Barsky clipping against the rectangle shrunk by one pixel.
  let t0 = 0;
  let t1 = 1;
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  for (const [p, q] of [
    [-dx, a.x - 1],
    [dx, width - 1 - a.x],
    [-dy, a.y - 1],
    [dy, height - 1 - a.y],
  ] as const) {
    if (p === 0) {
      if (q < 0) return false;
      continue;
    }
    const t = q / p;
    if (p < 0) t0 = Math.max(t0, t);
    else t1 = Math.min(t1, t);
    if (t0 > t1) return false;
  }
  return true;
}

/** Radius of the colour estimates of the old background and of the person near an edge, as a share of the width. */
const COLOUR_BLUR = 1 / 80;

/** A masked blur is made on images shrunk until its radius is this many of their pixels. */
const BLUR_AT_LEAST = 3;

/** For each of `size` pixels, the two of `smaller` pixels its centre lies between, and the second's weight. */
function sampling(size: number, smaller: number): { left: Int32Array; right: Int32Array; weight: Float32Array } {
  const left = new Int32Array(size);
  const right = new Int32Array(size);
  const weight = new Float32Array(size);
  for (let x = 0; x < size; x++) {
    const u = Math.min(smaller - 1, Math.max(0, ((x + 0.5) * smaller) / size - 0.5));
    left[x] = Math.min(Math.max(0, smaller - 2), Math.floor(u));
    right[x] = Math.min(smaller - 1, left[x]! + 1);
    weight[x] = smaller > 1 ? u - left[x]! : 0;
  }
  return { left, right, weight };
}

/** The images a masked blur fills before it blurs them: reusable by the next one once it has resolved. */
export interface BlurScratch {
  weight: Buffer;
  weighted: Buffer;
}

export function blurScratch(width: number, height: number): BlurScratch {
  return { weight: Buffer.allocUnsafe(width * height), weighted: Buffer.allocUnsafe(width * height * 3) };
}

/**
 * The mean colour around every pixel of the pixels whose `where` value lies in atLeast–atMost (0 where there are
 * none), worked out only where `only` is set (0 elsewhere).
 */
export async function maskedBlur(
  rgb: Buffer,
  width: number,
  height: number,
  take: { where: Buffer; atMost?: number; atLeast?: number },
  only: Uint8Array,
  scratch: BlurScratch = blurScratch(width, height),
): Promise<Uint8Array> {
  const { weight, weighted } = scratch;
  const { where } = take;
  const low = take.atLeast ?? 0;
  const high = take.atMost ?? 255;
  for (let i = 0, p = 0; i < weight.length; i++, p += 3) {
    const value = where[i]!;
    if (value < low || value > high) {
      weight[i] = weighted[p] = weighted[p + 1] = weighted[p + 2] = 0;
      continue;
    }
    weight[i] = 255;
    weighted[p] = rgb[p]!;
    weighted[p + 1] = rgb[p + 1]!;
    weighted[p + 2] = rgb[p + 2]!;
  }
  const sigma = Math.max(2, width * COLOUR_BLUR);
  // A wide blur is as good made smaller: both images shrunk by `factor` (a blur of a few pixels left), blurred,
  // and read back between their pixels: on a 4:5 draft about half the time of a blur at full size.
  const factor = Math.max(1, Math.floor(sigma / BLUR_AT_LEAST));
  const small = { width: Math.max(1, Math.round(width / factor)), height: Math.max(1, Math.round(height / factor)) };
  const [sum, count] = await Promise.all([
    sharp(weighted, { raw: { width, height, channels: 3 } }).resize(small.width, small.height, { fit: 'fill', kernel: 'linear' }).blur(sigma / factor).raw().toBuffer(),
    sharp(weight, { raw: { width, height, channels: 1 } }).resize(small.width, small.height, { fit: 'fill', kernel: 'linear' }).blur(sigma / factor).extractChannel(0).raw().toBuffer(),
  ]);
  const out = new Uint8Array(width * height * 3);
  // Where each output pixel's centre falls in the small images (their pixels' centres at whole numbers).
  const across = sampling(width, small.width);
  for (let y = 0; y < height; y++) {
    const v = Math.min(small.height - 1, Math.max(0, ((y + 0.5) * small.height) / height - 0.5));
    const y0 = Math.min(small.height - 2, Math.floor(v));
    const wy = small.height > 1 ? v - y0 : 0;
    const top = Math.max(0, y0) * small.width;
    const bottom = small.height > 1 ? top + small.width : top;
    for (let x = 0, i = y * width; x < width; x++, i++) {
      if (!only[i]) continue;
      const x0 = across.left[x]!;
      const x1 = across.right[x]!;
      const wx = across.weight[x]!;
      // The four neighbours' weights.
      const w00 = (1 - wx) * (1 - wy);
      const w01 = wx * (1 - wy);
      const w10 = (1 - wx) * wy;
      const w11 = wx * wy;
      const a = top + x0;
      const b = top + x1;
      const c = bottom + x0;
      const d = bottom + x1;
      const n = count[a]! * w00 + count[b]! * w01 + count[c]! * w10 + count[d]! * w11;
      if (n < 3) continue;
      const red = Math.min(255, Math.round(((sum[a * 3]! * w00 + sum[b * 3]! * w01 + sum[c * 3]! * w10 + sum[d * 3]! * w11) * 255) / n));
      const green = Math.min(255, Math.round(((sum[a * 3 + 1]! * w00 + sum[b * 3 + 1]! * w01 + sum[c * 3 + 1]! * w10 + sum[d * 3 + 1]! * w11) * 255) / n));
      const blue = Math.min(255, Math.round(((sum[a * 3 + 2]! * w00 + sum[b * 3 + 2]! * w01 + sum[c * 3 + 2]! * w10 + sum[d * 3 + 2]! * w11) * 255) / n));
      const p = i * 3;
      // (0, 0, 0) means "nothing seen" to the edge's steps: a black background seen is (0, 0, 1).
      out[p + 2] = Math.max(red || green ? 0 : 1, blue);
      out[p] = red;
      out[p + 1] = green;
    }
  }
  return out;
}

/**
 * Where no pixel well inside the person lies within the estimate's reach (the crown of a head whose hair is a thin
 * arc above the forehead; a shoulder cut by the frame), the person's colour is read nearer the edge: from the pixels
 * that are solid with all their near neighbours (`band` at BAND_SOLID or above). Without it the edge's steps had
 * no colour of the person there: the estimate took the hair for the old background, the guided filter brought a
 * third of it back, and the solve turned that third into a pale yellow line along the top of the hair (issue 54,
 * sample3's selfie). `missing` is the pixels the estimates were read for; it is overwritten.
 */
async function nearerColour(foreground: Uint8Array, rgb: Buffer, alpha: Buffer, band: Buffer, width: number, height: number, missing: Uint8Array, scratch: BlurScratch): Promise<void> {
  let any = false;
  for (let i = 0, p = 0; i < missing.length; i++, p += 3) {
    const unseen = missing[i] === 1 && alpha[i]! > 0 && foreground[p] === 0 && foreground[p + 1] === 0 && foreground[p + 2] === 0;
    missing[i] = unseen ? 1 : 0;
    any ||= unseen;
  }
  if (!any) return;
  const nearer = await maskedBlur(rgb, width, height, { where: band, atLeast: BAND_SOLID }, missing, scratch);
  for (let i = 0, p = 0; i < missing.length; i++, p += 3) {
    if (!missing[i]) continue;
    foreground[p] = nearer[p]!;
    foreground[p + 1] = nearer[p + 1]!;
    foreground[p + 2] = nearer[p + 2]!;
  }
}

/**
 * The edge's guided filter: its window's radius as a share of the output's width (12 px on a 1200 px portrait),
 * the regularisation (larger: softer where the photo's edge is faint) and the solve's scale. Tried on the contact
 * sheets: a 1/150 radius with 1e-4 and 1e-3 left more ragged strands on the party photos' hair than this, which
 * keeps the astronaut's curls and Hopper's cap as they were.
 */
const EDGE_FILTER_RADIUS = 1 / 100;
const EDGE_FILTER_EPSILON = 3e-3;
const EDGE_FILTER_STEP = 4;

/** Person and old background must differ by at least this much (RGB distance) for the edge to be re-estimated. */
const MIN_CONTRAST = 40;
/** The alpha blurred narrowly (`band`) at or above this: inside the person, away from the edge refineEdge works on. */
const BAND_SOLID = 250;
/** The alpha blurred widely (`interior`) at or above this: well inside the person, where the person's own colour is read. */
const INTERIOR_SOLID = 252;

/** Person and old background this far apart (RGB distance) or more: the edge's estimate from their colours is sure. */
const SURE_CONTRAST = 100;

/**
 * The edge's opacity from the colours (refineEdge), then through the guided filter (guided-filter.ts): the
 * per-pixel estimate is noisy where hair and the old background look alike (ragged, with specks), and the filter
 * makes it follow the photo's own edges and turns it soft where the photo has none. The filter may lower the
 * opacity anywhere but raise it only where the estimate was unsure: where person and old background differ
 * clearly (skin against a bright window, hair against a blue screen) what the estimate took away stays away, or
 * it would come back as a light or coloured rim on a dark backdrop. Nowhere above the mask as it came.
 */
export function refineAndFilterEdge(rgb: Uint8Array, alpha: Uint8Array, background: Uint8Array, foreground: Uint8Array, band: Uint8Array, width: number, height: number): void {
  const ceiling = Uint8Array.from(alpha);
  refineEdge(rgb, alpha, background, foreground, band, ceiling);
  alpha.set(guidedFilter(rgb, alpha, width, height, { radius: width * EDGE_FILTER_RADIUS, epsilon: EDGE_FILTER_EPSILON, step: EDGE_FILTER_STEP, atMost: ceiling }));
}

/**
 * Near the mask's edge (`band`: the alpha blurred, below BAND_SOLID), a pixel's own alpha follows from where its colour
 * lies between the person's colour nearby and the old background's: a = (I − B)·(F − B) / |F − B|². The mask
 * only ever loses opacity here, never gains it, so a wrong estimate cannot bring the old background back.
 * `ceiling` gets how high the opacity may go again: the estimate where it is sure, the mask's where it is not.
 */
function refineEdge(rgb: Uint8Array, alpha: Uint8Array, background: Uint8Array, foreground: Uint8Array, band: Uint8Array, ceiling: Uint8Array): void {
  for (let i = 0, p = 0; i < alpha.length; i++, p += 3) {
    if (alpha[i] === 0 || band[i]! >= BAND_SOLID) continue;
    const bR = background[p]!;
    const bG = background[p + 1]!;
    const bB = background[p + 2]!;
    const fR = foreground[p]! - bR;
    const fG = foreground[p + 1]! - bG;
    const fB = foreground[p + 2]! - bB;
    const contrast = fR * fR + fG * fG + fB * fB;
    if ((bR === 0 && bG === 0 && bB === 0) || contrast < MIN_CONTRAST * MIN_CONTRAST) continue;
    const a = ((rgb[p]! - bR) * fR + (rgb[p + 1]! - bG) * fG + (rgb[p + 2]! - bB) * fB) / contrast;
    const estimate = Math.max(0, Math.min(255, Math.round(a * 1.15 * 255)));
    if (estimate < alpha[i]!) {
      const sure = Math.min(1, (Math.sqrt(contrast) - MIN_CONTRAST) / (SURE_CONTRAST - MIN_CONTRAST));
      ceiling[i] = Math.round(estimate + (alpha[i]! - estimate) * (1 - sure));
      alpha[i] = estimate;
    }
  }
}

/**
 * What colour of the old background is left in the rim after the edge is refined: a pixel near the edge that is
 * more tinted towards the old background's colour than the person nearby loses that extra tint (the classic
 * despill of blue and green screens, here against whatever the background was).
 */
export function suppressSpill(rgb: Uint8Array, interior: Buffer, background: Uint8Array, foreground: Uint8Array): void {
  for (let i = 0, p = 0; i < interior.length; i++, p += 3) {
    if (interior[i] === 0 || interior[i]! >= INTERIOR_SOLID) continue;
    const bMean = (background[p]! + background[p + 1]! + background[p + 2]!) / 3;
    const cR = background[p]! - bMean;
    const cG = background[p + 1]! - bMean;
    const cB = background[p + 2]! - bMean;
    const chroma = Math.sqrt(cR * cR + cG * cG + cB * cB);
    if (chroma < 12) continue;
    // The old background's tint in the pixel beyond the person's own (each colour less its grey, along the tint).
    const r = rgb[p]!;
    const g = rgb[p + 1]!;
    const b = rgb[p + 2]!;
    const mean = (r + g + b) / 3;
    const fr = foreground[p]!;
    const fg = foreground[p + 1]!;
    const fb = foreground[p + 2]!;
    // No person seen nearby (the estimate is 0): the pixel's whole tint would count as spill, and orange hair
    // before an orange wall would turn purple.
    if (fr === 0 && fg === 0 && fb === 0) continue;
    const fMean = (fr + fg + fb) / 3;
    const excess = ((r - mean) * cR + (g - mean) * cG + (b - mean) * cB - ((fr - fMean) * cR + (fg - fMean) * cG + (fb - fMean) * cB)) / chroma;
    if (excess <= 0) continue;
    const k = excess / chroma;
    const nr = r - k * cR;
    const ng = g - k * cG;
    const nb = b - k * cB;
    rgb[p] = nr < 0 ? 0 : nr > 255 ? 255 : Math.round(nr);
    rgb[p + 1] = ng < 0 ? 0 : ng > 255 ? 255 : Math.round(ng);
    rgb[p + 2] = nb < 0 ? 0 : nb > 255 ? 255 : Math.round(nb);
  }
}

/**
 * How far the rim's colour may stray from the person's own colour nearby: in tint (RGB distance of the colour less
 * its grey) and in lightness. Strands keep their light and dark; a tint the person has nowhere near goes.
 */
const RIM_TINT = 24;
const RIM_LIGHT = 70;

/**
 * The rim keeps the person's own colour: along the edge (`band` below BAND_SOLID, or see-through), a pixel whose
 * tint or lightness strays far from the person's colour nearby (`foreground`) is brought back within RIM_TINT and
 * RIM_LIGHT of it.
 * What decontamination cannot tell apart is left here: an orange wall taken out too hard leaves a blue line on dark
 * hair, lamp light behind the head a pale or orange rim, a friend's blonde hair a yellow one (issue 54's fringes).
 */
export function keepOwnColour(rgb: Uint8Array, alpha: Uint8Array, band: Buffer, foreground: Uint8Array): void {
  for (let i = 0, p = 0; i < alpha.length; i++, p += 3) {
    // Along the mask as it came, and wherever the edge's estimate took opacity away (a strand before a wall of
    // its own colour can be well inside the mask as it came).
    if (alpha[i] === 0 || (alpha[i] === 255 && band[i]! >= BAND_SOLID)) continue;
    const fr = foreground[p]!;
    const fg = foreground[p + 1]!;
    const fb = foreground[p + 2]!;
    if (fr === 0 && fg === 0 && fb === 0) continue;
    const fMean = (fr + fg + fb) / 3;
    const r = rgb[p]!;
    const g = rgb[p + 1]!;
    const b = rgb[p + 2]!;
    const mean = (r + g + b) / 3;
    let dr = r - mean - (fr - fMean);
    let dg = g - mean - (fg - fMean);
    let db = b - mean - (fb - fMean);
    const tint = Math.sqrt(dr * dr + dg * dg + db * db);
    const light = Math.max(fMean - RIM_LIGHT, Math.min(fMean + RIM_LIGHT, mean));
    if (tint <= RIM_TINT && light === mean) continue;
    if (tint > RIM_TINT) {
      const k = RIM_TINT / tint;
      dr *= k;
      dg *= k;
      db *= k;
    }
    const nr = light + fr - fMean + dr;
    const ng = light + fg - fMean + dg;
    const nb = light + fb - fMean + db;
    rgb[p] = nr < 0 ? 0 : nr > 255 ? 255 : Math.round(nr);
    rgb[p + 1] = ng < 0 ? 0 : ng > 255 ? 255 : Math.round(ng);
    rgb[p + 2] = nb < 0 ? 0 : nb > 255 ? 255 : Math.round(nb);
  }
}

interface Source {
  buffer: Buffer;
  width: number;
  height: number;
  /** A point of the original (auto-oriented) photo in this image. */
  point: (p: { x: number; y: number }) => { x: number; y: number };
  /** A box of the original photo in this image (its centre moved, its size scaled as the photo was). */
  box: (b: Box) => Box;
  /** The lowest row that is photo all the way across the face's surroundings: the higher of the lower corners. */
  bottom: number;
}

const levelledPhotos = new WeakMap<Buffer, Map<string, Promise<Source>>>();

/**
 * The largest face any draft makes, in output pixels (the format's largest face share, where a tight photo makes the
 * frame zoom in): a turned photo keeps at least LEVEL_MARGIN times this, so the frame is still scaled down afterwards.
 */
const LARGEST_OUTPUT_FACE = Math.max(...Object.values(OUTPUT_FORMATS).map((format) => format.maxFaceHeight * format.height));
const LEVEL_MARGIN = 1.1;

/**
 * The photo turned so the face is level, cached per photo and angle; the photo itself when the roll is small.
 * Turning needs the whole photo decoded at once (an 11 MP photo took the worker 175 MB more for a moment), so a
 * photo is first scaled down to what the largest draft needs of it: the face at LEVEL_MARGIN times its largest
 * size in any output.
 */
function levelled(photo: Buffer, size: { width: number; height: number }, face: Box & { roll?: number }): Promise<Source> {
  const angle = levellingAngle(face.roll ?? 0);
  const scale = angle === 0 ? 1 : Math.min(1, (LARGEST_OUTPUT_FACE * LEVEL_MARGIN) / Math.max(1, face.height));
  const key = `${angle}:${scale}`;
  let perPhoto = levelledPhotos.get(photo);
  if (!perPhoto) levelledPhotos.set(photo, (perPhoto = new Map()));
  let found = perPhoto.get(key);
  if (!found) {
    found = (async (): Promise<Source> => {
      if (angle === 0) return { buffer: photo, ...size, point: (p) => p, box: (b) => b, bottom: size.height };
      const scaled = { width: Math.max(1, Math.round(size.width * scale)), height: Math.max(1, Math.round(size.height * scale)) };
      // Two steps: sharp would otherwise turn before it scales.
      const smaller = await sharp(photo).rotate().resize(scaled.width, scaled.height, { fit: 'fill' }).removeAlpha().raw().toBuffer();
      const { data, info } = await sharp(smaller, { raw: { ...scaled, channels: 3 } })
        .rotate((angle * 180) / Math.PI, { background: { r: 0, g: 0, b: 0 } })
        .jpeg({ quality: 95, chromaSubsampling: '4:4:4' })
        .toBuffer({ resolveWithObject: true });
      const sx = scaled.width / size.width;
      const sy = scaled.height / size.height;
      const turn = turned(scaled, angle, info);
      const point = (p: { x: number; y: number }) => turn.point({ x: p.x * sx, y: p.y * sy });
      return {
        buffer: data,
        width: info.width,
        height: info.height,
        point,
        bottom: Math.floor(Math.min(point({ x: 0, y: size.height }).y, point({ x: size.width, y: size.height }).y)),
        box: (b) => {
          const centre = point({ x: b.x + b.width / 2, y: b.y + b.height / 2 });
          const width = b.width * sx;
          const height = b.height * sy;
          return { x: Math.round(centre.x - width / 2), y: Math.round(centre.y - height / 2), width, height };
        },
      };
    })();
    perPhoto.set(key, found);
  }
  return found;
}
