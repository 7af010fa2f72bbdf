// Framing on the photos customers really send: tight phone selfies of ten different people (src/testing/people.ts),
// the face filling 50 to 70 % of the photo, the shoulders cut, friends at the side. Every 4:5 and 1:1 draft is a
// headshot a photographer would take: the face's top in the upper 8 to 25 % of the picture (no empty band of
// backdrop above the hair) and the face at least 30 % of the height. The faces are found again in the drafts.
import sharp from 'sharp';
import { afterAll, expect, test } from 'vitest';
import { measureEdge } from './test/edge-measure.js';
import { selfieCorpus } from '../testing/people.js';
import { drawBackdrop } from './backdrops.js';
import { framingFor, photoFills } from './framing.js';
import { OUTPUT_FORMATS } from './formats.js';
import { createTestInference } from './test/inference.js';
import { checkStudioDraft } from './output-gate.js';
import { assessPhoto } from './quality-gate.js';
import { IDENTITY } from './thresholds.js';
import { dropIslands } from './leftovers.js';
import { renderDraft } from './render.js';
import { customerFace } from './test/faces.js';

const inference = createTestInference();
afterAll(() => inference.close());

test('a tight photo makes a smaller frame with the head at the top, never a frame moved up over empty backdrop', () => {
  // A 3:4 selfie, the face box 60 % of its height, its top 15 % down: 4:5 at the format's face share (35 %) would
  // need 1.2 face heights more photo below the face than there is.
  const photo = { width: 1125, height: 1500 };
  const face = { x: 262, y: 225, width: 600, height: 900 };
  for (const format of [OUTPUT_FORMATS.portrait, OUTPUT_FORMATS.square]) {
    const { frame, faceShare } = framingFor(face, photo, format);
    expect(frame.y + frame.height, `${format.key} ends at the photo's bottom`).toBeLessThanOrEqual(photo.height + 1);
    const faceTop = (face.y - frame.y) / frame.height;
    expect(faceTop, format.key).toBeGreaterThan(0.08);
    expect(faceTop, format.key).toBeLessThanOrEqual(format.maxFaceTop + 0.001);
    expect(faceShare, format.key).toBeGreaterThan(format.faceHeight);
    expect(faceShare, format.key).toBeLessThan(format.maxFaceHeight);
    expect(photoFills(face, photo, format), format.key).toBe(1);
  }
  // A photo that ends at the chin gives no 4:5 or 1:1 bust: it says so, so a plan takes another photo.
  const chinOnly = { width: 1125, height: 1040 };
  expect(photoFills(face, chinOnly, OUTPUT_FORMATS.portrait)).toBeLessThan(0.8);
  // A small photo that would have to be enlarged more than MAX_UPSCALE gives less than 1 too.
  const scale = 0.25;
  expect(photoFills({ x: face.x * scale, y: face.y * scale, width: face.width * scale, height: face.height * scale }, { width: photo.width * scale, height: photo.height * scale }, OUTPUT_FORMATS.portrait)).toBeLessThan(1);
});

