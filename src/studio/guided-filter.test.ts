// The guided filter makes a coarse person mask follow the photo's own edges: checked against a real matte (a man in
// front of a blue screen, where the screen's colour gives the true opacity of every pixel, hair included).
import path from 'node:path';
import sharp from 'sharp';
import { expect, test } from 'vitest';
import { FIXTURES_DIR } from '../testing/project-root.js';
import { guidedFilter } from './guided-filter.js';

/** The blue screen keyed: 0 where the pixel is the screen's blue, 255 where it has none of it, a ramp between. */
function blueScreenMatte(rgb: Uint8Array, count: number): Uint8Array {
  const matte = new Uint8Array(count);
  for (let i = 0; i < count; i++) {
    const r = rgb[i * 3]!;
    const g = rgb[i * 3 + 1]!;
    const b = rgb[i * 3 + 2]!;
    const blueness = b - Math.max(r, g);
    matte[i] = Math.max(0, Math.min(255, Math.round(255 - ((blueness - 40) * 255) / 80)));
  }
  return matte;
}

/** Mean difference (0–255) from the true matte where the true matte has an edge nearby. */
function edgeError(mask: Uint8Array, matte: Uint8Array, near: Uint8Array): number {
  let sum = 0;
  let n = 0;
  for (let i = 0; i < mask.length; i++) {
    if (!near[i]) continue;
    sum += Math.abs(mask[i]! - matte[i]!);
    n++;
  }
  return sum / n;
}

test('a blocky mask follows the hair and shoulders of a real photo once filtered, and loses its steps', { timeout: 30_000 }, async () => {
  // Enlarged as the studio enlarges a phone's small photo.
  const { data, info } = await sharp(path.join(FIXTURES_DIR, 'faces', 'franck_03979.jpg')).resize({ width: 1440 }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const rgb = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  const { width, height } = info;
  const matte = blueScreenMatte(rgb, width * height);
  // The segmentation model's view: the matte at a 24th of the size (about its 256-pixel map over a draft), enlarged
  // without smoothing, so its edge runs in steps of 24 pixels.
  const small = await sharp(Buffer.from(matte), { raw: { width, height, channels: 1 } }).resize(Math.round(width / 24), Math.round(height / 24)).extractChannel(0).raw().toBuffer();
  const blocky = new Uint8Array(await sharp(small, { raw: { width: Math.round(width / 24), height: Math.round(height / 24), channels: 1 } }).resize(width, height, { kernel: 'nearest', fit: 'fill' }).extractChannel(0).raw().toBuffer());
  // Where it matters: within 24 pixels of the true edge.
  const spread = await sharp(Buffer.from(matte), { raw: { width, height, channels: 1 } }).blur(12).extractChannel(0).raw().toBuffer();
  const near = new Uint8Array(width * height);
  for (let i = 0; i < near.length; i++) near[i] = spread[i]! > 8 && spread[i]! < 247 ? 1 : 0;
  expect(near.reduce((a, b) => a + b, 0)).toBeGreaterThan(width * 40);

  const filtered = guidedFilter(rgb, blocky, width, height, { radius: width / 100, epsilon: 3e-3, step: 4 });
  const before = edgeError(blocky, matte, near);
  const after = edgeError(filtered, matte, near);
  // Measured: 20.7 grey levels off the true matte before, 14.9 after.
  expect(after).toBeLessThan(before * 0.8);
  // Steps: along the rows, a blocky edge jumps by whole 24-pixel blocks; the filtered one moves in small steps.
  let jumps = 0;
  for (let y = 0; y < height; y++) for (let x = 1; x < width; x++) if (near[y * width + x] && Math.abs(filtered[y * width + x]! - filtered[y * width + x - 1]!) > 128) jumps++;
  let blockyJumps = 0;
  for (let y = 0; y < height; y++) for (let x = 1; x < width; x++) if (near[y * width + x] && Math.abs(blocky[y * width + x]! - blocky[y * width + x - 1]!) > 128) blockyJumps++;
  expect(jumps).toBeLessThan(blockyJumps / 4);
});

test('where the photo has no edge, the mask stays as it was: solid stays solid, empty stays empty', () => {
  const width = 64;
  const height = 48;
  const rgb = new Uint8Array(width * height * 3);
  for (let i = 0; i < width * height; i++) {
    // A person's jumper (left) against a grey wall (right), edge at x = 32.
    const person = i % width < 32;
    rgb[i * 3] = person ? 150 : 200;
    rgb[i * 3 + 1] = person ? 40 : 200;
    rgb[i * 3 + 2] = person ? 40 : 200;
  }
  const solid = new Uint8Array(width * height).fill(255);
  expect(Math.min(...guidedFilter(rgb, solid, width, height, { radius: 6, epsilon: 3e-3, step: 2 }))).toBe(255);
  const empty = new Uint8Array(width * height);
  expect(Math.max(...guidedFilter(rgb, empty, width, height, { radius: 6, epsilon: 3e-3, step: 2 }))).toBe(0);
  // A mask whose edge lies 3 pixels off the photo's edge (on the wall): its cut moves onto the photo's edge, and
  // what lay on the wall fades out softly instead of ending in a cut of its own.
  const off = new Uint8Array(width * height);
  for (let i = 0; i < off.length; i++) off[i] = i % width < 35 ? 255 : 0;
  const moved = guidedFilter(rgb, off, width, height, { radius: 6, epsilon: 1e-4, step: 2 });
  const row = [...moved.subarray(24 * width, 25 * width)];
  const drops = row.slice(1).map((value, x) => row[x]! - value);
  expect(drops.indexOf(Math.max(...drops))).toBe(31);
  expect(Math.min(...row.slice(0, 32))).toBeGreaterThan(240);
  expect(Math.max(...drops.slice(32))).toBeLessThan(30);
  // The input's own cut at x = 35 is gone.
  expect(Math.abs(drops[34]!)).toBeLessThan(30);
});

test('with a ceiling, nothing comes back that the mask had taken away', () => {
  const width = 40;
  const height = 30;
  const rgb = new Uint8Array(width * height * 3);
  for (let i = 0; i < width * height; i++) rgb.fill(i % width < 20 ? 60 : 220, i * 3, i * 3 + 3);
  // The photo says "person" up to x = 20; the refined mask ends at x = 14, and what lay beyond had been taken away.
  const alpha = new Uint8Array(width * height);
  const ceiling = new Uint8Array(width * height);
  for (let i = 0; i < alpha.length; i++) {
    alpha[i] = i % width < 14 ? 255 : 0;
    ceiling[i] = i % width < 16 ? 255 : 0;
  }
  const free = guidedFilter(rgb, alpha, width, height, { radius: 4, epsilon: 3e-3, step: 1 });
  const held = guidedFilter(rgb, alpha, width, height, { radius: 4, epsilon: 3e-3, step: 1, atMost: ceiling });
  // Unbounded, the filter would spread the mask towards the photo's edge.
  expect(free[10 * width + 17]).toBeGreaterThan(20);
  for (let i = 0; i < held.length; i++) expect(held[i]).toBeLessThanOrEqual(ceiling[i]!);
  expect(held[10 * width + 10]).toBe(free[10 * width + 10]);
});
