// The gate on real photographs of several people (test/fixtures/README.md) and on the same photos made bad.
// The measures of every photo are printed: the limits in thresholds.ts rest on them.
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { PORTRAIT } from '../testing/images.js';
import { selfieCorpus, tightGroupCrop } from '../testing/people.js';
import { FIXTURES_DIR } from '../testing/project-root.js';
import type { Inference } from './inference/client.js';
import { createTestInference } from './test/inference.js';
import { groupFaceCrops } from './test/faces.js';
import { assessPhoto, laplacianVariance, type QualityIssueCode, type QualityReport } from './quality-gate.js';
import { GATE } from './thresholds.js';

const inference = createTestInference();
afterAll(() => inference.close());

const portrait = (width = 1200, height = 1500) => sharp(PORTRAIT).resize(width, height, { fit: 'cover' }).jpeg({ quality: 88 }).toBuffer();
const codes = (report: { issues: { code: string }[] }) => report.issues.map((issue) => issue.code);

/** As an upload arrives: at least 1024 px on the short side (UPLOAD_LIMITS.minShortSidePx), as JPEG. */
const asUpload = (input: string | Buffer) => sharp(input).resize(1024, 1024, { fit: 'outside' }).jpeg({ quality: 90 }).toBuffer();

/** The real face, with the angles given: a turned or tilted head cannot be made from a frontal portrait. */
const posed = (angles: { yaw?: number; pitch?: number; roll?: number }): Inference => ({
  detectFaces: async (image) => (await inference.detectFaces(image)).map((face) => ({ ...face, yaw: 0, pitch: 0, roll: 0, ...angles })),
  describeFace: (image, face) => inference.describeFace(image, face),
  segment: (image) => inference.segment(image),
  detectPoses: (image) => inference.detectPoses(image),
  close: async () => {},
});

const degrees = (radians: number) => Math.round((radians * 180) / Math.PI);

/** One line of the printed table: what the gate measured and decided. */
function line(name: string, report: QualityReport): string {
  const m = report.measures;
  const measured = report.face
    ? `sharpness ${String(m.sharpness).padStart(4)}  brightness ${String(m.brightness).padStart(3)}  clipped ${m.clipped!.toFixed(2)}  roll ${String(degrees(report.face.roll)).padStart(3)}°`
    : 'no face measured'.padEnd(58);
  return `${name.padEnd(26)} ${measured}  ${report.verdict.padEnd(8)} ${codes(report).join(', ')}`;
}

interface Photo {
  name: string;
  photo: Buffer;
}
/** The people made bad below: both portraits and the five photos of Franck, at an upload's size. */
const people: Photo[] = [];
/** Faces cut out of the group photos: real, candid, often soft; only their originals are judged. */
const groupFaces: Photo[] = [];

beforeAll(async () => {
  people.push({ name: 'astronaut', photo: await portrait() });
  people.push({ name: 'hopper', photo: await asUpload(path.join(FIXTURES_DIR, 'portrait-hopper.jpg')) });
  for (const frame of ['01829', '02221', '02683', '03979', '04117']) {
    people.push({ name: `franck_${frame}`, photo: await sharp(path.join(FIXTURES_DIR, `faces/franck_${frame}.jpg`)).resize(1280, 1024).jpeg({ quality: 90 }).toBuffer() });
  }
  for (const n of [1, 2, 3, 4, 5, 6]) {
    for (const [index, photo] of (await Promise.all((await groupFaceCrops(path.join(FIXTURES_DIR, `faces/sample${n}.jpg`), inference)).map(asUpload))).entries()) groupFaces.push({ name: `sample${n}:${index}`, photo });
  }
}, 120_000);

test('the real photos of every person pass or are warned about; none is refused for blur, light or tilt', { timeout: 120_000 }, async () => {
  const refused: string[] = [];
  const rows: string[] = [];
  for (const { name, photo } of [...people, ...groupFaces]) {
    const report = await assessPhoto(photo, inference);
    rows.push(line(name, report));
    if (report.verdict === 'refused') refused.push(`${name}: ${codes(report).join(', ')}`);
  }
  console.log(`quality gate, real photos:\n${rows.join('\n')}`);
  expect(groupFaces.length).toBeGreaterThanOrEqual(20);
  // A woman in full profile (finger on her lips, sample2:1) is warned as turned (headTurned): the detector
  // finds her on the gate's 640 px copy, where on a 1024 px one it missed her and she was refused as faceless.
  expect(refused).toEqual([]);
});

