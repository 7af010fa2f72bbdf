// Holes in the customer's map (person-mask.ts): each becomes the person or the background, never half.
import type { Box } from './inference/types.js';

/** Below this (0–255) a pixel of the customer's map may belong to a hole. */
const HOLE_LEVEL = 160;
/** A hole larger than this share of the map is left as the model drew it (a gap between arm and body). */
const MAX_HOLE_SHARE = 0.01;
/**
 * How far around a hole (map pixels), through the person, the person's colour is read (and, for a hole that
 * becomes person, made fully person too: the model's doubt runs out around it).
 */
const HOLE_RING = 6;
/** How far beyond a hole's bounding box (map pixels) the photo's background is looked for, for its colour. */
const HOLE_REACH = 24;
/** A hole open to the map's bottom counts only if none of it is below this. */
const OPEN_HOLE_FLOOR = 64;
/** The model's own probability below which a pixel is background for the colour comparison. */
const BACKGROUND_LEVEL = 32;

/**
 * Holes in the customer's map: places the model was unsure about inside the person (a blurred top, a bright
 * highlight), enclosed on all sides by the customer. Left as they are, they show as half-transparent discs with
 * a rim of the new backdrop. Each becomes the person (opaque) or the background (clear), never half: background
 * only where its colour is much nearer the photo's background close by than the person around it (the room seen
 * through a loop of hair), and never in the face.
 * `probabilities`: the customer's map (changed in place); `model`: the model's own map (others included); `keep`:
 * customerRegion's keep-mask (a place someone else's, or the seam towards them, is no hole of the customer's);
 * `rgb`: the frame at the map's size, 3 bytes a pixel.
 */
export function settleHoles(probabilities: Uint8Array, model: Uint8Array, keep: Uint8Array, rgb: Uint8Array, size: number, face: Box): void {
  const seen = new Uint8Array(size * size);
  const maxArea = Math.round(size * size * MAX_HOLE_SHARE);
  for (let start = 0; start < probabilities.length; start++) {
    if (seen[start] || probabilities[start]! >= HOLE_LEVEL) continue;
    // The hole's pixels (4-connected below HOLE_LEVEL); one that reaches the map's border is background.
    const hole: number[] = [start];
    seen[start] = 1;
    let border = false;
    let bottom = false;
    let others = false;
    let least = 255;
    for (let k = 0; k < hole.length; k++) {
      const i = hole[k]!;
      const x = i % size;
      least = Math.min(least, probabilities[i]!);
      if (keep[i]! < 255) others = true;
      if (x === 0 || x === size - 1 || i < size) border = true;
      if (i >= size * (size - 1)) bottom = true;
      for (const j of [x > 0 ? i - 1 : -1, x < size - 1 ? i + 1 : -1, i - size, i + size]) {
        if (j < 0 || j >= probabilities.length || seen[j] || probabilities[j]! >= HOLE_LEVEL) continue;
        seen[j] = 1;
        hole.push(j);
      }
    }
    // One open only to the bottom (the body goes on below the frame) counts where the model saw some person
    // in all of it: a real gap between arm and body is clear in its middle.
    // Someone else's hand inside the customer's outline was taken away on purpose: not a hole.
    if (others || border || hole.length > maxArea || (bottom && least < OPEN_HOLE_FLOOR)) continue;
    // The person around it: HOLE_RING steps out through the person (not across the background beyond).
    const inHole = new Set(hole);
    const ring = new Set<number>();
    let frontier = hole;
    for (let step = 0; step < HOLE_RING; step++) {
      const next: number[] = [];
      for (const i of frontier) {
        const x = i % size;
        for (const j of [x > 0 ? i - 1 : -1, x < size - 1 ? i + 1 : -1, i - size, i + size]) {
          if (j < 0 || j >= probabilities.length || inHole.has(j) || ring.has(j) || probabilities[j]! < HOLE_LEVEL) continue;
          ring.add(j);
          next.push(j);
        }
      }
      frontier = next;
    }
    const mean = (pixels: Iterable<number>) => {
      let n = 0;
      const sum = [0, 0, 0];
      for (const i of pixels) {
        n++;
        for (let c = 0; c < 3; c++) sum[c]! += rgb[i * 3 + c]!;
      }
      return n ? sum.map((v) => v / n) : null;
    };
    const holeColour = mean(hole)!;
    const personColour = mean(ring)!;
    // The photo's background close by (the model's own map: other people are not background).
    let x0 = size;
    let x1 = 0;
    let y0 = size;
    let y1 = 0;
    for (const i of hole) {
      x0 = Math.min(x0, i % size);
      x1 = Math.max(x1, i % size);
      y0 = Math.min(y0, Math.floor(i / size));
      y1 = Math.max(y1, Math.floor(i / size));
    }
    const near: number[] = [];
    for (let y = Math.max(0, y0 - HOLE_REACH); y <= Math.min(size - 1, y1 + HOLE_REACH); y++) {
      for (let x = Math.max(0, x0 - HOLE_REACH); x <= Math.min(size - 1, x1 + HOLE_REACH); x++) if (model[y * size + x]! < BACKGROUND_LEVEL) near.push(y * size + x);
    }
    const backgroundColour = near.length >= 10 ? mean(near) : null;
    const distance = (a: number[], b: number[]) => Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!);
    const inFace = hole.some((i) => {
      const x = i % size;
      const y = Math.floor(i / size);
      return x >= face.x && x < face.x + face.width && y >= face.y && y < face.y + face.height;
    });
    const background = !inFace && backgroundColour !== null && distance(holeColour, backgroundColour) < 0.5 * distance(holeColour, personColour);
    for (const i of hole) probabilities[i] = background ? 0 : 255;
    if (background) continue;
    // The ring becomes solid too, except near the person's own outline (a low pixel outside the hole within two
    // steps): there the soft edge stays soft.
    for (const i of ring) {
      const x = i % size;
      const y = Math.floor(i / size);
      let outline = false;
      for (let dy = -2; dy <= 2 && !outline; dy++) {
        for (let dx = Math.abs(dy) - 2; dx <= 2 - Math.abs(dy); dx++) {
          const nx = x + dx;
          const ny = y + dy;
          if (nx < 0 || ny < 0 || nx >= size || ny >= size) continue;
          const j = ny * size + nx;
          if (!inHole.has(j) && probabilities[j]! < HOLE_LEVEL) {
            outline = true;
            break;
          }
        }
      }
      if (!outline) probabilities[i] = 255;
    }
  }
}
