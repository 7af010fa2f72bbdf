// The guided filter (He, Sun and Tang, "Guided Image Filtering", 2013) in its fast form (He and Sun, "Fast
// Guided Filter", 2015), with the photo's colours as the guide: an opacity map becomes, in every small window, a
// linear function of the photo's colour there. A ragged or blocky mask edge then follows the photo's own edges
// (strands of hair, a shoulder's outline) and turns soft where the photo shows no edge to follow, instead of
// ending in steps of the segmentation map's pixels or in the noise of a per-pixel colour estimate.
// The coefficients are solved on a smaller copy (a `step`-th of each side) and enlarged, as the fast form does:
// they change slowly across the picture, and the work and memory shrink by the step's square.

/**
 * `alpha` (0–255, `width` × `height`) filtered with `rgb` (3 channels, same size) as the guide: `radius` in full
 * pixels, `epsilon` the regularisation (on colours in 0–1; larger keeps the input smoother, smaller follows the
 * guide more closely). Returns a new map, nowhere above `atMost` when that is given (and not computed where that is 0).
 */
export function guidedFilter(
  rgb: Uint8Array,
  alpha: Uint8Array,
  width: number,
  height: number,
  options: { radius: number; epsilon: number; step: number; atMost?: Uint8Array },
): Uint8Array {
  const step = Math.max(1, Math.floor(options.step));
  const w = Math.max(1, Math.ceil(width / step));
  const h = Math.max(1, Math.ceil(height / step));
  const n = w * h;
  const radius = Math.max(1, Math.round(options.radius / step));
  // The small copy: box means over step × step blocks.
  const r = new Float32Array(n);
  const g = new Float32Array(n);
  const b = new Float32Array(n);
  const p = new Float32Array(n);
  const count = new Float32Array(n);
  const cellOf = new Int32Array(width);
  for (let x = 0; x < width; x++) cellOf[x] = Math.floor(x / step);
  for (let y = 0; y < height; y++) {
    const row = Math.floor(y / step) * w;
    for (let x = 0, i = y * width, c = i * 3; x < width; x++, i++, c += 3) {
      const j = row + cellOf[x]!;
      r[j] = r[j]! + rgb[c]!;
      g[j] = g[j]! + rgb[c + 1]!;
      b[j] = b[j]! + rgb[c + 2]!;
      p[j] = p[j]! + alpha[i]!;
      count[j] = count[j]! + 1;
    }
  }
  for (let j = 0; j < n; j++) {
    const c = 255 * count[j]!;
    r[j]! /= c;
    g[j]! /= c;
    b[j]! /= c;
    p[j]! /= c;
  }
  // The products and the box means' row passes reuse two scratch maps: 28 maps instead of 52 per filter (on a
  // 1200 × 1500 portrait 12 MB of garbage less; a draft's render rose 3–4 MB less; performance-history.md).
  const scratch = new Float32Array(n);
  const rows = new Float32Array(n);
  const product = (u: Float32Array, v: Float32Array) => {
    for (let j = 0; j < n; j++) scratch[j] = u[j]! * v[j]!;
    return scratch;
  };
  const mean = (u: Float32Array) => boxMean(u, w, h, radius, rows);
  const mR = mean(r);
  const mG = mean(g);
  const mB = mean(b);
  const mP = mean(p);
  const covRP = mean(product(r, p));
  const covGP = mean(product(g, p));
  const covBP = mean(product(b, p));
  const vRR = mean(product(r, r));
  const vRG = mean(product(r, g));
  const vRB = mean(product(r, b));
  const vGG = mean(product(g, g));
  const vGB = mean(product(g, b));
  const vBB = mean(product(b, b));
  // Per window: a = (Σ + εU)⁻¹ · cov(I, p), b = mean(p) − a · mean(I).
  const aR = new Float32Array(n);
  const aG = new Float32Array(n);
  const aB = new Float32Array(n);
  const bias = new Float32Array(n);
  const epsilon = options.epsilon;
  for (let j = 0; j < n; j++) {
    const mr = mR[j]!;
    const mg = mG[j]!;
    const mb = mB[j]!;
    const mp = mP[j]!;
    const cr = covRP[j]! - mr * mp;
    const cg = covGP[j]! - mg * mp;
    const cb = covBP[j]! - mb * mp;
    const rr = vRR[j]! - mr * mr + epsilon;
    const rg = vRG[j]! - mr * mg;
    const rb = vRB[j]! - mr * mb;
    const gg = vGG[j]! - mg * mg + epsilon;
    const gb = vGB[j]! - mg * mb;
    const bb = vBB[j]! - mb * mb + epsilon;
    // The symmetric 3 × 3 inverse through its cofactors.
    const i00 = gg * bb - gb * gb;
    const i01 = rb * gb - rg * bb;
    const i02 = rg * gb - rb * gg;
    const i11 = rr * bb - rb * rb;
    const i12 = rb * rg - rr * gb;
    const i22 = rr * gg - rg * rg;
    const det = rr * i00 + rg * i01 + rb * i02;
    const ar = (i00 * cr + i01 * cg + i02 * cb) / det;
    const ag = (i01 * cr + i11 * cg + i12 * cb) / det;
    const ab = (i02 * cr + i12 * cg + i22 * cb) / det;
    aR[j] = ar;
    aG[j] = ag;
    aB[j] = ab;
    bias[j] = mp - ar * mr - ag * mg - ab * mb;
  }
  const maR = mean(aR);
  const maG = mean(aG);
  const maB = mean(aB);
  const mBias = mean(bias);
  // Cells whose window saw only one opacity (inside the person, or outside): their coefficients give that opacity
  // whatever the colour, and a pixel between four such cells takes it without the sum below.
  const flat = new Int16Array(n).fill(-1);
  for (let j = 0; j < n; j++) {
    if (Math.abs(maR[j]!) > 1e-4 || Math.abs(maG[j]!) > 1e-4 || Math.abs(maB[j]!) > 1e-4) continue;
    const level = mBias[j]!;
    if (level > 1 - 1e-4) flat[j] = 255;
    else if (level < 1e-4) flat[j] = 0;
  }
  // Back to full size: the coefficients enlarged bilinearly, applied to the full-size guide.
  const out = new Uint8Array(width * height);
  const atMost = options.atMost;
  const columns = new Int32Array(width * 2);
  const columnWeights = new Float32Array(width);
  for (let x = 0; x < width; x++) {
    const sx = Math.min(w - 1, Math.max(0, (x + 0.5) / step - 0.5));
    const x0 = Math.floor(sx);
    columns[x * 2] = x0;
    columns[x * 2 + 1] = Math.min(w - 1, x0 + 1);
    columnWeights[x] = sx - x0;
  }
  for (let y = 0; y < height; y++) {
    const sy = Math.min(h - 1, Math.max(0, (y + 0.5) / step - 0.5));
    const y0 = Math.floor(sy);
    const fy = sy - y0;
    const row0 = y0 * w;
    const row1 = Math.min(h - 1, y0 + 1) * w;
    for (let x = 0, i = y * width, c = i * 3; x < width; x++, i++, c += 3) {
      if (atMost && atMost[i] === 0) continue;
      const fx = columnWeights[x]!;
      const k00 = row0 + columns[x * 2]!;
      const k01 = row0 + columns[x * 2 + 1]!;
      const k10 = row1 + columns[x * 2]!;
      const k11 = row1 + columns[x * 2 + 1]!;
      const level = flat[k00]!;
      if (level >= 0 && flat[k01] === level && flat[k10] === level && flat[k11] === level) {
        out[i] = atMost && atMost[i]! < level ? atMost[i]! : level;
        continue;
      }
      const w00 = (1 - fx) * (1 - fy);
      const w01 = fx * (1 - fy);
      const w10 = (1 - fx) * fy;
      const w11 = fx * fy;
      const ar = maR[k00]! * w00 + maR[k01]! * w01 + maR[k10]! * w10 + maR[k11]! * w11;
      const ag = maG[k00]! * w00 + maG[k01]! * w01 + maG[k10]! * w10 + maG[k11]! * w11;
      const ab = maB[k00]! * w00 + maB[k01]! * w01 + maB[k10]! * w10 + maB[k11]! * w11;
      const bias0 = mBias[k00]! * w00 + mBias[k01]! * w01 + mBias[k10]! * w10 + mBias[k11]! * w11;
      const q = (ar * rgb[c]! + ag * rgb[c + 1]! + ab * rgb[c + 2]!) / 255 + bias0;
      const value = q <= 0 ? 0 : q >= 1 ? 255 : Math.round(q * 255);
      out[i] = atMost && atMost[i]! < value ? atMost[i]! : value;
    }
  }
  return out;
}

