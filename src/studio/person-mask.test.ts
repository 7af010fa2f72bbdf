// One person, clean edge: the studio keeps only the customer (friends in a cropped group photo go) and the old
// background's colour leaves the edge. On real photographs of several people (src/testing/people.ts).
import sharp from 'sharp';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { measureEdge } from './test/edge-measure.js';
import { peopleCorpus, selfieCorpus, tightGroupCrop, type PersonPhoto } from '../testing/people.js';
import { drawBackdrop } from './backdrops.js';
import { createTestInference } from './test/inference.js';
import type { Box } from './inference/types.js';
import { customerRegion } from './person-mask.js';
import { decontaminate } from './edge-colour.js';
import { dropIslands } from './leftovers.js';
import { settleHoles } from './settle-holes.js';
import { renderDraft } from './render.js';
import { customerFace, nearestMiddle } from './test/faces.js';

const inference = createTestInference();
let people: PersonPhoto[];
afterAll(() => inference.close());
beforeAll(async () => {
  people = await peopleCorpus();
});

async function rgbOf(buffer: Buffer) {
  const { data, info } = await sharp(buffer).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width: info.width, height: info.height };
}

/**
 * The customer: the face nearest the crop's middle (a group crop is centred on its customer), with its roll:
 * the drafts level these crops' heads (0.08–0.26 rad), as the job does with the gate's face.
 */
function customerOf(photo: Buffer): Promise<Box & { roll: number }> {
  return customerFace(photo, inference);
}

test('two people side by side in the map: the one whose face is given is kept, the other dropped', () => {
  const size = 64;
  const map = new Uint8Array(size * size);
  // Two heads with bodies, touching at the shoulders (x 28–35), and a stray hand at the bottom right.
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const left = (x - 16) ** 2 + (y - 16) ** 2 < 64 || (y > 22 && x > 4 && x < 34);
      const right = (x - 48) ** 2 + (y - 16) ** 2 < 64 || (y > 22 && x > 30 && x < 60);
      const hand = x > 58 && y < 6;
      if (left || right || hand) map[y * size + x] = 230;
    }
  }
  const keep = customerRegion(map, size, { x: 10, y: 10, width: 12, height: 12 }, [{ x: 42, y: 10, width: 12, height: 12 }]);
  expect(keep[16 * size + 16]).toBe(255); // the customer's face
  expect(keep[50 * size + 10]).toBe(255); // the customer's body
  expect(keep[16 * size + 48]).toBe(0); // the friend's face
  expect(keep[50 * size + 55]).toBe(0); // the friend's body
  expect(keep[2 * size + 62]).toBe(0); // a hand nobody's face reaches
});

test('a friend whose face the detector cannot see (half out of the photo) is dropped by what lies beside the head', () => {
  const size = 64;
  const map = new Uint8Array(size * size);
  for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) if ((x - 30) ** 2 + (y - 20) ** 2 < 81 || (y > 28 && x > 14 && x < 46) || (x < 6 && y > 8)) map[y * size + x] = 230;
  const keep = customerRegion(map, size, { x: 24, y: 14, width: 12, height: 12 }, []);
  expect(keep[20 * size + 30]).toBe(255);
  expect(keep[12 * size + 2]).toBe(0);
});

