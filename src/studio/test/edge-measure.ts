// Issue 54's measures of a studio draft's edge, for tests and the order sheet: how much of the band along the
// person's edge still shows the old background's colour, and how much of the old picture is kept apart from
// the person. Read on the draft as delivered (its JPEG), the mask the render used, the frame as photographed
// and the backdrop the person was put on.
import { pieces } from '../mask-pieces.js';

export interface EdgeInput {
  /** The draft as delivered, decoded to RGB. */
  output: Uint8Array;
  /** The new backdrop, RGB. */
  backdrop: Uint8Array;
  /** The frame as the photo gave it, before the edge steps, RGB. */
  photo: Uint8Array;
  /** The person's opacity, 0–255. */
  alpha: Uint8Array;
  /**
   * The opacity as the model gave it, before the edge steps: where it is clear is the old background. (Not the
   * final mask: a strand the edge steps made transparent would count as background and its neighbours as a rim.)
   */
  segmented: Uint8Array;
  width: number;
  height: number;
}

export interface EdgeMeasures {
  /** Pixels of the band that can be judged: the old background differs from the person and the new backdrop there. */
  band: number;
  /** Band pixels that look like the old background rather than the person or the new backdrop, or like no colour of the person around them. */
  fringe: number;
  /** fringe / band (0 where nothing can be judged). */
  fringeShare: number;
  /** See-through pixels along the edge (alpha FAINT_FROM–127, beside the opaque person) that can be judged. */
  faint: number;
  /**
   * Of those, the ones whose colour less the backdrop's share is far from every colour of the person around them:
   * the edge steps made it up (a pale yellow line along the top of the hair, where the person's colour was not
   * known).
   */
  halo: number;
  /** halo / faint (0 where nothing can be judged). */
  haloShare: number;
  /** Share of the picture in opaque pieces (alpha ≥ 64) not joined to the largest one. */
  apart: number;
  /** Per pixel: 1 where a fringe or halo pixel was counted (for a picture of where they are). */
  where: Uint8Array;
}

/** Colours nearer than this (RGB distance) are not told apart: an old background like the person or the backdrop is no fringe. */
const DISTINCT = 60;
/** The old background's and the person's colours are read within this share of the width around a band pixel. */
const NEIGHBOURHOOD = 1 / 40;
/** The band: opaque pixels (alpha ≥ 128) within this share of the width of the see-through side. */
const BAND = 1 / 200;
/** A band pixel is the old background's when it is this much nearer (RGB distance) to one of its colours than to any of the person's around. */
const MARGIN = 15;
/** A band pixel this far (RGB distance) from every colour of the person around it is no colour of theirs. */
const FOREIGN = 50;

/**
 * See-through pixels are judged from this opacity (0–255) up: below it the draft's 8-bit colour, less the backdrop's
 * share, is mostly rounding noise.
 */
const FAINT_FROM = 48;
/** What the division by a see-through pixel's opacity adds to the JPEG's error (RGB distance), on top of FOREIGN. */
const HALO_NOISE = 20;

/** Sums over windows in O(1): a summed-area table of one channel. */
function integral(width: number, height: number, value: (i: number) => number): Float64Array {
  const table = new Float64Array((width + 1) * (height + 1));
  for (let y = 0; y < height; y++) {
    let row = 0;
    for (let x = 0; x < width; x++) {
      row += value(y * width + x);
      table[(y + 1) * (width + 1) + x + 1] = table[y * (width + 1) + x + 1]! + row;
    }
  }
  return table;
}

function windowSum(table: Float64Array, width: number, height: number, x: number, y: number, r: number): number {
  const x0 = Math.max(0, x - r);
  const y0 = Math.max(0, y - r);
  const x1 = Math.min(width, x + r + 1);
  const y1 = Math.min(height, y + r + 1);
  const w = width + 1;
  return table[y1 * w + x1]! - table[y0 * w + x1]! - table[y1 * w + x0]! + table[y0 * w + x0]!;
}

const distance = (a: readonly number[], b: readonly number[]) => Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!);