/**
 * The mean over a (2·radius + 1)² window around each cell, the window clipped at the map's edges. `rows` is
 * scratch space of the same size (overwritten).
 */
function boxMean(values: Float32Array, w: number, h: number, radius: number, rows: Float32Array): Float32Array {
  // Rows, then columns, each with a running sum (the count shrinks where the window leaves the map).
  for (let y = 0; y < h; y++) {
    const o = y * w;
    let sum = 0;
    for (let x = 0; x <= Math.min(radius, w - 1); x++) sum += values[o + x]!;
    for (let x = 0; x < w; x++) {
      const from = Math.max(0, x - radius);
      const to = Math.min(w - 1, x + radius);
      rows[o + x] = sum / (to - from + 1);
      if (x + radius + 1 < w) sum += values[o + x + radius + 1]!;
      if (x - radius >= 0) sum -= values[o + x - radius]!;
    }
  }
  const out = new Float32Array(values.length);
  for (let x = 0; x < w; x++) {
    let sum = 0;
    for (let y = 0; y <= Math.min(radius, h - 1); y++) sum += rows[y * w + x]!;
    for (let y = 0; y < h; y++) {
      const from = Math.max(0, y - radius);
      const to = Math.min(h - 1, y + radius);
      out[y * w + x] = sum / (to - from + 1);
      if (y + radius + 1 < h) sum += rows[(y + radius + 1) * w + x]!;
      if (y - radius >= 0) sum -= rows[(y - radius) * w + x]!;
    }
  }
  return out;
}
