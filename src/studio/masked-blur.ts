// The edge's colour estimates (clean-edge.ts): the mean colour around a pixel of only some of the pixels (the old
// background's, the person's), made on shrunk images.
import sharp from 'sharp';

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
