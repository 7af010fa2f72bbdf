// Seeds from the pose model's skeletons for the customer's region and everyone else's (person-mask.ts): the
// customer's own body and arms stay the customer's, a friend's arm or shoulder goes with the friend.
import { MOUTH_LINE } from './beside-the-head.js';
import type { Box, Keypoint, Pose } from './inference/types.js';
import { PERSON_LEVEL } from './person-level.js';

/** The skeleton the pose model draws: head, arms, torso and legs as pairs of COCO body points. */
const BONES: readonly [number, number][] = [
  [0, 1], [0, 2], [1, 3], [2, 4], [5, 6], [5, 7], [7, 9], [6, 8], [8, 10], [5, 11], [6, 12], [11, 12], [11, 13], [13, 15], [12, 14], [14, 16],
];
const HEAD_POINTS = [0, 1, 2, 3, 4];
/** A body point the model is at least this sure of counts. */
const SURE = 0.3;

/**
 * Seeds from the pose model's skeletons (points in map pixels) and from where bodies stand: below their heads.
 * The customer's pose is the one whose head lies in the customer's face. The customer's seed runs from the face
 * down between the shoulders and the hips the model is sure of, and on straight down to the map's edge (so the
 * chest stays the customer's even where the model found no body). Everyone else's sure bones seed their own
 * region, and so does a line down from their head; what falls in the customer's column (within about a face
 * width of the customer's middle) is left out, as the model sometimes joins a friend's knee to the customer's
 * shoulder. A pose without a sure head counts as someone else only where the customer's own pose was found.
 */
export function bodySeeds(probabilities: Uint8Array, size: number, main: Box, poses: readonly Pose[], photoRows?: readonly { from: number; to: number }[]): { customer: number[]; others: number[][] } {
  const inFace = (point: { x: number; y: number }, grow: number) =>
    point.x > main.x - main.width * grow && point.x < main.x + main.width * (1 + grow) && point.y > main.y - main.height * grow && point.y < main.y + main.height * (1 + grow);
  const head = (pose: Pose) => centre(HEAD_POINTS.map((k) => pose.keypoints[k]!));
  const own = [...poses].filter((pose) => { const h = head(pose); return h !== null && inFace(h, 0.1); }).sort((a, b) => b.score - a.score)[0] ?? null;
  const middle = { x: main.x + main.width / 2, y: main.y + main.height / 2 };
  // The customer's own sure bones (shoulders, arms) and a line down from each sure shoulder along the upper arm.
  const customer = [...bodyLine(middle, own, size), ...(own ? ownArms(own, size, main) : [])];
  const column = main.width * 0.75;
  const isPerson = (i: number) => probabilities[i]! >= PERSON_LEVEL;
  const others = poses
    .filter((pose) => {
      if (pose === own) return false;
      const h = head(pose);
      return h ? !inFace(h, 0.1) : own !== null;
    })
    .map((pose) => {
      const h = head(pose);
      const seeds = new Set(bonePixels(pose, size));
      if (h) for (const i of bodyLine(h, pose, size)) seeds.add(i);
      return [...seeds].filter((i) => isPerson(i) && Math.abs((i % size) - middle.x) > column && !inFace({ x: i % size, y: Math.floor(i / size) }, 0.15));
    })
    .filter((seeds) => seeds.length > 0);
  const below = own ? belowBeside(probabilities, size, main, own, photoRows) : [];
  if (below.length) others.push(below);
  return { customer: customer.filter(isPerson), others };
}

/** An upper arm's length below the shoulder, in face-box heights: where the line down from a shoulder ends without a sure elbow or hip. */
const UPPER_ARM = 1.5;

/**
 * The pose's sure bones and a line from each sure shoulder straight down along the upper arm: to the height
 * of that side's sure elbow, or else its sure hip, or else an upper arm's length (UPPER_ARM). Not further: a
 * friend's arm reaching across below the customer's elbow stays the friend's.
 */
function ownArms(pose: Pose, size: number, main: Box): number[] {
  const pixels = new Set(bonePixels(pose, size));
  for (const [shoulderIndex, elbowIndex, hipIndex] of [[5, 7, 11], [6, 8, 12]] as const) {
    const shoulder = pose.keypoints[shoulderIndex]!;
    if (shoulder.score < SURE) continue;
    const elbow = pose.keypoints[elbowIndex]!;
    const hip = pose.keypoints[hipIndex]!;
    const end = elbow.score >= SURE && elbow.y > shoulder.y ? elbow.y : hip.score >= SURE && hip.y > shoulder.y ? hip.y : shoulder.y + UPPER_ARM * main.height;
    line(shoulder, { x: shoulder.x, y: Math.min(size - 1, end) }, size, pixels);
  }
  return [...pixels];
}

/** Beyond the customer's shoulder by this share of the face box's width, the outer edge of the upper arm ends. */
const ARM_REACH = 0.3;

