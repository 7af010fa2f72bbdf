// From the segmentation model's "person" probabilities to the one customer: the model marks every person in
// the picture, and friends in a cropped party photo touch the customer with hair, shoulders and arms. Each
// person pixel belongs to the face it is nearest to along the person region (a geodesic distance, measured in
// face heights, so a large face near the camera reaches further than a small one behind it); what belongs to
// another face, or to no face at all (a stray hand, a body whose face lies outside the frame), is dropped.
// Bodies count too: the pose model's skeletons (shoulders, arms, hips) seed their owner's region, so a friend's
// arm across the customer's side or a shoulder whose face is turned away goes with the friend, and the
// customer's own arms stay with the customer. Where the customer's region meets someone else's, it fades out
// over a short ramp instead of ending in a cut.
// Pure functions on small square masks; render.ts scales the result to the output.
import type { Box, Keypoint, Pose } from './inference/types.js';
import { growColumns, pieces } from './mask-pieces.js';

/** A probability at or above this (0–255) counts as person for the connectivity. */
const PERSON_LEVEL = 96;

/** How far (map pixels) the customer's region reaches into the model's soft fringe below PERSON_LEVEL. */
const FRINGE = 4;

/**
 * Keep-mask (0–255) over a `size` × `size` probability map: 255 on the person pixels nearest to `main` (boxes
 * in the map's pixels; other faces may lie partly or wholly outside the map) and the soft fringe around them,
 * 0 on everyone else. Multiply the probabilities by it.
 */
export function customerRegion(
  probabilities: Uint8Array,
  size: number,
  main: Box,
  others: readonly Box[],
  poses: readonly Pose[] = [],
  /** Per map row, the columns the photo covers (the frame may reach beyond the photo); the whole row if not given. */
  photoRows?: readonly { from: number; to: number }[],
): Uint8Array {
  // A face far outside the map has no body in it worth claiming (and seeding the edge for it could take the
  // customer's own hair there).
  const near = others.filter((f) => f.x + f.width * 1.5 > 0 && f.x - f.width * 0.5 < size && f.y + f.height * 1.5 > 0 && f.y - f.height * 0.5 < size);
  const bodies = bodySeeds(probabilities, size, main, poses, photoRows);
  const faces = [main, ...near];
  const distances = faces.map((face, f) => geodesicDistances(probabilities, size, f === 0 ? [...seedsOfFace(face, size), ...bodies.customer] : seedsOfFace(face, size)));
  // Other people's bodies, measured in the customer's face heights (people side by side stand at about the same distance).
  for (const seeds of bodies.others) {
    faces.push(main);
    distances.push(geodesicDistances(probabilities, size, seeds));
  }
  // Someone whose face the detector missed (half out of the picture): person pixels beside the customer's head,
  // further out than hair reaches and above the shoulders, belong to another person.
  const beside = besideTheHead(probabilities, size, main, photoRows);
  if (beside.length) {
    faces.push(main);
    distances.push(geodesicDistances(probabilities, size, beside));
  }
  const CUSTOMER = 2;
  const OTHER = 1;
  const owner = new Uint8Array(size * size);
  for (let i = 0; i < owner.length; i++) {
    let best = Infinity;
    let who = 0;
    for (let f = 0; f < faces.length; f++) {
      const d = distances[f]![i]! / Math.max(1, faces[f]!.height);
      // Ties go to the customer: only someone else who is strictly nearer takes a pixel.
      if (d < best || (d === best && f === 0)) {
        best = d;
        who = f === 0 ? CUSTOMER : OTHER;
      }
    }
    // Person pixels no face reaches (a hand or a body whose face is not in the picture) are someone else's.
    owner[i] = Number.isFinite(best) ? who : probabilities[i]! >= PERSON_LEVEL ? OTHER : 0;
  }
  // The customer's region grows FRINGE pixels into the background (not into anyone else), so the model's soft
  // edge of hair and shoulders survives the cut.
  const keep = new Uint8Array(size * size);
  let frontier: number[] = [];
  for (let i = 0; i < owner.length; i++) {
    if (owner[i] === CUSTOMER) {
      keep[i] = 255;
      frontier.push(i);
    }
  }
  for (let step = 0; step < FRINGE && frontier.length; step++) {
    const next: number[] = [];
    for (const i of frontier) {
      const x = i % size;
      for (const j of [x > 0 ? i - 1 : -1, x < size - 1 ? i + 1 : -1, i - size, i + size]) {
        if (j < 0 || j >= keep.length || keep[j] || owner[j] === OTHER) continue;
        keep[j] = 255;
        next.push(j);
      }
    }
    frontier = next;
  }
  fadeTowardsOthers(keep, owner, size, OTHER);
  return keep;
}