test("a friend's body whose face is outside the map goes with the friend's pose; the customer's chest stays hers", () => {
  const size = 64;
  const map = new Uint8Array(size * size);
  // The customer's head and body on the left; a friend's shoulder and arm touch her on the right, their face
  // above the map (no face box reaches in, and nothing lies beside the customer's head).
  for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) if ((x - 24) ** 2 + (y - 14) ** 2 < 64 || (y > 20 && x > 8 && x < 60)) map[y * size + x] = 230;
  const main = { x: 18, y: 8, width: 12, height: 12 };
  const point = (x: number, y: number, score = 0.8) => ({ x, y, score });
  const none = point(0, 0, 0);
  const customer = { score: 0.6, keypoints: [point(24, 14), point(21, 12), point(27, 12), point(18, 13), point(30, 13), point(14, 24), point(34, 24), none, none, none, none, point(18, 60), point(30, 60), none, none, none, none] };
  const friend = { score: 0.4, keypoints: [point(52, -12), point(50, -14), point(54, -14), none, none, point(44, 24), point(60, 24), point(46, 44), none, point(52, 60), none, point(46, 63), point(58, 63), none, none, none, none] };
  const without = customerRegion(map, size, main, []);
  expect(without[40 * size + 52]).toBe(255); // without the poses the friend's arm stays: all one body
  const keep = customerRegion(map, size, main, [], [customer, friend]);
  expect(keep[14 * size + 24]).toBe(255); // her face
  expect(keep[40 * size + 24]).toBe(255); // her chest
  expect(keep[40 * size + 52]).toBe(0); // the friend's arm
  expect(keep[24 * size + 58]).toBe(0); // the friend's shoulder
  // Between them she fades out over a few pixels instead of ending in a cut.
  const seam = Array.from({ length: 20 }, (_, i) => keep[40 * size + 30 + i]!);
  expect(seam.some((value) => value > 0 && value < 255)).toBe(true);
});

test('a pose that joins a friend to the customer takes nothing from her chest', () => {
  const size = 64;
  const map = new Uint8Array(size * size);
  for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) if ((x - 32) ** 2 + (y - 14) ** 2 < 64 || (y > 20 && x > 16 && x < 48)) map[y * size + x] = 230;
  const point = (x: number, y: number, score = 0.8) => ({ x, y, score });
  const none = point(0, 0, 0);
  // The model's mistake: a head far to the side whose shoulder and hip lie on the customer's chest.
  const joined = { score: 0.3, keypoints: [point(70, 10), point(68, 8), point(72, 8), none, none, point(34, 30), point(40, 30), none, none, none, none, point(32, 50), point(38, 50), none, none, none, none] };
  const keep = customerRegion(map, size, { x: 26, y: 8, width: 12, height: 12 }, [], [joined]);
  for (const [x, y] of [[32, 30], [34, 40], [36, 50], [32, 60]] as const) expect(keep[y * size + x], `${x},${y}`).toBe(255);
});

test("the customer's upper arm stays hers beside a friend; a friend's arm reaching across below her elbow stays the friend's", () => {
  const size = 64;
  const map = new Uint8Array(size * size);
  // Her head and torso (x 22–42), her left arm hanging apart from the torso (x 15–19, joined at the shoulder
  // only, down to y 44); a friend pressed against that arm (x 0–14, face above the map) whose forearm reaches
  // across below her elbow (y 56–59) to her torso.
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const head = (x - 32) ** 2 + (y - 12) ** 2 < 49;
      const torso = y > 18 && x >= 22 && x <= 42;
      const shoulder = y > 18 && y < 24 && x >= 15 && x <= 42;
      const arm = y > 18 && y <= 44 && x >= 15 && x <= 19;
      const friend = x <= 14;
      const across = y >= 56 && y <= 59 && x <= 21;
      if (head || torso || shoulder || arm || friend || across) map[y * size + x] = 230;
    }
  }
  const main = { x: 26, y: 6, width: 12, height: 12 };
  const point = (x: number, y: number, score = 0.8) => ({ x, y, score });
  const none = point(0, 0, 0);
  // COCO order: nose, eyes, ears, shoulders, elbows, wrists, hips, knees, ankles.
  const customer = { score: 0.7, keypoints: [point(32, 13), point(30, 11), point(34, 11), none, none, point(17, 21), point(40, 21), point(17, 34), none, none, none, point(26, 55), point(38, 55), none, none, none, none] };
  const friend = { score: 0.5, keypoints: [point(7, -10), point(5, -12), point(9, -12), none, none, point(7, 14), none, point(7, 40), none, point(18, 57), none, point(7, 60), none, none, none, none, none] };
  const keep = customerRegion(map, size, main, [], [customer, friend]);
  expect(keep[12 * size + 32]).toBe(255); // her face
  expect(keep[40 * size + 32]).toBe(255); // her chest
  // Her arm is nearer the friend's body than her chest along the person region: hers by her pose (0 without
  // it), fading out towards the friend lower down.
  for (const y of [28, 36]) expect(keep[y * size + 17], `her arm at 17,${y}`).toBeGreaterThan(200);
  expect(keep[40 * size + 17], 'her arm at 17,40').toBeGreaterThan(0);
  expect(keep[30 * size + 6]).toBe(0); // the friend
  // The friend's forearm below her elbow, right under her arm's line: the friend's.
  for (const x of [12, 17, 19]) expect(keep[57 * size + x], `the friend's forearm at ${x},57`).toBe(0);
});

