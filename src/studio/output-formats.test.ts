// A generated picture in the three formats, on real photographs standing in for a generator's outputs: the
// face where the format wants it, within the studio's limits, the size the picture allows, 300 DPI, marked as
// AI-generated.
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, test } from 'vitest';
import { PROJECT_ROOT } from '../testing/project-root.js';
import { OUTPUT_FORMATS, OUTPUT_FORMAT_KEYS } from './formats.js';
import { createTestInference } from './test/inference.js';
import { crownOf, deliverySize, frameGeneratedPicture, frameInside, tooTightFor } from './output-formats.js';
import { assessPhoto } from './quality-gate.js';

const inference = createTestInference();
afterAll(() => inference.close());

const fixture = (name: string) => path.join(PROJECT_ROOT, 'test/fixtures', name);

/** Real photos at the sizes generators deliver (portrait 4:5 around 1 MP, and one large one). */
const PICTURES = [
  { name: 'hopper, 1024 × 1280', file: fixture('portrait-hopper.jpg'), width: 1024, height: 1280 },
  { name: 'astronaut, 1664 × 2080', file: fixture('portrait-astronaut.png'), width: 1664, height: 2080 },
  { name: 'franck, 896 × 1120 from a video frame', file: fixture('faces/franck_02221.jpg'), width: 896, height: 1120 },
];

/** Pictures that fit every format within the studio's limits (franck's video frame, cut to 4:5, is too tight: below). */
const FITTING = PICTURES.slice(0, 2);

test("a picture whose face is too large for a format within the studio's limits is named, so it is asked again, not framed tighter", { timeout: 60_000 }, async () => {
  const tight = PICTURES[2]!;
  const buffer = await sharp(tight.file).resize(tight.width, tight.height, { fit: 'cover' }).jpeg({ quality: 92 }).toBuffer();
  const face = (await assessPhoto(buffer, inference)).face!;
  const crown = await crownOf(buffer, face, inference);
  // Its 4:5 frame, as wide as the picture, would hold the face at about three quarters of its height (studio: at most 62 %).
  expect(tooTightFor(face, tight, crown)).toContain('portrait');
  for (const picture of FITTING) {
    const fits = await sharp(picture.file).resize(picture.width, picture.height, { fit: 'cover' }).jpeg({ quality: 92 }).toBuffer();
    const its = (await assessPhoto(fits, inference)).face!;
    expect(tooTightFor(its, picture, await crownOf(fits, its, inference)), picture.name).toEqual([]);
  }
});

describe.each(FITTING)('$name', (picture) => {
  test('three formats at 300 DPI, marked as generated, the face framed as the format asks where the picture allows', { timeout: 60_000 }, async () => {
    const buffer = await sharp(picture.file).resize(picture.width, picture.height, { fit: 'cover' }).jpeg({ quality: 92 }).toBuffer();
    const face = (await assessPhoto(buffer, inference)).face!;
    expect(face).not.toBeNull();
    const outputs = await frameGeneratedPicture({ picture: buffer, face, creatorTool: 'test-model' });
    expect(outputs.map((o) => o.format)).toEqual(OUTPUT_FORMAT_KEYS);
    for (const output of outputs) {
      const format = OUTPUT_FORMATS[output.format];
      const meta = await sharp(output.buffer).metadata();
      expect({ width: meta.width, height: meta.height, density: meta.density }).toEqual({ width: output.width, height: output.height, density: 300 });
      // The format's aspect, never below its own size.
      expect(Math.abs(output.width / output.height - format.width / format.height)).toBeLessThan(0.01);
      expect(output.width).toBeGreaterThanOrEqual(format.width);
      expect(meta.xmp!.toString('utf8')).toContain('digitalsourcetype/trainedAlgorithmicMedia');
      // The face is found again in the framed picture, once, where the format puts it.
      const again = await assessPhoto(output.buffer, inference);
      expect(again.measures.faces).toBe(1);
      const centreY = (again.face!.y + again.face!.height / 2) / output.height;
      const centreX = (again.face!.x + again.face!.width / 2) / output.width;
      expect(Math.abs(centreX - 0.5)).toBeLessThan(0.12);
      expect(centreY).toBeGreaterThan(0.25);
      expect(centreY).toBeLessThan(0.6);
      // Never smaller than asked; larger only where the picture's edges forced a narrower frame.
      expect(output.faceHeightShare).toBeGreaterThanOrEqual(format.faceHeight - 0.01);
      // The studio's own limits for its drafts (formats.ts, as framing.test.ts holds the studio to them): the face
      // no larger than the format allows, and no more backdrop above it (the face found again in the framed
      // picture, its box's top within the format's limit, give or take the detector's 2 %).
      expect(output.faceHeightShare, output.format).toBeLessThan(format.maxFaceHeight);
      if (format.maxFaceTop !== null) expect(again.face!.y / output.height, output.format).toBeLessThanOrEqual(format.maxFaceTop + 0.02);
    }
    // The 35 × 45 mm picture is exactly its print size at 300 DPI.
    expect(outputs.find((o) => o.format === 'application')).toMatchObject({ width: 413, height: 531 });
  });
});

