// The gate on a real public-domain portrait and on the same portrait made bad.
import sharp from 'sharp';
import { afterAll, expect, test } from 'vitest';
import { PORTRAIT } from '../testing/images.js';
import type { Inference } from './inference/client.js';
import { createTestInference } from './inference/test-inference.js';
import { assessPhoto, laplacianVariance } from './quality-gate.js';
import { GATE } from './thresholds.js';

const inference = createTestInference();
afterAll(() => inference.close());

const portrait = (width = 1200, height = 1500) => sharp(PORTRAIT).resize(width, height, { fit: 'cover' }).jpeg({ quality: 88 }).toBuffer();
const codes = (report: { issues: { code: string }[] }) => report.issues.map((issue) => issue.code);

test('the real portrait passes, with its face found where it is', async () => {
  const report = await assessPhoto(await portrait(), inference);
  expect(report.verdict).toBe('ok');
  expect(report.issues).toEqual([]);
  // The face is in the upper middle of the photo, and the report gives it in the stored photo's pixels.
  expect(report.face!.x).toBeGreaterThan(200);
  expect(report.face!.x + report.face!.width).toBeLessThan(1000);
  expect(report.face!.y).toBeLessThan(500);
  expect(report.measures.sharpness).toBeGreaterThan(GATE.minSharpness);
});

test('refused: no face (a crop of the suit), and two people side by side', async () => {
  const crop = await sharp(PORTRAIT).extract({ left: 0, top: 300, width: 512, height: 212 }).resize(1536, 640).jpeg().toBuffer();
  expect(await assessPhoto(crop, inference)).toMatchObject({ verdict: 'refused', issues: [{ code: 'noFace' }], face: null });
  const single = await portrait(1200, 1200);
  const pair = await sharp({ create: { width: 2400, height: 1200, channels: 3, background: '#777777' } })
    .composite([{ input: single, left: 0, top: 0 }, { input: single, left: 1200, top: 0 }])
    .jpeg()
    .toBuffer();
  expect(await assessPhoto(pair, inference)).toMatchObject({ verdict: 'refused', issues: [{ code: 'multipleFaces', measured: 2 }] });
});

test('warnings: blurred, shrunk and enlarged again, darkened, overexposed, and a face far too small', async () => {
  const base = await portrait();
  expect(codes(await assessPhoto(await sharp(base).blur(4).jpeg().toBuffer(), inference))).toEqual(['blurred']);
  const shrunk = await sharp(await sharp(PORTRAIT).resize(180, 180).toBuffer()).resize(1200, 1500, { fit: 'cover' }).jpeg().toBuffer();
  expect(codes(await assessPhoto(shrunk, inference))).toEqual(['blurred']);
  // Dark is dark, not blurred: sharpness is judged at full contrast.
  expect(codes(await assessPhoto(await sharp(base).modulate({ brightness: 0.3 }).jpeg().toBuffer(), inference))).toEqual(['tooDark']);
  expect(codes(await assessPhoto(await sharp(base).modulate({ brightness: 2.2 }).jpeg().toBuffer(), inference))).toEqual(['tooBright']);
  const far = await sharp({ create: { width: 2400, height: 2400, channels: 3, background: '#8a8a8a' } })
    .composite([{ input: await sharp(PORTRAIT).resize(500, 500).toBuffer(), left: 950, top: 950 }])
    .jpeg()
    .toBuffer();
  expect(codes(await assessPhoto(far, inference))).toEqual(expect.arrayContaining(['faceTooSmall', 'lowResolution']));
});

test('a turned head is a warning at the yaw and pitch limits', async () => {
  // A photo of a turned head cannot be made from a frontal portrait: the real face, with the angles given.
  const turned = (yaw: number, pitch: number): Inference => ({
    detectFaces: async (image) => (await inference.detectFaces(image)).map((face) => ({ ...face, yaw, pitch })),
    describeFace: (image, face) => inference.describeFace(image, face),
    segment: async () => new Uint8Array(),
    close: async () => {},
  });
  const base = await portrait();
  expect(codes(await assessPhoto(base, turned(GATE.maxYaw - 0.05, 0)))).toEqual([]);
  expect(codes(await assessPhoto(base, turned(GATE.maxYaw + 0.1, 0)))).toEqual(['headTurned']);
  expect(codes(await assessPhoto(base, turned(0, -(GATE.maxPitch + 0.1))))).toEqual(['headTurned']);
});

test('the Laplacian variance is zero on a flat image and large on a checkerboard', () => {
  expect(laplacianVariance(new Uint8Array(64 * 64).fill(128), 64, 64)).toBe(0);
  const board = new Uint8Array(64 * 64).map((_, i) => (((i % 64) + Math.floor(i / 64)) % 2 ? 255 : 0));
  expect(laplacianVariance(board, 64, 64)).toBeGreaterThan(10_000);
});