test("the customer's own body at the photo's side stays hers: an arm held out, a body turned to one side", () => {
  const size = 64;
  const point = (x: number, y: number, score = 0.8) => ({ x, y, score });
  const none = point(0, 0, 0);
  const main = { x: 26, y: 6, width: 12, height: 12 };
  const head = (x: number, y: number) => (x - 32) ** 2 + (y - 12) ** 2 < 49;

  // Her left arm held out to the photo's edge (elbow sure), further out than a shoulder and an upper arm.
  const armOut = new Uint8Array(size * size);
  for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) if (head(x, y) || (y > 18 && x >= 22 && x <= 42) || (y >= 23 && y <= 29 && x <= 22)) armOut[y * size + x] = 230;
  const reaching = { score: 0.7, keypoints: [point(32, 13), point(30, 11), point(34, 11), none, none, point(23, 21), point(41, 21), point(10, 26), none, none, none, point(26, 55), point(38, 55), none, none, none, none] };
  const keepArm = customerRegion(armOut, size, main, [], [reaching]);
  for (const x of [1, 4, 12]) expect(keepArm[26 * size + x], `her arm at ${x},26`).toBeGreaterThan(200);

  // Her forearm hanging down along the photo's edge from an elbow held out: the rows between elbow and wrist too.
  const alongEdge = new Uint8Array(size * size);
  for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) if (head(x, y) || (y > 18 && x >= 22 && x <= 42) || (y >= 21 && y <= 29 && x <= 22) || (y >= 26 && y <= 60 && x <= 6)) alongEdge[y * size + x] = 230;
  const hanging = { score: 0.7, keypoints: [point(32, 13), point(30, 11), point(34, 11), none, none, point(23, 21), point(41, 21), point(3, 26), none, point(3, 58), none, point(26, 55), point(38, 55), none, none, none, none] };
  const keepHanging = customerRegion(alongEdge, size, main, [], [hanging]);
  for (const y of [36, 43, 50]) expect(keepHanging[y * size + 1], `her forearm at 1,${y}`).toBeGreaterThan(200);

  // Turned: both shoulders right of her face's middle, her body running out of the photo on the right, but
  // no further out than her right shoulder and an upper arm's width.
  const turned = new Uint8Array(size * size);
  for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) if (head(x, y) || (y > 18 && x >= 30)) turned[y * size + x] = 230;
  const sideways = { score: 0.7, keypoints: [point(32, 13), point(30, 11), point(34, 11), none, none, point(36, 21), point(60, 21), none, none, none, none, none, none, none, none, none, none] };
  const keepTurned = customerRegion(turned, size, main, [], [sideways]);
  for (const y of [30, 50]) expect(keepTurned[y * size + 62], `her side at 62,${y}`).toBe(255);
});

