// The backdrops look photographed, not drawn: lit behind the head and darker towards the corners, no hard
// shapes, a fine grain instead of 8-bit bands, muted colours in the studio, and the same bytes every time.
import { expect, test } from 'vitest';
import { BACKDROP_VARIANTS, drawBackdrop, type BackdropKind } from './backdrops.js';

const KINDS: BackdropKind[] = ['studio', 'creative'];
const VARIANTS = Array.from({ length: BACKDROP_VARIANTS }, (_, v) => v);
const CASES = KINDS.flatMap((kind) => VARIANTS.map((variant) => [kind, variant] as const));
/** Half the portrait format: big enough for grain and falloff to show, quick to draw. */
const W = 600;
const H = 750;

interface Image {
  data: Buffer;
  width: number;
  height: number;
}

const cache = new Map<string, Promise<Image>>();
function backdrop(kind: BackdropKind, variant: number, width = W, height = H): Promise<Image> {
  const key = `${kind}/${variant}/${width}x${height}`;
  if (!cache.has(key)) cache.set(key, drawBackdrop(kind, variant, width, height).then((data) => ({ data, width, height })));
  return cache.get(key)!;
}

const luma = ({ data }: Image, i: number) => 0.2126 * data[i * 3]! + 0.7152 * data[i * 3 + 1]! + 0.0722 * data[i * 3 + 2]!;

/** Mean luma of an area given in fractions of the frame. */
function areaLuma(image: Image, x0: number, y0: number, x1: number, y1: number): number {
  let sum = 0;
  let n = 0;
  for (let y = Math.round(y0 * image.height); y < Math.round(y1 * image.height); y++) {
    for (let x = Math.round(x0 * image.width); x < Math.round(x1 * image.width); x++, n++) sum += luma(image, y * image.width + x);
  }
  return sum / n;
}

function meanRgb({ data }: Image): number[] {
  const sum = [0, 0, 0];
  for (let i = 0; i < data.length; i += 3) for (let c = 0; c < 3; c++) sum[c]! += data[i + c]!;
  return sum.map((s) => s / (data.length / 3));
}

/** Where the head is (upper centre) and the four corners, as mean luma. */
function falloff(image: Image) {
  return {
    head: areaLuma(image, 0.4, 0.25, 0.6, 0.4),
    corners: [areaLuma(image, 0, 0, 0.1, 0.1), areaLuma(image, 0.9, 0, 1, 0.1), areaLuma(image, 0, 0.9, 0.1, 1), areaLuma(image, 0.9, 0.9, 1, 1)],
  };
}

/**
 * Standard deviation of the green channel in 32×32 patches across the frame, around a plane fitted to each
 * patch: the gradient of the light is taken out, what is left is the fine texture.
 */
function patchTexture({ data, width, height }: Image): number[] {
  const n = 32;
  const result: number[] = [];
  for (let py = 8; py + n <= height; py += 48) {
    for (let px = 8; px + n <= width; px += 48) {
      let sum = 0;
      let sx = 0;
      let sy = 0;
      let sxx = 0;
      for (let y = 0; y < n; y++) {
        for (let x = 0; x < n; x++) {
          const v = data[((py + y) * width + px + x) * 3 + 1]!;
          sum += v;
          sx += (x - (n - 1) / 2) * v;
          sy += (y - (n - 1) / 2) * v;
          sxx += (x - (n - 1) / 2) ** 2;
        }
      }
      const [mean, gx, gy] = [sum / (n * n), sx / sxx, sy / sxx];
      let squares = 0;
      for (let y = 0; y < n; y++) {
        for (let x = 0; x < n; x++) {
          const v = data[((py + y) * width + px + x) * 3 + 1]!;
          squares += (v - mean - gx * (x - (n - 1) / 2) - gy * (y - (n - 1) / 2)) ** 2;
        }
      }
      result.push(Math.sqrt(squares / (n * n)));
    }
  }
  return result;
}

/** The largest step in luma between neighbouring 8×8 blocks: a hard edge (a disc, a rectangle) shows here. */
function hardestEdge(image: Image): number {
  const [bw, bh] = [Math.floor(image.width / 8), Math.floor(image.height / 8)];
  const blocks = new Float64Array(bw * bh);
  for (let by = 0; by < bh; by++) {
    for (let bx = 0; bx < bw; bx++) {
      let sum = 0;
      for (let y = 0; y < 8; y++) for (let x = 0; x < 8; x++) sum += luma(image, (by * 8 + y) * image.width + bx * 8 + x);
      blocks[by * bw + bx] = sum / 64;
    }
  }
  let edge = 0;
  for (let by = 0; by < bh; by++) {
    for (let bx = 0; bx < bw; bx++) {
      const here = blocks[by * bw + bx]!;
      if (bx + 1 < bw) edge = Math.max(edge, Math.abs(here - blocks[by * bw + bx + 1]!));
      if (by + 1 < bh) edge = Math.max(edge, Math.abs(here - blocks[(by + 1) * bw + bx]!));
    }
  }
  return edge;
}