test('no format cuts the top of the head: every frame starts above the crown the person map measures', { timeout: 60_000 }, async () => {
  const cut: string[] = [];
  const measured: string[] = [];
  for (const picture of PICTURES) {
    const buffer = await sharp(picture.file).resize(picture.width, picture.height, { fit: 'cover' }).jpeg({ quality: 92 }).toBuffer();
    const face = (await assessPhoto(buffer, inference)).face!;
    const crown = await crownOf(buffer, face, inference);
    expect(crown, picture.name).not.toBeNull();
    // The crown lies above the face box's top here (hair, a cap), never below the face's middle.
    expect(crown!).toBeLessThan(face.y + face.height / 2);
    for (const key of OUTPUT_FORMAT_KEYS) {
      const size = { width: picture.width, height: picture.height };
      const withCrown = frameInside(face, size, OUTPUT_FORMATS[key], crown);
      const byBox = frameInside(face, size, OUTPUT_FORMATS[key]);
      measured.push(`${picture.name} ${key}: crown ${crown!.toFixed(0)}, frame top ${withCrown.y} (by the box alone ${byBox.y})`);
      if (withCrown.y > crown!) cut.push(measured.at(-1)!);
    }
  }
  console.log(measured.join('\n'));
  expect(cut).toEqual([]);
});

test('the large picture keeps its detail: 4:5 as large as the frame in the picture (over 1200 px wide)', async () => {
  const size = deliverySize(OUTPUT_FORMATS.portrait, { x: 0, y: 0, width: 1600, height: 2000 });
  expect(size).toEqual({ width: 1600, height: 2000 });
  expect(deliverySize(OUTPUT_FORMATS.portrait, { x: 0, y: 0, width: 800, height: 1000 })).toEqual({ width: 1200, height: 1500 });
});

test('a frame never reaches past the picture: near an edge it narrows around the face instead of filling in', () => {
  const picture = { width: 1000, height: 1250 };
  // A face close to the top left corner, as a generator may paint it.
  const face = { x: 60, y: 40, width: 220, height: 280 };
  for (const key of OUTPUT_FORMAT_KEYS) {
    const frame = frameInside(face, picture, OUTPUT_FORMATS[key]);
    expect(frame.x).toBeGreaterThanOrEqual(0);
    expect(frame.y).toBeGreaterThanOrEqual(0);
    expect(frame.x + frame.width).toBeLessThanOrEqual(picture.width);
    expect(frame.y + frame.height).toBeLessThanOrEqual(picture.height);
    // The face stays whole inside it.
    expect(frame.x).toBeLessThanOrEqual(face.x);
    expect(frame.y).toBeLessThanOrEqual(face.y);
    expect(frame.x + frame.width).toBeGreaterThanOrEqual(face.x + face.width);
  }
});