/** Where (as fractions of the photo) the customer and her friends are in the group crops, marked by eye. */
const MARKED: Record<string, { customer: [number, number][]; friends: [number, number][] }> = {
  // The friend's dark hair beside the customer's head and her maroon top; the blonde friend's sleeve on the left.
  sample3: { customer: [[0.45, 0.3], [0.45, 0.6], [0.4, 0.85]], friends: [[0.72, 0.35], [0.85, 0.75], [0.1, 0.7]] },
  // The friend's jeans and arm on the left, the other friend's black sleeve on the right.
  sample4: { customer: [[0.55, 0.3], [0.5, 0.6], [0.55, 0.85]], friends: [[0.08, 0.9], [0.1, 0.45], [0.85, 0.65]] },
  // The striped dress on the right, the green dress on the left.
  sample6: { customer: [[0.5, 0.3], [0.55, 0.7], [0.5, 0.9]], friends: [[0.9, 0.8], [0.1, 0.85]] },
};

/**
 * Tighter crops (1.8 face widths), as a customer cuts a party photo until the gate takes it: no other face is
 * found, but friends' hair, a half face and a hand still enter at the photo's sides. Marked by eye.
 */
const TIGHT: Record<string, { customer: [number, number][]; friends: [number, number][] }> = {
  // The dark-haired friend's hair at the right edge; the blonde friend's curls at the left and her white sleeve
  // below them, beside the customer's shoulder.
  sample3: { customer: [[0.45, 0.3], [0.45, 0.75]], friends: [[0.92, 0.35], [0.03, 0.45], [0.03, 0.85]] },
  // The friend's wavy hair at the left edge, down to the bottom beside the customer's own dark hair.
  sample6: { customer: [[0.5, 0.35], [0.6, 0.85]], friends: [[0.04, 0.5], [0.03, 0.9]] },
  // Half of a friend's face at the right edge.
  sample5: { customer: [[0.45, 0.4], [0.5, 0.8]], friends: [[0.93, 0.6]] },
  // A friend's hand at the top right.
  sample2: { customer: [[0.5, 0.35], [0.5, 0.8]], friends: [[0.95, 0.3]] },
};

/**
 * Selfies (src/testing/people.ts selfieCorpus): the photo's sides lie 0.55–0.8 face widths from the face's middle.
 * Marked by eye: a friend's hair at the side at head height, and the customer's own hair beside her face.
 */
const SELFIES: Record<string, { customer: [number, number][]; friends: [number, number][] }> = {
  // The dark-haired friend's hair at the right edge, beside the blonde customer's ponytail.
  'sample3-selfie': { customer: [[0.5, 0.4], [0.78, 0.45], [0.4, 0.15]], friends: [[0.97, 0.3], [0.95, 0.7]] },
  // The friend's dark hair down the left edge; the customer's own hair beside her left cheek.
  // (Her friend's shoulder below, at the left edge, is still kept: belowBeside needs her own shoulder found.)
  'sample6-right-selfie': { customer: [[0.5, 0.4], [0.25, 0.5], [0.85, 0.5]], friends: [[0.03, 0.3], [0.05, 0.5]] },
};

/** customerRegion on the whole photo as its map, with the studio's own models' faces, poses and segmentation. */
async function regionOf(photo: Buffer, size = 256) {
  const small = await sharp(photo).resize(size, size, { fit: 'fill' }).removeAlpha().raw().toBuffer();
  const probabilities = await inference.segment({ data: new Uint8Array(small.buffer, small.byteOffset, small.byteLength), width: size, height: size });
  const image = await rgbOf(await sharp(photo).resize(1024, 1024, { fit: 'inside' }).jpeg().toBuffer());
  const [faces, poses] = await Promise.all([inference.detectFaces(image), inference.detectPoses(image)]);
  const toMap = (box: Box): Box => ({ x: (box.x * size) / image.width, y: (box.y * size) / image.height, width: (box.width * size) / image.width, height: (box.height * size) / image.height });
  const main = nearestMiddle(faces.map((face) => face.box), image.width, image.height)!;
  const others = faces.map((face) => face.box).filter((box) => box !== main);
  const posesInMap = poses.map((pose) => ({ score: pose.score, keypoints: pose.keypoints.map((k) => ({ x: (k.x * size) / image.width, y: (k.y * size) / image.height, score: k.score })) }));
  const keep = customerRegion(probabilities, size, toMap(main), others.map(toMap), posesInMap);
  return ([fx, fy]: [number, number]) => keep[Math.round(fy * (size - 1)) * size + Math.round(fx * (size - 1))]!;
}