test.each([
  [1200, 1500],
  [1200, 1200],
  [827, 1063],
  [413, 531],
  [1, 1],
])('every kind and variant at %i×%i is raw RGB of that size', async (width, height) => {
  for (const [kind, variant] of CASES) expect((await drawBackdrop(kind, variant, width, height)).length, `${kind} ${variant}`).toBe(width * height * 3);
});

test('the same call gives the same bytes (seeded, no Math.random), and variants wrap around', async () => {
  for (const kind of KINDS) {
    const once = await drawBackdrop(kind, 2, 300, 375);
    expect((await drawBackdrop(kind, 2, 300, 375)).equals(once), kind).toBe(true);
    expect((await drawBackdrop(kind, 2 + BACKDROP_VARIANTS, 300, 375)).equals(once), kind).toBe(true);
    expect((await drawBackdrop(kind, -1, 300, 375)).equals(await drawBackdrop(kind, BACKDROP_VARIANTS - 1, 300, 375)), kind).toBe(true);
  }
});

test.each(KINDS)('%s: no two variants look alike (their mean colours differ visibly)', async (kind) => {
  const means = await Promise.all(VARIANTS.map(async (v) => meanRgb(await backdrop(kind, v))));
  for (let a = 0; a < means.length; a++) {
    for (let b = a + 1; b < means.length; b++) expect(Math.hypot(...means[a]!.map((m, c) => m - means[b]![c]!)), `${kind} ${a} vs ${b}`).toBeGreaterThan(10);
  }
});

test.each(CASES)('%s %i: lit behind the head, falling off towards the corners, not a spotlight', async (kind, variant) => {
  const { head, corners } = falloff(await backdrop(kind, variant));
  const [topLeft, topRight, bottomLeft, bottomRight] = corners as [number, number, number, number];
  for (const corner of corners) expect(head - corner).toBeGreaterThan(10);
  // The top corners a little darker, the bottom ones (behind the shoulders) more; none near black.
  for (const top of [topLeft, topRight]) {
    expect(top / head).toBeGreaterThan(0.5);
    expect(top / head).toBeLessThan(0.93);
  }
  for (const bottom of [bottomLeft, bottomRight]) {
    expect(bottom / head).toBeGreaterThan(0.25);
    expect(bottom / head).toBeLessThan(0.88);
  }
});

test.each(CASES)('%s %i: a fine grain everywhere (32×32 patches vary by 0.5 to 4 levels), no hard shapes', async (kind, variant) => {
  const image = await backdrop(kind, variant);
  const texture = patchTexture(image);
  expect(Math.min(...texture)).toBeGreaterThan(0.5);
  expect(Math.max(...texture)).toBeLessThan(4);
  // Out of focus or lit paper: neighbouring 8×8 blocks never jump; the old discs and rectangles did by 13 to 26.
  expect(hardestEdge(image)).toBeLessThan(6);
});

test.each(CASES)('%s %i at full size: no 8-bit bands in the gradient', async (kind, variant) => {
  const image = await backdrop(kind, variant, 1200, 1500);
  const { data, width, height } = image;
  // Down a column through the falloff a banded gradient stays on one value for many rows, then steps.
  for (const x of [300, 600, 900]) {
    let run = 1;
    let longest = 1;
    for (let y = 1; y < height; y++) {
      run = data[(y * width + x) * 3 + 1] === data[((y - 1) * width + x) * 3 + 1] ? run + 1 : 1;
      longest = Math.max(longest, run);
    }
    expect(longest, `column ${x}`).toBeLessThan(16);
  }
  // And the mean of neighbouring rows changes smoothly, by well under a level.
  let previous = areaLuma(image, 0.3, 0, 0.7, 1 / height);
  for (let y = 1; y < height; y++) {
    const row = areaLuma(image, 0.3, y / height, 0.7, (y + 1) / height);
    expect(Math.abs(row - previous), `row ${y}`).toBeLessThan(0.8);
    previous = row;
  }
});

test.each(VARIANTS)('studio %i: muted photographic colours, no cartoon saturation', async (variant) => {
  const { data } = await backdrop('studio', variant);
  const [r, g, b] = meanRgb({ data, width: W, height: H }) as [number, number, number];
  expect((Math.max(r, g, b) - Math.min(r, g, b)) / Math.max(r, g, b)).toBeLessThan(0.2);
  for (let i = 0; i < data.length; i += 3) {
    const [pr, pg, pb] = [data[i]!, data[i + 1]!, data[i + 2]!];
    if (Math.max(pr, pg, pb) - Math.min(pr, pg, pb) >= 40) expect.fail(`pixel ${i / 3}: ${pr},${pg},${pb} is too colourful for a studio wall`);
  }
});

test.each(VARIANTS)('creative %i: rich colour, yet not neon', async (variant) => {
  const [r, g, b] = meanRgb(await backdrop('creative', variant)) as [number, number, number];
  const saturation = (Math.max(r, g, b) - Math.min(r, g, b)) / Math.max(r, g, b);
  expect(saturation).toBeGreaterThan(0.25);
  expect(saturation).toBeLessThan(0.75);
});
