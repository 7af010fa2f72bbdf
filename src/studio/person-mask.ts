// From the segmentation model's "person" probabilities to the one customer: the model marks every person in
// the picture, and friends in a cropped party photo touch the customer with hair, shoulders and arms. Each
// person pixel belongs to the face it is nearest to along the person region (a geodesic distance, measured in
// face heights, so a large face near the camera reaches further than a small one behind it); what belongs to
// another face, or to no face at all (a stray hand, a body whose face lies outside the frame), is dropped.
// Pure functions on small square masks; render.ts scales the result to the output.
import type { Box } from './inference/types.js';

/** A probability at or above this (0–255) counts as person for the connectivity. */
const PERSON_LEVEL = 96;

/** How far (map pixels) the customer's region reaches into the model's soft fringe below PERSON_LEVEL. */
const FRINGE = 4;

/**
 * Keep-mask (0–255) over a `size` × `size` probability map: 255 on the person pixels nearest to `main` (boxes
 * in the map's pixels; other faces may lie partly or wholly outside the map) and the soft fringe around them,
 * 0 on everyone else. Multiply the probabilities by it.
 */
export function customerRegion(probabilities: Uint8Array, size: number, main: Box, others: readonly Box[]): Uint8Array {
  // A face far outside the map has no body in it worth claiming (and seeding the edge for it could take the
  // customer's own hair there).
  const near = others.filter((f) => f.x + f.width * 1.5 > 0 && f.x - f.width * 0.5 < size && f.y + f.height * 1.5 > 0 && f.y - f.height * 0.5 < size);
  const faces = [main, ...near];
  const distances = faces.map((face) => geodesicDistances(probabilities, size, seedsOfFace(face, size)));
  // Someone whose face the detector missed (half out of the picture): person pixels beside the customer's head,
  // further out than hair reaches and above the shoulders, belong to another person.
  const beside = besideTheHead(probabilities, size, main);
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
      if (d < best) {
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
  return keep;
}

/** Horizontal reach of the customer's hair from the face's centre, in widths of the detector's face box (which takes in the forehead). */
const HAIR_REACH = 1.05;
/** Below the face's top, in face heights, where the shoulders begin (above it, only head and hair). */
const SHOULDER_LINE = 1.1;

function besideTheHead(probabilities: Uint8Array, size: number, main: Box): number[] {
  const centre = main.x + main.width / 2;
  const bottom = Math.min(size, Math.floor(main.y + main.height * SHOULDER_LINE));
  const seeds: number[] = [];
  for (let y = 0; y < bottom; y++) {
    for (let x = 0; x < size; x++) {
      if (Math.abs(x - centre) > HAIR_REACH * main.width && probabilities[y * size + x]! >= PERSON_LEVEL) seeds.push(y * size + x);
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

/**
 * Colour decontamination of a soft edge: an edge pixel is a mix of the person and the old background,
 * I = a·F + (1 − a)·B. B is estimated from the background around it (a wide blur of the pixels the mask
 * calls background, `background` holding that blur's colour per pixel, `foreground` the same for the person);
 * solving for F removes the blue screen
 * or green foliage that would otherwise show as a halo around hair and shoulders on the new backdrop.
 */
export function decontaminate(rgb: Uint8Array, alpha: Uint8Array, background: Uint8Array, foreground: Uint8Array): void {
  for (let i = 0, p = 0; i < alpha.length; i++, p += 3) {
    const a = alpha[i]! / 255;
    if (a <= 0.02 || a >= 0.98) continue;
    if (a < FAINT && (foreground[p]! || foreground[p + 1]! || foreground[p + 2]!)) {
      // Too faint to solve for (the division would blow up noise into bright specks): the person's colour nearby.
      rgb[p] = foreground[p]!;
      rgb[p + 1] = foreground[p + 1]!;
      rgb[p + 2] = foreground[p + 2]!;
      continue;
    }
    for (let c = 0; c < 3; c++) {
      const value = (rgb[p + c]! - (1 - a) * background[p + c]!) / a;
      rgb[p + c] = value < 0 ? 0 : value > 255 ? 255 : Math.round(value);
    }
  }
}