/**
 * A person map with one hole the model was unsure about: a body (rows 20–63, columns 8–56) on a background of
 * `backdrop` colour, the body `body` colour, the hole (a disc around 40, 40 of radius 3, probability 110) `hole` colour.
 */
function holed(colours: { body: number[]; hole: number[]; backdrop: number[] }, at = { x: 40, y: 40 }) {
  const size = 64;
  const model = new Uint8Array(size * size);
  const rgb = new Uint8Array(size * size * 3);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const i = y * size + x;
      const body = y >= 20 && x >= 8 && x <= 56;
      const hole = (x - at.x) ** 2 + (y - at.y) ** 2 <= 9;
      model[i] = hole ? 110 : body ? 250 : 0;
      rgb.set(hole ? colours.hole : body ? colours.body : colours.backdrop, i * 3);
    }
  }
  return { size, model, probabilities: Uint8Array.from(model), keep: new Uint8Array(size * size).fill(255), rgb };
}

test('a hole the model left in the person becomes person or background, never half: by its colour, never in the face', () => {
  const face = { x: 20, y: 22, width: 12, height: 12 };
  const grey = [150, 150, 160];
  const white = [245, 245, 245];
  // A grey top with an unsure patch of the same grey: person.
  const top = holed({ body: grey, hole: [156, 154, 165], backdrop: white });
  settleHoles(top.probabilities, top.model, top.keep, top.rgb, top.size, face);
  expect(top.probabilities[40 * 64 + 40]).toBe(255);
  // Around it too: the model's doubt runs out around a hole, and would show as a faint ring.
  expect(top.probabilities[40 * 64 + 46]).toBe(255);
  // The room seen through a loop of hair (the colour of the background nearby): background.
  const loop = holed({ body: [120, 80, 50], hole: [40, 30, 70], backdrop: [45, 32, 72] }, { x: 14, y: 40 });
  settleHoles(loop.probabilities, loop.model, loop.keep, loop.rgb, loop.size, face);
  expect(loop.probabilities[40 * 64 + 14]).toBe(0);
  // The same in the face (dark glasses against a dark room): kept.
  const glasses = holed({ body: [190, 150, 130], hole: [40, 30, 70], backdrop: [45, 32, 72] }, { x: 26, y: 28 });
  settleHoles(glasses.probabilities, glasses.model, glasses.keep, glasses.rgb, glasses.size, face);
  expect(glasses.probabilities[28 * 64 + 26]).toBe(255);
  // A gap that reaches the photo's side is the background around the person: left as the model drew it.
  const open = holed({ body: grey, hole: grey, backdrop: white }, { x: 9, y: 40 });
  for (let x = 0; x < 8; x++) open.model[40 * 64 + x] = open.probabilities[40 * 64 + x] = 110;
  settleHoles(open.probabilities, open.model, open.keep, open.rgb, open.size, face);
  expect(open.probabilities[40 * 64 + 9]).toBe(110);
  // A friend's hand inside the customer's outline, taken away by customerRegion (the model is sure it is a person):
  // stays away.
  const hand = holed({ body: grey, hole: grey, backdrop: white });
  for (let y = 38; y <= 42; y++) {
    for (let x = 38; x <= 42; x++) {
      hand.model[y * 64 + x] = 250;
      hand.probabilities[y * 64 + x] = 0;
      hand.keep[y * 64 + x] = 0;
    }
  }
  settleHoles(hand.probabilities, hand.model, hand.keep, hand.rgb, hand.size, face);
  expect(hand.probabilities[40 * 64 + 40]).toBe(0);
  // A hole near the person's outline: its soft edge there stays soft (only the ring inside the person is raised).
  const edge = holed({ body: grey, hole: grey, backdrop: white }, { x: 13, y: 40 });
  for (let y = 20; y < 64; y++) for (const x of [8, 9]) edge.probabilities[y * 64 + x] = 200;
  settleHoles(edge.probabilities, edge.model, edge.keep, edge.rgb, edge.size, face);
  expect(edge.probabilities[40 * 64 + 13]).toBe(255);
  expect(edge.probabilities[40 * 64 + 8]).toBe(200);
  expect(edge.probabilities[40 * 64 + 9]).toBe(200);
  expect(edge.probabilities[40 * 64 + 17]).toBe(255);
  // Open only to the bottom: counts where the model saw some person in all of it, not where its middle is clear.
  for (const [middle, expected] of [[110, 255], [20, 20]] as const) {
    const bottom = holed({ body: grey, hole: grey, backdrop: white }, { x: 40, y: 62 });
    bottom.model[63 * 64 + 40] = bottom.probabilities[63 * 64 + 40] = middle;
    settleHoles(bottom.probabilities, bottom.model, bottom.keep, bottom.rgb, bottom.size, face);
    expect(bottom.probabilities[63 * 64 + 40], `middle ${middle}`).toBe(expected);
  }
});

