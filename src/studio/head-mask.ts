// The segmentation model once more on a crop around the head: seen this close it keeps a cap's crown and hair
// standing up, which it loses on a whole bust; the frame's person map takes it over the top of the head.
import sharp from 'sharp';
import type { PersonMap } from './framing.js';
import type { Inference } from './inference/client.js';
import { SEGMENTATION_SIZE } from './inference/segmentation-size.js';
import type { Box } from './inference/types.js';
import type { LevelledPhoto } from './levelled-photo.js';

/** The person mask of a crop around the head, and where that crop lies in the (levelled) photo's pixels. */
export type HeadMask = PersonMap;

const headMasks = new WeakMap<Buffer, Map<string, Promise<HeadMask | null>>>();

/**
 * The segmentation model on a crop around the head (three face widths by two face heights), once per photo and
 * face. Seen this close, the model keeps what it loses on a whole bust: a cap's white crown, hair standing up.
 */
export function headMaskOf(source: LevelledPhoto, face: Box, inference: Inference): Promise<HeadMask | null> {
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