test('selfies of ten people: in every 4:5 and 1:1 draft the face\'s top lies in the upper 8–25 % and the face is at least 30 % of the height, still theirs, with nothing of the old picture apart from them', { timeout: 240_000 }, async () => {
  const selfies = await selfieCorpus();
  expect(selfies.length).toBeGreaterThanOrEqual(8);
  const measured: string[] = [];
  const wrong: string[] = [];
  const fringes: number[] = [];
  const halos: number[] = [];
  for (const [n, person] of selfies.entries()) {
    const meta = await sharp(person.photo).metadata();
    const report = await assessPhoto(person.photo, inference);
    expect(report.face, `${person.name}: a face`).not.toBeNull();
    // The faces fill 46 to 70 % of these photos' height: the selfies the issue describes.
    expect(report.measures.faceHeightRatio!, person.name).toBeGreaterThan(0.45);
    for (const format of ['portrait', 'square'] as const) {
      // Each person's drafts in one of the three framings (as planned, wider, tighter), so all three are tried.
      const variation = (n + (format === 'square' ? 1 : 0)) % 3;
      const draft = await renderDraft({ photo: person.photo, face: report.face!, spec: { format, backdrop: { kind: 'studio', variant: 1 }, style: 'professional', variation }, inference, withMask: true });
      // No piece of the old picture apart from the person (person-mask.ts dropIslands finds none left to clear).
      const leftover = dropIslands(Uint8Array.from(draft.mask!.alpha), draft.width, draft.height);
      // The rim: how much of the band along the person's edge still shows the old background (test/edge-measure.ts).
      const edge = measureEdge({
        output: await sharp(draft.buffer).removeAlpha().raw().toBuffer(),
        backdrop: await drawBackdrop('studio', 1, draft.width, draft.height),
        photo: draft.mask!.photo,
        alpha: draft.mask!.alpha,
        segmented: draft.mask!.segmented,
        width: draft.width,
        height: draft.height,
      });
      fringes.push(edge.fringeShare);
      halos.push(edge.haloShare);
      const box = await customerFace(draft.buffer, inference);
      const top = box.y / draft.height;
      const share = box.height / draft.height;
      // The output gate every studio draft passes (studio-service.ts): one face, the customer's by the identity net.
      const verdict = await checkStudioDraft(draft.buffer, [report.descriptor!], inference);
      const distance = verdict.identity?.distance ?? NaN;
      measured.push(`${person.name} ${format}/${variation}: top ${top.toFixed(2)}, face ${share.toFixed(2)}, fills ${photoFills(report.face!, { width: meta.width!, height: meta.height! }, OUTPUT_FORMATS[format])}, identity ${distance.toFixed(2)} ${verdict.ok ? 'ok' : verdict.reason}, leftovers ${leftover}, rim ${(edge.fringeShare * 100).toFixed(1)} % of ${edge.band} px, halo ${(edge.haloShare * 100).toFixed(1)} % of ${edge.faint} px`);
      if (top < 0.08 || top > 0.25 || share < 0.3 || !verdict.ok || !(distance <= IDENTITY.maxSamePersonDistance) || leftover > 0 || edge.fringeShare > MAX_RIM || edge.haloShare > MAX_HALO) wrong.push(measured.at(-1)!);
    }
  }
  console.log(measured.join('\n'));
  expect(wrong).toEqual([]);
  const mean = fringes.reduce((a, b) => a + b, 0) / fringes.length;
  const meanHalo = halos.reduce((a, b) => a + b, 0) / halos.length;
  console.log(`rim: mean ${(mean * 100).toFixed(1)} % of the band; halo: mean ${(meanHalo * 100).toFixed(1)} % of the see-through edge`);
  expect(mean).toBeLessThan(MEAN_RIM);
  expect(meanHalo).toBeLessThan(MEAN_HALO);
});

/**
 * The rim as test/edge-measure.ts counts it (band pixels of the old background's colour or of no colour the person has
 * nearby), at most on one draft and on average over these twenty: measured 1–29 %, mean 11.5 % (16 % before the
 * person's colour was read nearer the edge where none lay well inside; docs/studio/edges.md).
 * A limit against getting worse, not a mark of good edges: the party photos' orange walls and lamps still leave a
 * rim the measure and the eye both find.
 */
const MAX_RIM = 0.33;
const MEAN_RIM = 0.14;
/**
 * The halo (test/edge-measure.ts): see-through edge pixels whose colour, less the backdrop's share, the person has
 * nowhere near. Measured 0–23 %, mean 4 %; 8–65 %, mean 33 %, while the edge steps took a thin crown of hair for
 * black and solved a pale line along it.
 */
const MAX_HALO = 0.3;
const MEAN_HALO = 0.08;
