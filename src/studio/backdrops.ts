// Backdrops for the studio drafts, made to look like what a portrait photographer hangs behind a sitter:
// seamless paper or a mottled painted canvas, lit from the front so the wall is brightest behind the head
// and falls off towards the edges, with a fine grain. A room (the 'office' location) is not drawn: only a
// generator makes one believably, so the studio does not offer it (capabilities.ts).
//
// How: the smooth part (colour, light falloff, mottling) is computed on a coarse grid of
// about 200 cells along the longer side, where noise and blur are cheap, then enlarged bilinearly: all of it
// is low frequency, so enlarging loses nothing. Grain is added per pixel at full size: texture added before
// enlarging would look soft and blocky, and without it an 8-bit gradient bands once it is a JPEG. Everything
// is seeded from kind and variant, never Math.random, so a draft and its tests are reproducible.
import type { Location } from '../domain/catalog.js';

/** The locations the studio draws. */
export type BackdropKind = Exclude<Location, 'office'>;
export const BACKDROP_VARIANTS = 5;

type Rgb = readonly [number, number, number];

/** A lit wall: paper (barely any mottle) or painted canvas (clouds of lighter and darker paint). */
interface Wall {
  /** sRGB where the light is strongest (behind the head). */
  centre: Rgb;
  /** sRGB at the corners; a different hue makes the soft two-tone gradient of a painted canvas. */
  edge: Rgb;
  /** Strength of the mottling (paper ~0.03, an Oliphant-style canvas ~0.2). */
  mottle: number;
  /** The colour the lighter clouds of paint lean towards: a painted canvas is never one flat colour. */
  tint: Rgb;
  /** Where the light sits, as fractions of width and height: upper centre, behind the head. */
  light: readonly [number, number];
}

// Studio: muted colours that flatter skin and dark suits: light grey paper, blue-grey canvas, warm grey
// canvas, off-white (high key) paper, charcoal canvas with a pool of light behind the head.
const STUDIO: Wall[] = [
  { centre: [206, 207, 208], edge: [126, 128, 131], mottle: 0.03, tint: [204, 206, 210], light: [0.5, 0.36] },
  { centre: [150, 162, 174], edge: [62, 72, 84], mottle: 0.18, tint: [160, 174, 178], light: [0.47, 0.35] },
  { centre: [176, 167, 155], edge: [88, 80, 72], mottle: 0.2, tint: [184, 172, 150], light: [0.53, 0.35] },
  { centre: [241, 239, 235], edge: [198, 195, 189], mottle: 0.02, tint: [241, 239, 233], light: [0.5, 0.34] },
  { centre: [106, 107, 109], edge: [28, 29, 32], mottle: 0.24, tint: [114, 112, 108], light: [0.5, 0.36] },
];

// Creative: the same light on richer coloured paper and two-tone painted canvases.
const CREATIVE: Wall[] = [
  { centre: [54, 120, 120], edge: [16, 44, 62], mottle: 0.18, tint: [78, 134, 116], light: [0.48, 0.35] },
  { centre: [130, 44, 58], edge: [50, 15, 26], mottle: 0.12, tint: [146, 60, 54], light: [0.5, 0.36] },
  { centre: [206, 162, 76], edge: [108, 72, 30], mottle: 0.1, tint: [216, 174, 98], light: [0.52, 0.35] },
  { centre: [64, 88, 126], edge: [17, 26, 48], mottle: 0.2, tint: [84, 104, 130], light: [0.5, 0.35] },
  { centre: [72, 106, 80], edge: [20, 40, 30], mottle: 0.18, tint: [84, 118, 92], light: [0.48, 0.36] },
];

/** Grain at full size, in 8-bit levels (standard deviation): hides banding, reads as fine paper or paint. */
const GRAIN = 1.3;
/** Cells of the coarse grid along the longer side. */
const GRID = 200;

/** A backdrop of the given size as raw RGB. `variant` picks one of BACKDROP_VARIANTS looks. */
export async function drawBackdrop(kind: BackdropKind, variant: number, width: number, height: number): Promise<Buffer> {
  const v = ((variant % BACKDROP_VARIANTS) + BACKDROP_VARIANTS) % BACKDROP_VARIANTS;
  const seed = (kind === 'studio' ? 1000 : 3000) + v * 7919;
  // The grid depends on the output's proportions only, so a backdrop looks the same at every size.
  const step = Math.max(1, Math.max(width, height) / GRID);
  const grid = { gw: Math.max(2, Math.ceil((width - 1) / step) + 1), gh: Math.max(2, Math.ceil((height - 1) / step) + 1), step, width, height };
  const field = wallField((kind === 'studio' ? STUDIO : CREATIVE)[v]!, seed, grid);
  return enlargeWithGrain(field, grid, seed);
}