/** Blur of σ pixels of the 256-px face sample, so it hurts each face alike (σ × face width / 256 in the photo). */
const blurred = (sigma: number) => (photo: Buffer, faceWidth: number) => sharp(photo).blur((sigma * faceWidth) / 256).jpeg({ quality: 90 }).toBuffer();
/** Every pixel's value times `factor`, clipped at 255: under- or overexposed. */
const exposed = (factor: number) => (photo: Buffer) => sharp(photo).linear(factor, 0).jpeg({ quality: 90 }).toBuffer();
/** The whole photo turned (clockwise): the camera held askew, or on its side. */
const rotated = (angle: number) => (photo: Buffer) => sharp(photo).rotate(angle, { background: '#808080' }).jpeg({ quality: 90 }).toBuffer();

type Expected = { verdict: QualityReport['verdict']; code?: QualityIssueCode };
const MADE_BAD: { name: string; make: (photo: Buffer, faceWidth: number) => Promise<Buffer>; expected: Expected; except?: Record<string, Expected> }[] = [
  // Hopper's photo is so sharp (fine wrinkles, 1174) that σ 1 leaves it above the warning limit still.
  { name: 'blur σ 1', make: blurred(1), expected: { verdict: 'warning', code: 'blurred' }, except: { hopper: { verdict: 'ok' } } },
  { name: 'blur σ 4', make: blurred(4), expected: { verdict: 'refused', code: 'tooBlurred' } },
  { name: 'light ×1/2', make: exposed(1 / 2), expected: { verdict: 'warning', code: 'tooDark' } },
  { name: 'light ×1/4', make: exposed(1 / 4), expected: { verdict: 'refused', code: 'farTooDark' } },
  // Her light skin on a light backdrop burns out first: at ×2 more than half her face is white already.
  { name: 'light ×2', make: exposed(2), expected: { verdict: 'warning', code: 'tooBright' }, except: { astronaut: { verdict: 'refused', code: 'farTooBright' } } },
  // ×3 leaves so little of her face that the detector no longer finds it.
  { name: 'light ×3', make: exposed(3), expected: { verdict: 'refused', code: 'farTooBright' }, except: { astronaut: { verdict: 'refused', code: 'noFace' } } },
  // Up to GATE.maxRoll (34°) the studio sets the head level: no tilt warning. (Turning resamples the photo: the
  // astronaut's soft 512 px original ends just under the sharpness limit, 119.)
  { name: 'rotated 15°', make: rotated(15), expected: { verdict: 'ok' }, except: { astronaut: { verdict: 'warning', code: 'blurred' } } },
  // A head laid this far on one side is a real pose (one of the group faces): warned, not refused.
  { name: 'rotated 45°', make: rotated(45), expected: { verdict: 'warning', code: 'headTilted' } },
  { name: 'rotated 90°', make: rotated(90), expected: { verdict: 'refused', code: 'headTiltedTooFar' } },
];

test('made-bad photos: heavy blur, far too dark, burnt out and a photo on its side are refused; milder ones warned', { timeout: 240_000 }, async () => {
  const rows: string[] = [];
  const wrong: string[] = [];
  for (const { name, photo } of people) {
    const original = await assessPhoto(photo, inference);
    rows.push(line(name, original));
    for (const bad of MADE_BAD) {
      const report = await assessPhoto(await bad.make(photo, original.face!.width), inference);
      rows.push(line(`  ${bad.name}`, report));
      const expected = bad.except?.[name] ?? bad.expected;
      // The expected code first (a refusal leads the list), and the verdict that goes with it.
      const got = { verdict: report.verdict, code: report.verdict === 'refused' ? report.issues[0]?.code : report.issues.find((issue) => issue.code === expected.code)?.code };
      if (got.verdict !== expected.verdict || got.code !== expected.code) wrong.push(`${name} ${bad.name}: ${got.verdict} ${codes(report).join(', ')}`);
    }
  }
  console.log(`quality gate, made bad:\n${rows.join('\n')}`);
  expect(wrong).toEqual([]);
});

