import { expect, test } from 'vitest';
import { UPLOAD_LIMITS } from '../../../domain/catalog.js';
import {
  clampCrop,
  cropBounds,
  cropFileName,
  cropForKey,
  initialCrop,
  moveCrop,
  previewSize,
  resizeCrop,
  resizeFromCorner,
  toPercent,
  toSource,
  type CropBounds,
  type CropRect,
} from './crop-geometry.js';

const MIN = UPLOAD_LIMITS.minShortSidePx;
/** The group photo of the crop journey (test/fixtures/faces/sample2.jpg). */
const GROUP = { width: 1920, height: 1367 };

function bounds(width: number, height: number): CropBounds {
  const result = cropBounds({ width, height }, MIN);
  if (!result) throw new Error(`no crop for ${width}×${height}`);
  return result;
}

/** What the server measures: the short side in source pixels, and the frame wholly inside the photo. */
function expectValid(b: CropBounds, rect: CropRect) {
  expect(Math.min(rect.width, rect.height)).toBeGreaterThanOrEqual(MIN);
  expect(rect.x).toBeGreaterThanOrEqual(0);
  expect(rect.y).toBeGreaterThanOrEqual(0);
  expect(rect.x + rect.width).toBeLessThanOrEqual(b.image.width);
  expect(rect.y + rect.height).toBeLessThanOrEqual(b.image.height);
  for (const value of Object.values(rect)) expect(Number.isInteger(value)).toBe(true);
}

test('a photo too small for a frame of the minimum on its short side gets no crop at all', () => {
  expect(cropBounds({ width: 1023, height: 3000 }, MIN)).toBeNull();
  expect(cropBounds({ width: 3000, height: 1023 }, MIN)).toBeNull();
  expect(cropBounds({ width: 0, height: 0 }, MIN)).toBeNull();
  expect(cropBounds({ width: MIN, height: MIN }, MIN)).not.toBeNull();
});

test('the frame is 4:5 where the photo is tall enough, else as tall as the photo (up to square)', () => {
  const tall = bounds(3024, 4032);
  expect(tall.aspect).toBe(4 / 5);
  expect([tall.minWidth, tall.maxWidth]).toEqual([MIN, 3024]);
  const group = bounds(GROUP.width, GROUP.height);
  expect(group.aspect).toBe(4 / 5);
  expect(group.maxWidth).toBe(1093);
  // 1100 high: a 4:5 frame 1024 wide would be 1280 high; it becomes 1024 × 1100 instead.
  const flat = bounds(1600, 1100);
  expect(flat.aspect).toBeCloseTo(1024 / 1100);
  expect(clampCrop(flat, { x: 0, y: 0, width: 1, height: 1 })).toEqual({ x: 0, y: 0, width: 1024, height: 1100 });
  const square = bounds(1500, 1024);
  expect(initialCrop(square)).toEqual({ x: 238, y: 0, width: 1024, height: 1024 });
});

test('the first frame is the largest, centred, and valid', () => {
  const b = bounds(GROUP.width, GROUP.height);
  const rect = initialCrop(b);
  expect(rect).toEqual({ x: 414, y: 1, width: 1093, height: 1366 });
  expectValid(b, rect);
});

test('moving stops at every edge of the photo', () => {
  const b = bounds(GROUP.width, GROUP.height);
  const small = resizeCrop(b, initialCrop(b), 0);
  expect(moveCrop(b, small, -5000, -5000)).toMatchObject({ x: 0, y: 0 });
  expect(moveCrop(b, small, 5000, 5000)).toMatchObject({ x: GROUP.width - 1024, y: GROUP.height - 1280 });
  expect(moveCrop(b, small, 10, -3)).toMatchObject({ x: small.x + 10, y: small.y - 3, width: 1024, height: 1280 });
});

test('the frame never shrinks below the minimum in source pixels nor grows past the photo', () => {
  const b = bounds(4032, 3024);
  const rect = initialCrop(b);
  const smallest = resizeCrop(b, rect, 10);
  expect([smallest.width, smallest.height]).toEqual([MIN, 1280]);
  expectValid(b, smallest);
  const largest = resizeCrop(b, smallest, 99_999);
  expect([largest.width, largest.height]).toEqual([2419, 3024]);
  expectValid(b, largest);
  // Even a frame handed in broken comes back valid.
  expectValid(b, clampCrop(b, { x: -50.4, y: 9000, width: 12.2, height: 7 }));
});