export function measureEdge({ output, backdrop, photo, alpha, segmented, width, height }: EdgeInput): EdgeMeasures {
  const r = Math.max(8, Math.round(width * NEIGHBOURHOOD));
  const d = Math.max(2, Math.round(width * BAND));
  // Pure black is where a levelled (turned) photo has no pixels, not its background.
  const clear = (i: number) => (segmented[i]! <= 8 && photo[i * 3]! + photo[i * 3 + 1]! + photo[i * 3 + 2]! > 3 ? 1 : 0);
  const solid = (i: number) => (alpha[i]! >= 250 ? 1 : 0);
  const seeThrough = integral(width, height, (i) => (alpha[i]! < 128 ? 1 : 0));
  const solids = integral(width, height, solid);
  // The person's own colour only well inside: every pixel within 3 px solid.
  const deep = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) deep[y * width + x] = windowSum(solids, width, height, x, y, 3) === 49 ? 1 : 0;
  const clears = integral(width, height, clear);
  const deeps = integral(width, height, (i) => deep[i]!);
  const old = [0, 1, 2].map((c) => integral(width, height, (i) => clear(i) * photo[i * 3 + c]!));
  const where = new Uint8Array(width * height);
  const step = Math.max(2, Math.round(r / 8));
  let band = 0;
  let fringe = 0;
  let faint = 0;
  let halo = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      if (alpha[i]! >= FAINT_FROM && alpha[i]! < 128) {
        if (windowSum(solids, width, height, x, y, d) === 0) continue;
        // A see-through pixel shows a mix of the backdrop and the person: less the backdrop's share, a colour of theirs.
        const a = alpha[i]! / 255;
        const seen = [0, 1, 2].map((c) => Math.max(0, Math.min(255, (output[i * 3 + c]! - (1 - a) * backdrop[i * 3 + c]!) / a)));
        let toOwn = Infinity;
        for (let sy = Math.max(0, y - r); sy <= Math.min(height - 1, y + r); sy += step) {
          for (let sx = Math.max(0, x - r); sx <= Math.min(width - 1, x + r); sx += step) {
            const j = sy * width + sx;
            if (deep[j]) toOwn = Math.min(toOwn, distance(seen, [output[j * 3]!, output[j * 3 + 1]!, output[j * 3 + 2]!]));
          }
        }
        if (toOwn === Infinity) continue;
        faint++;
        if (toOwn > FOREIGN + HALO_NOISE) {
          halo++;
          where[i] = 1;
        }
        continue;
      }
      if (alpha[i]! < 128 || windowSum(seeThrough, width, height, x, y, d) === 0) continue;
      const nOld = windowSum(clears, width, height, x, y, r);
      if (nOld < 20 || windowSum(deeps, width, height, x, y, r) < 20) continue;
      const newColour = [backdrop[i * 3]!, backdrop[i * 3 + 1]!, backdrop[i * 3 + 2]!];
      // Where the old background looked like the new backdrop, a rim of it cannot be seen.
      if (distance(old.map((t) => windowSum(t, width, height, x, y, r) / nOld), newColour) < DISTINCT) continue;
      // The person's colour as delivered at this pixel: the draft's colour less the backdrop's share (a dark
      // strand half over a light backdrop is mid-grey, and must not count as a mid-grey old wall).
      const a = alpha[i]! / 255;
      const seen = [0, 1, 2].map((c) => Math.max(0, Math.min(255, (output[i * 3 + c]! - (1 - a) * newColour[c]!) / a)));
      // The nearest colour of the old background and of the person around: a dark strand before a dark wall
      // is the person's own colour, not the wall's.
      let toOld = Infinity;
      let toOwn = Infinity;
      for (let sy = Math.max(0, y - r); sy <= Math.min(height - 1, y + r); sy += step) {
        for (let sx = Math.max(0, x - r); sx <= Math.min(width - 1, x + r); sx += step) {
          const j = sy * width + sx;
          if (!clear(j) && !deep[j]) continue;
          // The person as delivered (the retouch changed its light), the old background as photographed.
          const from = deep[j] ? output : photo;
          const gap = distance(seen, [from[j * 3]!, from[j * 3 + 1]!, from[j * 3 + 2]!]);
          if (deep[j]) toOwn = Math.min(toOwn, gap);
          else toOld = Math.min(toOld, gap);
        }
      }
      if (toOld === Infinity || toOwn === Infinity) continue;
      band++;
      // A rim is the old background's colour, or a colour the person has nowhere near (a blue line where an
      // orange wall was taken out too hard, a pale rim of lamp light): either way not the person's own.
      if ((toOld + MARGIN < toOwn && toOld < distance(seen, newColour)) || toOwn > FOREIGN) {
        fringe++;
        where[i] = 1;
      }
    }
  }
  return { band, fringe, fringeShare: band ? fringe / band : 0, faint, halo, haloShare: faint ? halo / faint : 0, apart: apartShare(alpha, width, height), where };
}

/** Opaque pieces apart from the largest one, as a share of the picture (8-connected, alpha ≥ 64, as dropIslands joins them). */
function apartShare(alpha: Uint8Array, width: number, height: number): number {
  const { sizes, largest } = pieces(alpha, width, height, 64);
  if (largest === -1) return 0;
  return (sizes.reduce((a, b) => a + b, 0) - sizes[largest]!) / (width * height);
}