test('someone else at the photo\'s side is warned about (party photos cropped until no other face is found); single portraits and turned ones are not', { timeout: 120_000 }, async () => {
  const rows: string[] = [];
  for (const { name, photo } of people) {
    for (const [variant, made] of [['', photo], [' turned 15°', await rotated(15)(photo)], [' turned −15°', await rotated(-15)(photo)]] as const) {
      const report = await assessPhoto(made, inference);
      rows.push(`${(name + variant).padEnd(28)} ${report.measures.otherPersonAtSide}`);
      expect(codes(report), name + variant).not.toContain('otherPeople');
    }
  }
  // Of the other two, sample1 shows of her friends only a glove, below (nothing beside her face), and sample4's
  // crop still holds a second face large enough to be refused.
  for (const name of ['sample2', 'sample3', 'sample5', 'sample6']) {
    const report = await assessPhoto(await tightGroupCrop(name), inference);
    rows.push(`${`${name} cropped tight`.padEnd(28)} ${report.measures.otherPersonAtSide}`);
    expect(report.issues, name).toContainEqual({ code: 'otherPeople', measured: expect.any(Number), limit: GATE.maxOtherPersonAtSide });
    expect(report.verdict, name).toBe('warning');
  }
  console.log(`someone at the side (share of the rows beside the face):\n${rows.join('\n')}`);
});

