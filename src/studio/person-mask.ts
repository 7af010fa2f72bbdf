// From the segmentation model's "person" probabilities to the one customer: the model marks every person in
// the picture, and friends in a cropped party photo touch the customer with hair, shoulders and arms. Each
// person pixel belongs to the face it is nearest to along the person region (a geodesic distance, measured in
// face heights, so a large face near the camera reaches further than a small one behind it); what belongs to
// another face, or to no face at all (a stray hand, a body whose face lies outside the frame), is dropped.
// Bodies count too: the pose model's skeletons (shoulders, arms, hips; body-seeds.ts) seed their owner's region,
// so a friend's arm across the customer's side or a shoulder whose face is turned away goes with the friend, and
// the customer's own arms stay with the customer. Where the customer's region meets someone else's, it fades out
// over a short ramp instead of ending in a cut.
// Pure functions on small square masks; render.ts scales the result to the output.
import { besideTheHead } from './beside-the-head.js';
import { bodySeeds } from './body-seeds.js';
import type { Box, Pose } from './inference/types.js';
import { PERSON_LEVEL } from './person-level.js';

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