test('resizing keeps the centre, and near an edge the frame is pushed back inside', () => {
  const b = bounds(4032, 3024);
  const centred = { x: 1000, y: 500, width: 1200, height: 1500 };
  const grown = resizeCrop(b, centred, 1400);
  expect(grown).toEqual({ x: 900, y: 375, width: 1400, height: 1750 });
  const atEdge = { x: 0, y: 0, width: 1024, height: 1280 };
  expect(resizeCrop(b, atEdge, 1224)).toEqual({ x: 0, y: 0, width: 1224, height: 1530 });
});

test('the corner handle grows or shrinks the frame from its top-left corner and stops at the photo', () => {
  const b = bounds(4032, 3024);
  const rect = { x: 100, y: 200, width: 1200, height: 1500 };
  expect(resizeFromCorner(b, rect, 200, 0)).toEqual({ x: 100, y: 200, width: 1400, height: 1750 });
  // Downwards counts as much as sideways, through the aspect.
  expect(resizeFromCorner(b, rect, 0, 250)).toEqual({ x: 100, y: 200, width: 1400, height: 1750 });
  expect(resizeFromCorner(b, rect, -5000, -5000)).toEqual({ x: 100, y: 200, width: MIN, height: 1280 });
  // The bottom edge is 2824 px below the corner: at 4:5 no wider than 2259.
  expect(resizeFromCorner(b, rect, 9000, 9000)).toEqual({ x: 100, y: 200, width: 2259, height: 2824 });
});

test('keys: arrows move by a hundredth of the long side, Shift ten times as far, + and − resize, other keys do nothing', () => {
  const b = bounds(GROUP.width, GROUP.height);
  expect([b.moveStep, b.resizeStep]).toEqual([19, 38]);
  const rect = { x: 449, y: 45, width: 1024, height: 1280 };
  expect(cropForKey(b, rect, 'ArrowRight', false)).toEqual({ ...rect, x: 468 });
  expect(cropForKey(b, rect, 'ArrowLeft', true)).toEqual({ ...rect, x: 449 - 190 });
  expect(cropForKey(b, rect, 'ArrowUp', false)).toEqual({ ...rect, y: 26 });
  expect(cropForKey(b, rect, 'ArrowUp', true)).toEqual({ ...rect, y: 0 });
  expect(cropForKey(b, rect, 'ArrowDown', true)).toEqual({ ...rect, y: GROUP.height - 1280 });
  expect(cropForKey(b, rect, '-', false)).toEqual(rect);
  expect(cropForKey(b, rect, '+', false)).toMatchObject({ width: 1062, height: 1328 });
  expect(cropForKey(b, rect, '=', false)).toMatchObject({ width: 1062 });
  for (const key of ['Tab', 'Enter', 'Escape', 'a', ' ']) expect(cropForKey(b, rect, key, false)).toBeNull();
});

test('from the first frame the keys reach the smallest frame at the top edge in a few presses', () => {
  const b = bounds(GROUP.width, GROUP.height);
  let rect = initialCrop(b);
  for (let i = 0; i < 3; i++) rect = cropForKey(b, rect, '-', false)!;
  expect(rect).toEqual({ x: 449, y: 45, width: 1024, height: 1280 });
  rect = cropForKey(b, rect, 'ArrowUp', true)!;
  expect(rect).toEqual({ x: 449, y: 0, width: 1024, height: 1280 });
});

test('screen distances become source pixels by the displayed size, and the frame becomes percentages', () => {
  const b = bounds(GROUP.width, GROUP.height);
  expect(toSource(b, { width: 358, height: 254.9 }, 35.8, 10)).toEqual({ dx: 192, dy: expect.closeTo(53.63, 2) });
  expect(toSource(b, { width: 0, height: 0 }, 10, 10)).toEqual({ dx: 0, dy: 0 });
  const percent = toPercent(b, { x: 480, y: 0, width: 960, height: 1367 });
  expect(percent).toEqual({ left: 25, top: 0, width: 50, height: 100 });
});

test('the preview is scaled down, never up', () => {
  expect(previewSize({ width: 4032, height: 3024 }, 1600)).toEqual({ width: 1600, height: 1200 });
  expect(previewSize({ width: 1200, height: 1500 }, 1600)).toEqual({ width: 1200, height: 1500 });
});

test('the cropped file is named after the original', () => {
  expect(cropFileName('IMG_1234.HEIC')).toBe('IMG_1234-crop.jpg');
  expect(cropFileName('party.photo.jpeg')).toBe('party.photo-crop.jpg');
  expect(cropFileName('selfie')).toBe('selfie-crop.jpg');
  expect(cropFileName('.jpg')).toBe('photo-crop.jpg');
});
