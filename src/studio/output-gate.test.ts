// The gate on generated pictures, with real photographs standing in for a generator's outputs: another photo
// of the customer passes with its distance; someone else, a picture without a face, a blurred, dark, burnt-out or
// tilted one and a group are discarded with their reason.
import path from 'node:path';
import sharp, { type Sharp } from 'sharp';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { PROJECT_ROOT } from '../testing/project-root.js';
import { createTestInference } from './test/inference.js';
import type { FaceDescriptor } from './inference/types.js';
import { checkGeneratedPicture, checkStudioDraft } from './output-gate.js';
import { renderDraft } from './render.js';
import { assessPhoto } from './quality-gate.js';
import { IDENTITY } from './thresholds.js';

const fixture = (name: string) => path.join(PROJECT_ROOT, 'test/fixtures', name);
const inference = createTestInference();
let references: FaceDescriptor[];

/** At a generator's size: 4:5, about 1 MP. */
const asOutput = (file: string, transform: (image: Sharp) => Sharp = (image) => image) =>
  transform(sharp(file).resize(896, 1120, { fit: 'cover' })).jpeg({ quality: 92 }).toBuffer();

beforeAll(async () => {
  // The customer's accepted uploads: two photos of Franck, as the upload gate described them.
  references = [];
  for (const frame of ['01829', '02683']) {
    const upload = await sharp(fixture(`faces/franck_${frame}.jpg`)).resize({ width: 1280 }).jpeg().toBuffer();
    references.push((await assessPhoto(upload, inference)).descriptor!);
  }
}, 60_000);
afterAll(() => inference.close());

test('another photo of the customer passes, with its distance below the limit and its face for framing', { timeout: 30_000 }, async () => {
  const verdict = await checkGeneratedPicture(await asOutput(fixture('faces/franck_04117.jpg')), references, inference);
  expect(verdict).toMatchObject({ ok: true, identity: { limit: IDENTITY.maxSamePersonDistance } });
  if (!verdict.ok) throw new Error('unreachable');
  expect(verdict.identity.distance).toBeLessThan(IDENTITY.maxSamePersonDistance);
  expect(verdict.face.height).toBeGreaterThan(200);
});

test.each([
  ['someone else (Grace Hopper)', 'otherPerson', () => asOutput(fixture('portrait-hopper.jpg'))],
  ['someone else (Eileen Collins)', 'otherPerson', () => asOutput(fixture('portrait-astronaut.png'))],
  ['a picture without a face (the backdrop beside him)', 'noFace', () => sharp(fixture('faces/franck_01829.jpg')).extract({ left: 0, top: 0, width: 150, height: 190 }).resize(896, 1120).jpeg().toBuffer()],
  ['a blurred picture of him', 'blurred', () => asOutput(fixture('faces/franck_04117.jpg'), (image) => image.blur(9))],
  ['a dark picture of him (light × 1/2)', 'badLight', () => asOutput(fixture('faces/franck_04117.jpg'), (image) => image.linear(0.5, 0))],
  ['a burnt-out picture of him (light × 2)', 'badLight', () => asOutput(fixture('faces/franck_04117.jpg'), (image) => image.linear(2, 0))],
  ['a picture of him on its side (turned 45°)', 'tilted', () => asOutput(fixture('faces/franck_04117.jpg'), (image) => image.rotate(45, { background: '#808080' }).resize(896, 1120, { fit: 'cover' }))],
  ['a group', 'multipleFaces', () => sharp(fixture('faces/sample6.jpg')).resize({ width: 1400 }).jpeg().toBuffer()],
] as const)('%s is discarded as %s', { timeout: 30_000 }, async (_name, reason, make) => {
  const verdict = await checkGeneratedPicture(await make(), references, inference);
  expect(verdict).toMatchObject({ ok: false, reason });
  if (reason === 'otherPerson' && !verdict.ok) expect(verdict.identity!.distance).toBeGreaterThan(IDENTITY.maxSamePersonDistance);
});

test('without a reference photo nothing can be checked, and nothing passes unchecked', async () => {
  await expect(checkGeneratedPicture(await asOutput(fixture('faces/franck_04117.jpg')), [], inference)).rejects.toThrow(/no reference/);
});

test('a studio draft of the customer passes with its distance; against someone else\'s photos it is another person; a friend left in it is a second face', { timeout: 60_000 }, async () => {
  const photo = await sharp(fixture('faces/franck_04117.jpg')).resize({ width: 1280 }).jpeg().toBuffer();
  const face = (await assessPhoto(photo, inference)).face!;
  const draft = await renderDraft({ photo, face, spec: { format: 'application', backdrop: { kind: 'studio', variant: 0 }, style: 'professional' }, inference });
  const own = await checkStudioDraft(draft.buffer, references, inference);
  expect(own).toMatchObject({ ok: true, identity: { limit: IDENTITY.maxSamePersonDistance } });
  expect(own.identity!.distance).toBeLessThan(IDENTITY.maxSamePersonDistance);
  const hopper = (await assessPhoto(await sharp(fixture('portrait-hopper.jpg')).resize({ width: 1024 }).jpeg().toBuffer(), inference)).descriptor!;
  expect(await checkStudioDraft(draft.buffer, [hopper], inference)).toMatchObject({ ok: false, reason: 'otherPerson' });
  // Photos the gate could not describe: only the faces are counted.
  expect(await checkStudioDraft(draft.buffer, [], inference)).toEqual({ ok: true, identity: null });
  const group = await sharp(fixture('faces/sample6.jpg')).resize({ width: 1400 }).jpeg().toBuffer();
  expect(await checkStudioDraft(group, references, inference)).toMatchObject({ ok: false, reason: 'multipleFaces' });
});
