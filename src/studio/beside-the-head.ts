// Someone whose face the detector missed (half out of the picture): person pixels beside the customer's head,
// further out than hair reaches, seed another person's region (person-mask.ts). The upload gate's side check
// (quality-gate.ts) measures with the same reach.
import type { Box } from './inference/types.js';
import { PERSON_LEVEL } from './person-level.js';

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

export function besideTheHead(probabilities: Uint8Array, size: number, main: Box, photoRows?: readonly { from: number; to: number }[]): number[] {
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