/** Over this many map pixels the customer fades out where someone else's region begins (about 2 % of the frame). */
const SEAM = 5;

/**
 * Where the customer's region touches another person's, a straight seam through one body would show as a cut:
 * the customer's pixels within SEAM of someone else's fade out towards them, as a figure leaving the light would.
 */
function fadeTowardsOthers(keep: Uint8Array, owner: Uint8Array, size: number, other: number): void {
  const steps = new Int32Array(size * size).fill(-1);
  let frontier: number[] = [];
  for (let i = 0; i < owner.length; i++) {
    if (owner[i] === other) {
      steps[i] = 0;
      frontier.push(i);
    }
  }
  for (let step = 1; step <= SEAM && frontier.length; step++) {
    const next: number[] = [];
    for (const i of frontier) {
      const x = i % size;
      for (const j of [x > 0 ? i - 1 : -1, x < size - 1 ? i + 1 : -1, i - size, i + size]) {
        if (j < 0 || j >= steps.length || steps[j] !== -1) continue;
        steps[j] = step;
        next.push(j);
        if (keep[j]) keep[j] = Math.min(keep[j]!, Math.round((255 * step) / (SEAM + 1)));
      }
    }
    frontier = next;
  }
}

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
function bodySeeds(probabilities: Uint8Array, size: number, main: Box, poses: readonly Pose[], photoRows?: readonly { from: number; to: number }[]): { customer: number[]; others: number[][] } {
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

/** Horizontal reach of the customer's hair from the face's centre, in widths of the detector's face box (which takes in the forehead). */
const HAIR_REACH = 1.05;
/**
 * Nearer than that, hair at the photo's side edge (at head height) is still someone else's: a customer's own
 * hair ends inside the photo, while a friend cropped away at the side enters it there. Half a face width is the
 * face box's own edge: a tight selfie's sides lie 0.55–0.8 face widths out, where 0.75 (until issue 54) kept a
 * friend's hair beside the head in the drafts and let the upload gate pass the photo (of seven selfies cut from
 * party photos with a friend at the side it warned one; three at 0.5, and the drafts of those lose the friend's
 * hair). The four selfies of people alone and Franck's render the same at both. The upload gate's side check
 * measures with the same reach (GATE.maxOtherPersonAtSide, calibrated with 0.75, holds at 0.5: its single
 * portraits, turned ±15°, measure at most 0.131).
 */
export const EDGE_REACH = 0.5;
/** Below the face's top, in face heights, where the shoulders begin (above it, only head and hair). */
const SHOULDER_LINE = 1.1;
/**
 * The mouth, in face heights below the face box's top: above it beside the face only hair, below it the
 * shoulders may reach the photo's edge (the upload gate's side check looks at the rows above it too).
 */
export const MOUTH_LINE = 0.75;

function besideTheHead(probabilities: Uint8Array, size: number, main: Box, photoRows?: readonly { from: number; to: number }[]): number[] {
  const centre = main.x + main.width / 2;
  const bottom = Math.min(size, Math.floor(main.y + main.height * SHOULDER_LINE));
  const mouth = main.y + main.height * MOUTH_LINE;
  const seeds: number[] = [];
  for (let y = 0; y < bottom; y++) {
    const row = photoRows?.[y] ?? { from: 0, to: size - 1 };
    for (let x = Math.max(0, row.from); x <= Math.min(size - 1, row.to); x++) {
      const i = y * size + x;
      if (probabilities[i]! < PERSON_LEVEL) continue;
      const away = Math.abs(x - centre);
      // Only beside the face, above the mouth: lower down, the customer's own shoulders reach the edge.
      const atEdge = y < mouth && (x - row.from < 2 || row.to - x < 2);
      if (away > HAIR_REACH * main.width || (atEdge && away > EDGE_REACH * main.width)) seeds.push(i);
    }
  }
  return seeds;
}

/**
 * The middle of a face: always the face's own, whatever the model says about skin at its edge. A face outside
 * the map is seeded on the map's edge next to it: that is where its neck and shoulders come in.
 */
function seedsOfFace(face: Box, size: number): number[] {
  const clamp = (value: number) => Math.max(0, Math.min(size - 1, value));
  const x0 = clamp(Math.floor(face.x + face.width * 0.25));
  const x1 = clamp(Math.ceil(face.x + face.width * 0.75));
  const y0 = clamp(Math.floor(face.y + face.height * 0.25));
  const y1 = clamp(Math.ceil(face.y + face.height * 0.75));
  const seeds: number[] = [];
  for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) seeds.push(y * size + x);
  return seeds;
}