interface Grid {
  /** Grid points across and down; the first and last sit on the output's first and last pixel. */
  gw: number;
  gh: number;
  /** Output pixels between grid points (about). */
  step: number;
  /** The output's size. */
  width: number;
  height: number;
}

// --- The smooth field, on the coarse grid, in sRGB 0..255 floats --------------------------------------------

function wallField(wall: Wall, seed: number, { gw, gh, width, height }: Grid): Float32Array {
  const noise = perlin(seed);
  const out = new Float32Array(gw * gh * 3);
  const centre = wall.centre.map(toLinear);
  const edge = wall.edge.map(toLinear);
  const tint = wall.tint.map(toLinear);
  // Distances in units of the shorter side, so the pool of light stays round and the clouds keep their size.
  const unit = Math.min(width, height);
  const [lx, ly] = [wall.light[0] * width, wall.light[1] * height];
  // The falloff ends in the farthest corner, so every format reaches the edge colour in its corners.
  const far = Math.max(Math.hypot(lx, ly), Math.hypot(width - lx, ly), Math.hypot(lx, height - ly), Math.hypot(width - lx, height - ly));
  for (let j = 0; j < gh; j++) {
    for (let i = 0; i < gw; i++) {
      const x = (i * (width - 1)) / (gw - 1);
      const y = (j * (height - 1)) / (gh - 1);
      const nx = x / unit;
      const ny = y / unit;
      // Light falloff: a broad pool behind the head, a little wider than tall, as from a large softbox.
      const t = smooth(Math.min(1, Math.hypot((x - lx) / 1.12, y - ly) / far));
      // Mottling: fractal noise bent by more noise gives the cloudy, brushed look of hand-painted canvas.
      // Four octaves at most: finer detail would fall between the grid points.
      const wx = fbm(noise, nx * 1.5 + 3.1, ny * 1.5 + 7.7, 2);
      const wy = fbm(noise, nx * 1.5 + 11.3, ny * 1.5 + 2.9, 2);
      const m = fbm(noise, nx * 2.2 + wx * 1.8, ny * 2.2 + wy * 1.8, 4);
      const hue = fbm(noise, nx * 1.2 + 40.2, ny * 1.2 + 17.5, 2);
      // The paint shows most where the light falls; the darker edges of a canvas are the calmer ones.
      const gain = Math.exp(wall.mottle * m * 2.5 * (1 - 0.35 * t));
      const lean = Math.max(0, Math.min(1, 0.5 + hue * 2));
      const base = 1 - t;
      for (let c = 0; c < 3; c++) {
        const lit = centre[c]! + (tint[c]! - centre[c]!) * lean;
        out[(j * gw + i) * 3 + c] = toSrgb((edge[c]! + (lit - edge[c]!) * base) * gain);
      }
    }
  }
  return out;
}

// --- Enlarging with grain, at full size ---------------------------------------------------------------------

function enlargeWithGrain(field: Float32Array, { gw, gh, width, height }: Grid, seed: number): Buffer {
  // A clamped array rounds and clips on write, which keeps the loop below free of branches.
  const out = new Uint8ClampedArray(width * height * 3);
  // Column positions in the grid, computed once.
  const x0 = new Int32Array(width);
  const xw = new Float32Array(width);
  for (let x = 0; x < width; x++) {
    const u = width > 1 ? (x * (gw - 1)) / (width - 1) : 0;
    const i = Math.min(gw - 2, Math.floor(u));
    x0[x] = i * 3;
    xw[x] = u - i;
  }
  const row = new Float32Array(gw * 3);
  // Grain: white noise softened by its four neighbours, so it is a pixel or two wide like film grain or the
  // tooth of paper rather than single-pixel speckle, and the same in every direction. Three rows of noise
  // are kept: the one being written and its neighbours above and below.
  let state = Math.imul(seed, 2654435761) >>> 0 || 1;
  const fill = (line: Float32Array) => {
    for (let x = 0; x < width; x++) {
      // Triangular noise (the sum of two uniforms, here the two halves of one xorshift number) is the dither
      // that hides the 8-bit steps of a gradient.
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      line[x] = ((state & 0xffff) + (state >>> 16) - 65535) * (2.45 / 65536);
    }
  };
  let above = new Float32Array(width);
  let here = new Float32Array(width);
  let below = new Float32Array(width);
  fill(above);
  fill(here);
  const NEIGHBOUR = 0.35;
  const norm = GRAIN / Math.sqrt(1 + 4 * NEIGHBOUR * NEIGHBOUR);
  let o = 0;
  for (let y = 0; y < height; y++) {
    fill(below);
    const v = height > 1 ? (y * (gh - 1)) / (height - 1) : 0;
    const j = Math.min(gh - 2, Math.floor(v));
    const wv = v - j;
    const top = j * gw * 3;
    const bottom = top + gw * 3;
    for (let k = 0; k < gw * 3; k++) row[k] = field[top + k]! + (field[bottom + k]! - field[top + k]!) * wv;
    for (let x = 0; x < width; x++) {
      const g = (here[x]! + NEIGHBOUR * (here[x > 0 ? x - 1 : x]! + here[x < width - 1 ? x + 1 : x]! + above[x]! + below[x]!)) * norm;
      const k = x0[x]!;
      const w = xw[x]!;
      const r0 = row[k]!;
      const g0 = row[k + 1]!;
      const b0 = row[k + 2]!;
      out[o] = r0 + (row[k + 3]! - r0) * w + g;
      out[o + 1] = g0 + (row[k + 4]! - g0) * w + g;
      out[o + 2] = b0 + (row[k + 5]! - b0) * w + g;
      o += 3;
    }
    [above, here, below] = [here, below, above];
  }
  return Buffer.from(out.buffer, out.byteOffset, out.byteLength);
}