test('a faint edge pixel with no person seen nearby is solved as at least 35 % person, not blown up', () => {
  // Orange hair at 13 % opacity before an orange wall (sample3): dividing by 0.13 gave no red at all.
  const rgb = Uint8Array.from([211, 150, 85]);
  decontaminate(rgb, Uint8Array.from([34]), Uint8Array.from([226, 180, 107]), Uint8Array.from([0, 0, 0]));
  expect([...rgb]).toEqual([183, 94, 44]);
});

test('decontamination leaves a pixel alone where no background was seen nearby (no light specks inside the person)', () => {
  const rgb = Uint8Array.from([120, 110, 100, 120, 110, 100]);
  const alpha = Uint8Array.from([230, 230]);
  const background = Uint8Array.from([0, 0, 0, 200, 200, 200]);
  const foreground = Uint8Array.from([120, 110, 100, 120, 110, 100]);
  decontaminate(rgb, alpha, background, foreground);
  expect([...rgb.subarray(0, 3)]).toEqual([120, 110, 100]);
  // With a background seen, its share is taken out (darker than the mix with a light background).
  expect(rgb[3]!).toBeLessThan(120);
});

test("on tight crops of party photos the friends' hair, half face and hand at the photo's sides go", { timeout: 120_000 }, async () => {
  for (const [name, marks] of Object.entries(TIGHT)) {
    const at = await regionOf(await tightGroupCrop(name));
    for (const mark of marks.customer) expect(at(mark), `${name}: customer at ${mark}`).toBe(255);
    for (const mark of marks.friends) expect(at(mark), `${name}: friend at ${mark}`).toBe(0);
  }
});

test("on tight selfies cut from party photos the friend's hair beside the customer's head goes, her own hair stays", { timeout: 120_000 }, async () => {
  const selfies = await selfieCorpus();
  for (const [name, marks] of Object.entries(SELFIES)) {
    const at = await regionOf(selfies.find((person) => person.name === name)!.photo);
    for (const mark of marks.customer) expect(at(mark), `${name}: customer at ${mark}`).toBe(255);
    for (const mark of marks.friends) expect(at(mark), `${name}: friend at ${mark}`).toBe(0);
  }
});

test('on real group crops the customer keeps her body and her friends lose theirs, poses included', { timeout: 120_000 }, async () => {
  for (const [name, marks] of Object.entries(MARKED)) {
    const at = await regionOf(people.find((person) => person.name === name)!.photo);
    for (const mark of marks.customer) expect(at(mark), `${name}: customer at ${mark}`).toBe(255);
    for (const mark of marks.friends) expect(at(mark), `${name}: friend at ${mark}`).toBe(0);
  }
});