/** Steps (4-neighbour) from the seeds through person pixels; Infinity where they cannot reach. */
function geodesicDistances(probabilities: Uint8Array, size: number, seeds: readonly number[]): Float32Array {
  const distance = new Float32Array(size * size).fill(Infinity);
  const queue = new Int32Array(size * size);
  let head = 0;
  let tail = 0;
  for (const i of seeds) {
    if (distance[i] === 0) continue;
    distance[i] = 0;
    queue[tail++] = i;
  }
  while (head < tail) {
    const i = queue[head++]!;
    const x = i % size;
    const next = distance[i]! + 1;
    for (const j of [x > 0 ? i - 1 : -1, x < size - 1 ? i + 1 : -1, i - size, i + size]) {
      if (j < 0 || j >= distance.length || distance[j] !== Infinity || probabilities[j]! < PERSON_LEVEL) continue;
      distance[j] = next;
      queue[tail++] = j;
    }
  }
  return distance;
}

/** Below this opacity an edge pixel takes the person's colour nearby instead of a solved one. */
const FAINT = 0.35;

/** An opacity (0–255) that decontaminate() solves for: a mix of person and background, neither almost clear nor almost solid. */
export function isMixed(alpha: number): boolean {
  return alpha / 255 > 0.02 && alpha / 255 < 0.98;
}

/**
 * Colour decontamination of a soft edge: an edge pixel is a mix of the person and the old background,
 * I = a·F + (1 − a)·B. B is estimated from the background around it (a wide blur of the pixels the mask
 * calls background, `background` holding that blur's colour per pixel, `foreground` the same for the person);
 * solving for F removes the blue screen
 * or green foliage that would otherwise show as a halo around hair and shoulders on the new backdrop.
 */
export function decontaminate(rgb: Uint8Array, alpha: Uint8Array, background: Uint8Array, foreground: Uint8Array): void {
  for (let i = 0, p = 0; i < alpha.length; i++, p += 3) {
    if (!isMixed(alpha[i]!)) continue;
    // No background seen nearby (the estimate is 0 there): nothing to take out. Solving against black would only
    // brighten the pixel (light specks inside the person where the model was a little unsure).
    if (!background[p] && !background[p + 1] && !background[p + 2]) continue;
    const a = alpha[i]! / 255;
    if (a < FAINT && (foreground[p]! || foreground[p + 1]! || foreground[p + 2]!)) {
      // Too faint to solve for (the division would blow up noise into bright specks): the person's colour nearby.
      rgb[p] = foreground[p]!;
      rgb[p + 1] = foreground[p + 1]!;
      rgb[p + 2] = foreground[p + 2]!;
      continue;
    }
    // With no person's colour nearby either (a strand far out, where the edge's estimate took the mask's
    // opacity away), solved as if at least FAINT: dividing by a smaller share turned orange hair before an orange
    // wall purple (issue 54's lavender halo).
    const solid = Math.max(a, FAINT);
    for (let c = 0; c < 3; c++) {
      const value = (rgb[p + c]! - (1 - solid) * background[p + c]!) / solid;
      rgb[p + c] = value < 0 ? 0 : value > 255 ? 255 : Math.round(value);
    }
  }
}

/**
 * Per row of a size × size map, the columns inside a convex polygon (the photo, perhaps turned), clamped to the
 * map; a row the polygon misses gets an empty span (from > to).
 */
export function rowSpans(polygon: { x: number; y: number }[], size: number): { from: number; to: number }[] {
  return Array.from({ length: size }, (_, row) => {
    const y = row + 0.5;
    let from = Infinity;
    let to = -Infinity;
    for (let i = 0; i < polygon.length; i++) {
      const a = polygon[i]!;
      const b = polygon[(i + 1) % polygon.length]!;
      if ((a.y <= y && b.y > y) || (b.y <= y && a.y > y)) {
        const x = a.x + ((y - a.y) / (b.y - a.y)) * (b.x - a.x);
        from = Math.min(from, x);
        to = Math.max(to, x);
      }
    }
    return { from: Math.max(0, Math.ceil(from - 0.5)), to: Math.min(size - 1, Math.floor(to - 0.5)) };
  });
}