test("tight selfies: a friend's hair beside the head is warned about, a customer alone is not", { timeout: 120_000 }, async () => {
  // The selfies' sides lie 0.55–0.8 face widths from the face's middle. Warned: sample3's friend's dark hair at her
  // right, sample3-right's friend's blonde hair and face at her left, sample6-right's friend's hair at her left.
  // Not yet: sample4's friend's hair (the person model does not see it as a person), sample5's and sample2's
  // friends' shoulders below the mouth (measured 0.08–0.19 of the rows, under the limit).
  const warned = ['sample3-selfie', 'sample3-right-selfie', 'sample6-right-selfie'];
  const alone = ['astronaut-selfie', 'hopper-selfie', 'sample6-selfie', 'sample1-selfie'];
  const rows: string[] = [];
  for (const { name, photo } of await selfieCorpus()) {
    if (!warned.includes(name) && !alone.includes(name)) continue;
    const report = await assessPhoto(photo, inference);
    rows.push(`${name.padEnd(24)} ${report.measures.otherPersonAtSide}`);
    expect(codes(report).includes('otherPeople'), name).toBe(warned.includes(name));
  }
  console.log(`tight selfies, someone at the side:\n${rows.join('\n')}`);
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

test('a wide photo of two or three large faces (4146 × 1700) is several people, for the crop tool, never "no face" or one', { timeout: 60_000 }, async () => {
  // The detector squeezes its input into a square; these were answered noFace (two faces) or passed with one of
  // three faces before the detector got wide photos padded to a square.
  for (const [file, left, top, width, height, faces] of [
    ['sample3', 420, 120, 1060, 434, 2],
    ['sample6', 1000, 180, 860, 352, 2],
    ['sample3', 380, 150, 1540, 631, 3],
  ] as const) {
    const photo = await sharp(path.join(FIXTURES_DIR, 'faces', `${file}.jpg`)).extract({ left, top, width, height }).resize({ width: 4146 }).jpeg().toBuffer();
    expect(await assessPhoto(photo, inference), `${file} ${faces}`).toMatchObject({ verdict: 'refused', issues: [{ code: 'multipleFaces', measured: faces }] });
  }
  // One of those women cut out alone, as the crop tool leaves her: one face, accepted.
  const one = await sharp(path.join(FIXTURES_DIR, 'faces/sample3.jpg')).extract({ left: 900, top: 120, width: 560, height: 700 }).resize({ height: 1500 }).jpeg().toBuffer();
  expect((await assessPhoto(one, inference)).verdict).not.toBe('refused');
});

test('warnings: blurred, shrunk and enlarged again, darkened, overexposed, and a face far too small', async () => {
  const base = await portrait();
  expect(codes(await assessPhoto(await sharp(base).blur(4).jpeg().toBuffer(), inference))).toEqual(['blurred']);
  const shrunk = await sharp(await sharp(PORTRAIT).resize(180, 180).toBuffer()).resize(1200, 1500, { fit: 'cover' }).jpeg().toBuffer();
  expect(codes(await assessPhoto(shrunk, inference))).toEqual(['blurred']);
  // Dark is dark, not blurred: sharpness is judged at full contrast.
  expect(codes(await assessPhoto(await sharp(base).modulate({ brightness: 0.5 }).jpeg().toBuffer(), inference))).toEqual(['tooDark']);
  expect(codes(await assessPhoto(await sharp(base).linear(1.5, 0).jpeg().toBuffer(), inference))).toEqual(['tooBright']);
  const far = await sharp({ create: { width: 2400, height: 2400, channels: 3, background: '#8a8a8a' } })
    .composite([{ input: await sharp(PORTRAIT).resize(500, 500).toBuffer(), left: 950, top: 950 }])
    .jpeg()
    .toBuffer();
  expect(codes(await assessPhoto(far, inference))).toEqual(expect.arrayContaining(['faceTooSmall', 'lowResolution']));
});

test('a refused photo still reports its face, measures and descriptor (for the output gate), the refusal first', async () => {
  // Shrunk to 120 px and enlarged again: no detail left. The tilt, a warning, is found before the blur.
  const mush = await sharp(await sharp(PORTRAIT).resize(120, 120).toBuffer()).resize(1200, 1500, { fit: 'cover' }).jpeg().toBuffer();
  const report = await assessPhoto(mush, posed({ roll: GATE.maxRoll + 0.1 }));
  expect(report).toMatchObject({
    verdict: 'refused',
    issues: [{ code: 'tooBlurred', limit: GATE.minUsableSharpness }, { code: 'headTilted' }],
    face: { width: expect.any(Number) },
  });
  expect(report.measures.sharpness).toBeLessThan(GATE.minUsableSharpness);
  expect(report.descriptor).toHaveLength(128);
});

test('a turned head is a warning at the yaw and pitch limits', async () => {
  const base = await portrait();
  expect(codes(await assessPhoto(base, posed({ yaw: GATE.maxYaw - 0.05 })))).toEqual([]);
  expect(codes(await assessPhoto(base, posed({ yaw: GATE.maxYaw + 0.1 })))).toEqual(['headTurned']);
  expect(codes(await assessPhoto(base, posed({ pitch: -(GATE.maxPitch + 0.1) })))).toEqual(['headTurned']);
});

test('a tilted head is a warning above the roll limit and refused above the usable one, to either side', async () => {
  const base = await portrait();
  for (const side of [1, -1]) {
    expect(codes(await assessPhoto(base, posed({ roll: side * (GATE.maxRoll - 0.03) })))).toEqual([]);
    expect(await assessPhoto(base, posed({ roll: side * (GATE.maxRoll + 0.03) }))).toMatchObject({ verdict: 'warning', issues: [{ code: 'headTilted' }] });
    expect(await assessPhoto(base, posed({ roll: side * (GATE.maxUsableRoll - 0.03) }))).toMatchObject({ verdict: 'warning', issues: [{ code: 'headTilted' }] });
    expect(await assessPhoto(base, posed({ roll: side * (GATE.maxUsableRoll + 0.03) }))).toMatchObject({ verdict: 'refused', issues: [{ code: 'headTiltedTooFar' }] });
  }
  // Upside down is beyond every tilt.
  expect(await assessPhoto(base, posed({ roll: Math.PI }))).toMatchObject({ verdict: 'refused', issues: [{ code: 'headTiltedTooFar' }] });
});

test('the Laplacian variance is zero on a flat image and large on a checkerboard', () => {
  expect(laplacianVariance(new Uint8Array(64 * 64).fill(128), 64, 64)).toBe(0);
  const board = new Uint8Array(64 * 64).map((_, i) => (((i % 64) + Math.floor(i / 64)) % 2 ? 255 : 0));
  expect(laplacianVariance(board, 64, 64)).toBeGreaterThan(10_000);
});