/**
 * Someone else entering at the photo's side below the customer's head: person pixels on the photo's side edge,
 * below the mouth, further out than the customer's sure shoulder on that side and the upper arm's width beyond it.
 * A side whose shoulder the pose model did not find keeps everything (the shoulder may run out of the photo),
 * and so do the rows where the customer's own sure elbow or wrist lies out there (an arm held out).
 */
function belowBeside(probabilities: Uint8Array, size: number, main: Box, own: Pose, photoRows?: readonly { from: number; to: number }[]): number[] {
  const centre = main.x + main.width / 2;
  const mouth = Math.max(0, Math.ceil(main.y + main.height * MOUTH_LINE));
  const shoulders = [own.keypoints[5]!, own.keypoints[6]!].filter((shoulder) => shoulder.score >= SURE).sort((a, b) => a.x - b.x);
  // Which side a shoulder is on: by the two shoulders' order where both were found (a body turned to one side
  // can have both on one side of the face), else by the face's middle.
  const sides = shoulders.map((shoulder, i) => ({ shoulder, left: shoulders.length === 2 ? i === 0 : shoulder.x < centre }));
  // Her arms' sure elbow and wrist (COCO: 7 and 9 one arm, 8 and 10 the other).
  const arms = [[7, 9], [8, 10]].map((joints) => joints.map((k) => own.keypoints[k]!).filter((point) => point.score >= SURE));
  const seeds: number[] = [];
  for (const { shoulder, left } of sides) {
    const limit = left ? shoulder.x - ARM_REACH * main.width : shoulder.x + ARM_REACH * main.width;
    // The rows an arm held out beyond the limit spans: from its highest to its lowest joint out there (a forearm
    // sloping to the photo's edge included), and HELD_OUT face heights either side.
    const heldOut = arms
      .map((joints) => joints.filter((point) => (left ? point.x < limit : point.x > limit)).map((point) => point.y))
      .filter((ys) => ys.length > 0)
      .map((ys) => ({ from: Math.min(...ys) - HELD_OUT * main.height, to: Math.max(...ys) + HELD_OUT * main.height }));
    for (let y = Math.max(mouth, Math.ceil(shoulder.y)); y < size; y++) {
      if (heldOut.some((span) => y > span.from && y < span.to)) continue;
      const row = photoRows?.[y] ?? { from: 0, to: size - 1 };
      if (row.from > row.to) continue;
      for (const x of left ? [row.from, row.from + 1] : [row.to, row.to - 1]) {
        if (x < 0 || x >= size || (left ? x >= limit : x <= limit)) continue;
        if (probabilities[y * size + x]! >= PERSON_LEVEL) seeds.push(y * size + x);
      }
    }
  }
  return seeds;
}

/** Above and below the joints of an arm held out beyond the shoulder, this many face heights of rows are still her arm's. */
const HELD_OUT = 0.5;

/**
 * From a head down: between the pose's shoulders and its hips where the model is sure of both, then straight
 * down to the map's edge.
 */
function bodyLine(from: { x: number; y: number }, pose: Pose | null, size: number): number[] {
  const k = pose?.keypoints;
  const both = (a: number, b: number) => (k && k[a]!.score >= SURE && k[b]!.score >= SURE ? { x: (k[a]!.x + k[b]!.x) / 2, y: (k[a]!.y + k[b]!.y) / 2 } : null);
  const chain = [from, both(5, 6), both(11, 12)].filter((point): point is { x: number; y: number } => point !== null && point.y >= from.y);
  const last = chain[chain.length - 1]!;
  chain.push({ x: last.x, y: size - 1 });
  const pixels = new Set<number>();
  for (let i = 0; i + 1 < chain.length; i++) line(chain[i]!, chain[i + 1]!, size, pixels);
  return [...pixels];
}

/** The middle of the sure points among these, or null. */
function centre(points: readonly Keypoint[]): { x: number; y: number } | null {
  const sure = points.filter((point) => point.score >= SURE);
  if (!sure.length) return null;
  return { x: sure.reduce((sum, p) => sum + p.x, 0) / sure.length, y: sure.reduce((sum, p) => sum + p.y, 0) / sure.length };
}

function line(p: { x: number; y: number }, q: { x: number; y: number }, size: number, into: Set<number>): void {
  const steps = Math.max(1, Math.ceil(Math.hypot(q.x - p.x, q.y - p.y)));
  for (let s = 0; s <= steps; s++) {
    const x = Math.round(p.x + ((q.x - p.x) * s) / steps);
    const y = Math.round(p.y + ((q.y - p.y) * s) / steps);
    if (x >= 0 && x < size && y >= 0 && y < size) into.add(y * size + x);
  }
}

/** The map pixels along a pose's sure bones (and its sure points), inside the map. */
function bonePixels(pose: Pose, size: number): number[] {
  const pixels = new Set<number>();
  for (const point of pose.keypoints) if (point.score >= SURE) line(point, point, size, pixels);
  for (const [a, b] of BONES) {
    const p = pose.keypoints[a]!;
    const q = pose.keypoints[b]!;
    if (p.score >= SURE && q.score >= SURE) line(p, q, size, pixels);
  }
  return [...pixels];
}