test('no second face in any draft made from a cropped group photo', { timeout: 120_000 }, async () => {
  const groups = people.filter((person) => person.neighbours);
  expect(groups.length).toBeGreaterThanOrEqual(4);
  const faceCounts: Record<string, number> = {};
  for (const person of groups) {
    const face = await customerOf(person.photo);
    for (const format of ['portrait', 'square'] as const) {
      const draft = await renderDraft({ photo: person.photo, face, spec: { format, backdrop: { kind: 'studio', variant: 0 }, style: 'professional' }, inference });
      const found = (await inference.detectFaces(await rgbOf(draft.buffer))).filter((f) => f.score >= 0.5);
      faceCounts[`${person.name} ${format}`] = found.length;
    }
  }
  console.log('faces per draft', faceCounts);
  for (const [draft, count] of Object.entries(faceCounts)) expect(count, draft).toBe(1);
});

test('the blue screen leaves no blue rim around hair and shoulders', { timeout: 90_000 }, async () => {
  const franck = people.find((person) => person.name === 'franck')!;
  const face = await customerOf(franck.photo);
  for (const format of ['portrait', 'square'] as const) {
    const draft = await renderDraft({ photo: franck.photo, face, spec: { format, backdrop: { kind: 'studio', variant: 0 }, style: 'professional' }, inference, withMask: true });
    const { data, width, height } = await rgbOf(draft.buffer);
    // The band along his edge (test/edge-measure.ts): 2.6 % (4:5) and 6.3 % (1:1) of it the screen's colour or none of
    // his; 12 and 15 % without the edge steps (refine, decontaminate, despill, keepOwnColour).
    const edge = measureEdge({ output: data, backdrop: await drawBackdrop('studio', 0, width, height), photo: draft.mask!.photo, alpha: draft.mask!.alpha, segmented: draft.mask!.segmented, width, height });
    expect(edge.fringeShare, `${format}: rim`).toBeLessThan(0.08);
    let blue = 0;
    let atTop = 0;
    for (let p = 0; p < data.length; p += 3) {
      if (!(data[p + 2]! > data[p]! + 60 && data[p + 2]! > data[p + 1]! + 30 && data[p + 2]! > 140)) continue;
      if (p / 3 / width < height * 0.02) atTop++;
      else blue++;
    }
    // Measured: 0.6–1.0 % of the pixels before the edge was cleaned (a rim all round the head), 0.003 % after.
    expect(blue / (width * height), format).toBeLessThan(0.0005);
    // His face fills 78 % of the photo: the tight square (framing.ts) cuts through the top of his hair, and the
    // screen between the strands at the frame's top border has no background beside it in the frame to be
    // estimated from (0.074 % of the square's pixels, all in its top 16 rows). A known fault (issue 54's note);
    // the plan gives such a photo no square while another photo can.
    expect(atTop / (width * height), format).toBeLessThan(0.001);
  }
});

test('leftovers apart from the person go with their faint edge; the person and a large separate piece stay', () => {
  const width = 200;
  const height = 200;
  const alpha = new Uint8Array(width * height);
  const fill = (x0: number, y0: number, x1: number, y1: number, value: number) => {
    for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) alpha[y * width + x] = value;
  };
  fill(60, 40, 140, 200, 255); // the person
  fill(58, 40, 60, 200, 30); // the person's faint edge
  fill(10, 10, 20, 20, 255); // a patch of the old wall: 0.25 % of the picture
  fill(8, 8, 22, 10, 20); // its faint edge
  fill(160, 120, 200, 180, 255); // an arm apart from the body: 6 %
  const cleared = dropIslands(alpha, width, height);
  expect(alpha[15 * width + 15]).toBe(0);
  expect(alpha[9 * width + 15]).toBe(0);
  expect(alpha[100 * width + 100]).toBe(255);
  expect(alpha[100 * width + 59]).toBe(30);
  expect(alpha[150 * width + 180]).toBe(255);
  expect(cleared).toBeCloseTo((100 + 28) / (width * height), 6);
  // Nothing left to clear the second time.
  expect(dropIslands(alpha, width, height)).toBe(0);
});
