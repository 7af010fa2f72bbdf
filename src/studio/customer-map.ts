// The customer's map over a draft's frame: the segmentation model's person probabilities, the head mask taken in
// over the top of the head (head-mask.ts), everyone else cut away (person-mask.ts: faces and bodies found on the
// whole photo) and the holes inside the customer settled (settle-holes.ts).
import sharp from 'sharp';
import { withHead, type HeadMask } from './head-mask.js';
import type { Inference } from './inference/client.js';
import { POSE_INPUT } from './inference/pose-size.js';
import { SEGMENTATION_SIZE } from './inference/segmentation-size.js';
import type { Box, Pose } from './inference/types.js';
import { customerRegion, rowSpans } from './person-mask.js';
import { settleHoles } from './settle-holes.js';
import { GATE } from './thresholds.js';

/** The customer's person probabilities (0–255) over the frame, SEGMENTATION_SIZE × SEGMENTATION_SIZE. */
export async function customerMap(input: {
  /** The photo as sent, its (auto-oriented) size, and the customer's face in its pixels. */
  photo: Buffer;
  original: { width: number; height: number };
  face: Box;
  /** The customer's face in the levelled photo's pixels, and the head mask around it. */
  levelledFace: Box;
  head: HeadMask | null;
  /** The frame's pixels at the output's size (3 bytes a pixel), and the frame's top left corner in the levelled photo. */
  frameRgb: Buffer;
  width: number;
  height: number;
  frame: { x: number; y: number };
  /** Output pixels per levelled photo pixel. */
  scale: number;
  /** From the original photo's pixels to the output's. */
  toOutput: (point: { x: number; y: number }) => { x: number; y: number };
  /** The customer's face in output pixels. */
  mainInFrame: Box;
  inference: Inference;
}): Promise<Uint8Array> {
  const { width, height, scale, toOutput } = input;
  const small = await sharp(input.frameRgb, { raw: { width, height, channels: 3 } }).resize(SEGMENTATION_SIZE, SEGMENTATION_SIZE, { fit: 'fill' }).raw().toBuffer();
  const [segmented, { faces, poses }] = await Promise.all([
    input.inference.segment({ data: new Uint8Array(small.buffer, small.byteOffset, small.byteLength), width: SEGMENTATION_SIZE, height: SEGMENTATION_SIZE }),
    photoPeople(input.photo, input.inference),
  ]);
  withHead(segmented, input.head, input.levelledFace, { x0: input.frame.x, y0: input.frame.y, step: { x: width / SEGMENTATION_SIZE / scale, y: height / SEGMENTATION_SIZE / scale } });
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
    { x: input.original.width, y: 0 },
    { x: input.original.width, y: input.original.height },
    { x: 0, y: input.original.height },
  ].map((corner) => {
    const p = toOutput(corner);
    return { x: (p.x * SEGMENTATION_SIZE) / width, y: (p.y * SEGMENTATION_SIZE) / height };
  });
  const keep = customerRegion(segmented, SEGMENTATION_SIZE, toMap(input.mainInFrame), others.map(toMap), posesInMap, rowSpans(photoInMap, SEGMENTATION_SIZE));
  const probabilities = new Uint8Array(segmented.length);
  for (let i = 0; i < probabilities.length; i++) probabilities[i] = Math.round((segmented[i]! * keep[i]!) / 255);
  settleHoles(probabilities, segmented, keep, small, SEGMENTATION_SIZE, toMap(input.mainInFrame));
  return probabilities;
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

/** Intersection over union of two boxes. */
function overlap(a: Box, b: Box): number {
  const w = Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x));
  const h = Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y));
  const inter = w * h;
  return inter / (a.width * a.height + b.width * b.height - inter);
}