// --- Small helpers ------------------------------------------------------------------------------------------

function toLinear(v: number): number {
  const s = v / 255;
  return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
}

/** Linear light to sRGB 0..255, from a table: Math.pow for every grid point and channel was a tenth of the time. */
const SRGB_STEPS = 4096;
const SRGB_TABLE = Float32Array.from({ length: SRGB_STEPS + 2 }, (_, i) => {
  const v = Math.min(1, i / SRGB_STEPS);
  return 255 * (v <= 0.0031308 ? v * 12.92 : 1.055 * v ** (1 / 2.4) - 0.055);
});

function toSrgb(l: number): number {
  const t = (l <= 0 ? 0 : l >= 1 ? 1 : l) * SRGB_STEPS;
  const i = Math.floor(t);
  return SRGB_TABLE[i]! + (SRGB_TABLE[i + 1]! - SRGB_TABLE[i]!) * (t - i);
}

function smooth(t: number): number {
  return t * t * (3 - 2 * t);
}

type Noise = (x: number, y: number) => number;

/** Seeded 2D gradient noise (Perlin's improved noise), roughly in -0.7..0.7. */
function perlin(seed: number): Noise {
  const perm = new Uint8Array(512);
  const p = new Uint8Array(256);
  for (let i = 0; i < 256; i++) p[i] = i;
  let s = (Math.imul(seed, 1103515245) + 12345) >>> 0 || 1;
  for (let i = 255; i > 0; i--) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    const k = (s >>> 0) % (i + 1);
    [p[i], p[k]] = [p[k]!, p[i]!];
  }
  for (let i = 0; i < 512; i++) perm[i] = p[i & 255]!;
  const grad = (h: number, x: number, y: number) => {
    switch (h & 7) {
      case 0: return x + y;
      case 1: return x - y;
      case 2: return -x + y;
      case 3: return -x - y;
      case 4: return x;
      case 5: return -x;
      case 6: return y;
      default: return -y;
    }
  };
  const fade = (t: number) => t * t * t * (t * (t * 6 - 15) + 10);
  return (x, y) => {
    const xi = Math.floor(x);
    const yi = Math.floor(y);
    const xf = x - xi;
    const yf = y - yi;
    const X = xi & 255;
    const Y = yi & 255;
    const u = fade(xf);
    const v = fade(yf);
    const aa = perm[perm[X]! + Y]!;
    const ab = perm[perm[X]! + Y + 1]!;
    const ba = perm[perm[X + 1]! + Y]!;
    const bb = perm[perm[X + 1]! + Y + 1]!;
    const x1 = grad(aa, xf, yf) + (grad(ba, xf - 1, yf) - grad(aa, xf, yf)) * u;
    const x2 = grad(ab, xf, yf - 1) + (grad(bb, xf - 1, yf - 1) - grad(ab, xf, yf - 1)) * u;
    return (x1 + (x2 - x1) * v) * 0.7;
  };
}

function fbm(noise: Noise, x: number, y: number, octaves: number): number {
  let sum = 0;
  let amplitude = 0.5;
  let frequency = 1;
  for (let o = 0; o < octaves; o++) {
    sum += amplitude * noise(x * frequency, y * frequency);
    amplitude *= 0.5;
    frequency *= 2.03;
  }
  return sum;
}