/** Below this (0–255) a pixel of the customer's map may belong to a hole. */
const HOLE_LEVEL = 160;
/** A hole larger than this share of the map is left as the model drew it (a gap between arm and body). */
const MAX_HOLE_SHARE = 0.01;
/**
 * How far around a hole (map pixels), through the person, the person's colour is read (and, for a hole that
 * becomes person, made fully person too: the model's doubt runs out around it).
 */
const HOLE_RING = 6;
/** How far beyond a hole's bounding box (map pixels) the photo's background is looked for, for its colour. */
const HOLE_REACH = 24;
/** A hole open to the map's bottom counts only if none of it is below this. */
const OPEN_HOLE_FLOOR = 64;
/** The model's own probability below which a pixel is background for the colour comparison. */
const BACKGROUND_LEVEL = 32;

/**
 * Holes in the customer's map: places the model was unsure about inside the person (a blurred top, a bright
 * highlight), enclosed on all sides by the customer. Left as they are, they show as half-transparent discs with
 * a rim of the new backdrop. Each becomes the person (opaque) or the background (clear), never half: background
 * only where its colour is much nearer the photo's background close by than the person around it (the room seen
 * through a loop of hair), and never in the face.
 * `probabilities`: the customer's map (changed in place); `model`: the model's own map (others included); `keep`:
 * customerRegion's keep-mask (a place someone else's, or the seam towards them, is no hole of the customer's);
 * `rgb`: the frame at the map's size, 3 bytes a pixel.
 */
export function settleHoles(probabilities: Uint8Array, model: Uint8Array, keep: Uint8Array, rgb: Uint8Array, size: number, face: Box): void {
  const seen = new Uint8Array(size * size);
  const maxArea = Math.round(size * size * MAX_HOLE_SHARE);
  for (let start = 0; start < probabilities.length; start++) {
    if (seen[start] || probabilities[start]! >= HOLE_LEVEL) continue;
    // The hole's pixels (4-connected below HOLE_LEVEL); one that reaches the map's border is background.
    const hole: number[] = [start];
    seen[start] = 1;
    let border = false;
    let bottom = false;
    let others = false;
    let least = 255;
    for (let k = 0; k < hole.length; k++) {
      const i = hole[k]!;
      const x = i % size;
      least = Math.min(least, probabilities[i]!);
      if (keep[i]! < 255) others = true;
      if (x === 0 || x === size - 1 || i < size) border = true;
      if (i >= size * (size - 1)) bottom = true;
      for (const j of [x > 0 ? i - 1 : -1, x < size - 1 ? i + 1 : -1, i - size, i + size]) {
        if (j < 0 || j >= probabilities.length || seen[j] || probabilities[j]! >= HOLE_LEVEL) continue;
        seen[j] = 1;
        hole.push(j);
      }
    }
    // One open only to the bottom (the body goes on below the frame) counts where the model saw some person
    // in all of it: a real gap between arm and body is clear in its middle.
    // Someone else's hand inside the customer's outline was taken away on purpose: not a hole.
    if (others || border || hole.length > maxArea || (bottom && least < OPEN_HOLE_FLOOR)) continue;
    // The person around it: HOLE_RING steps out through the person (not across the background beyond).
    const inHole = new Set(hole);
    const ring = new Set<number>();
    let frontier = hole;
    for (let step = 0; step < HOLE_RING; step++) {
      const next: number[] = [];
      for (const i of frontier) {
        const x = i % size;
        for (const j of [x > 0 ? i - 1 : -1, x < size - 1 ? i + 1 : -1, i - size, i + size]) {
          if (j < 0 || j >= probabilities.length || inHole.has(j) || ring.has(j) || probabilities[j]! < HOLE_LEVEL) continue;
          ring.add(j);
          next.push(j);
        }
      }
      frontier = next;
    }
    const mean = (pixels: Iterable<number>) => {
      let n = 0;
      const sum = [0, 0, 0];
      for (const i of pixels) {
        n++;
        for (let c = 0; c < 3; c++) sum[c]! += rgb[i * 3 + c]!;
      }
      return n ? sum.map((v) => v / n) : null;
    };
    const holeColour = mean(hole)!;
    const personColour = mean(ring)!;
    // The photo's background close by (the model's own map: other people are not background).
    let x0 = size;
    let x1 = 0;
    let y0 = size;
    let y1 = 0;
    for (const i of hole) {
      x0 = Math.min(x0, i % size);
      x1 = Math.max(x1, i % size);
      y0 = Math.min(y0, Math.floor(i / size));
      y1 = Math.max(y1, Math.floor(i / size));
    }
    const near: number[] = [];
    for (let y = Math.max(0, y0 - HOLE_REACH); y <= Math.min(size - 1, y1 + HOLE_REACH); y++) {
      for (let x = Math.max(0, x0 - HOLE_REACH); x <= Math.min(size - 1, x1 + HOLE_REACH); x++) if (model[y * size + x]! < BACKGROUND_LEVEL) near.push(y * size + x);
    }
    const backgroundColour = near.length >= 10 ? mean(near) : null;
    const distance = (a: number[], b: number[]) => Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!);
    const inFace = hole.some((i) => {
      const x = i % size;
      const y = Math.floor(i / size);
      return x >= face.x && x < face.x + face.width && y >= face.y && y < face.y + face.height;
    });
    const background = !inFace && backgroundColour !== null && distance(holeColour, backgroundColour) < 0.5 * distance(holeColour, personColour);
    for (const i of hole) probabilities[i] = background ? 0 : 255;
    if (background) continue;
    // The ring becomes solid too, except near the person's own outline (a low pixel outside the hole within two
    // steps): there the soft edge stays soft.
    for (const i of ring) {
      const x = i % size;
      const y = Math.floor(i / size);
      let outline = false;
      for (let dy = -2; dy <= 2 && !outline; dy++) {
        for (let dx = Math.abs(dy) - 2; dx <= 2 - Math.abs(dy); dx++) {
          const nx = x + dx;
          const ny = y + dy;
          if (nx < 0 || ny < 0 || nx >= size || ny >= size) continue;
          const j = ny * size + nx;
          if (!inHole.has(j) && probabilities[j]! < HOLE_LEVEL) {
            outline = true;
            break;
          }
        }
      }
      if (!outline) probabilities[i] = 255;
    }
  }
}

/** A piece of the mask apart from the person smaller than this share of the picture is a leftover, not a limb. */
const MAX_ISLAND_SHARE = 0.01;
/** Opacity (0–255) from which a pixel is a piece's core by default; fainter pixels are the feather around a core. */
const ISLAND_LEVEL = 64;
/** How far (share of the width) the feather reaches from a core it belongs to. */
const HALO_REACH = 1 / 150;

/**
 * Leftovers of the old picture: pieces of the mask not joined to the person's (the largest piece) and smaller than
 * MAX_ISLAND_SHARE of the picture (a patch of a wall, a flag's corner, a speck the model was unsure of) become
 * clear, and so does the faint feather around them: a pixel fainter than ISLAND_LEVEL stays only near a piece
 * that stays. A larger separate piece stays (an arm seen apart from the body). In place; returns the share cleared.
 */
export function dropIslands(alpha: Uint8Array, width: number, height: number, level: number = ISLAND_LEVEL, scratch: Uint8Array = new Uint8Array(width * height)): number {
  const found = pieces(alpha, width, height, level);
  if (found.largest === -1) return 0;
  const limit = alpha.length * MAX_ISLAND_SHARE;
  const keeps = (piece: number) => piece === found.largest || found.sizes[piece]! >= limit;
  // Where a kept piece reaches, widened by the feather's reach (a square).
  const reach = Math.max(2, Math.round(width * HALO_REACH));
  const near = scratch;
  near.fill(0);
  let cleared = 0;
  for (let run = 0; run < found.piece.length; run++) {
    const offset = found.row[run]! * width;
    if (keeps(found.piece[run]!)) {
      near.fill(1, offset + Math.max(0, found.from[run]! - reach), offset + Math.min(width, found.to[run]! + reach));
    } else {
      alpha.fill(0, offset + found.from[run]!, offset + found.to[run]!);
      cleared += found.to[run]! - found.from[run]!;
    }
  }
  growColumns(near, width, height, reach);
  for (let i = 0; i < alpha.length; i++) {
    if (alpha[i] === 0 || alpha[i]! >= level || near[i]) continue;
    alpha[i] = 0;
    cleared++;
  }
  return cleared / alpha.length;
}

