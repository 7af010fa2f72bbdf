// How the studio sets a tilted head level: the angle a photo is turned by, and where a point of it lands then.
// The drafts (render.ts) and the upload check's look at the photo's sides (quality-gate.ts) share it, so the
// check sees the photo as the drafts will.
import { GATE, LEVEL_MIN_ROLL } from './thresholds.js';

/**
 * The angle (radians, for sharp's turn) that sets a face of this roll level: none below LEVEL_MIN_ROLL, and none
 * above the gate's warning limit, where the pose is taken as meant (and warned about).
 */
export function levellingAngle(roll: number): number {
  return Math.abs(roll) < LEVEL_MIN_ROLL || Math.abs(roll) > GATE.maxRoll ? 0 : -roll;
}

/**
 * An image of `size` turned by `angle` as sharp turns it (clockwise on screen, about its centre, the canvas
 * grown to hold every corner): the canvas's size (sharp's own, where known) and where a point lands on it.
 */
export function turned(size: { width: number; height: number }, angle: number, canvas?: { width: number; height: number }) {
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  const width = canvas?.width ?? Math.abs(size.width * cos) + Math.abs(size.height * sin);
  const height = canvas?.height ?? Math.abs(size.width * sin) + Math.abs(size.height * cos);
  return {
    width,
    height,
    point(p: { x: number; y: number }) {
      const dx = p.x - size.width / 2;
      const dy = p.y - size.height / 2;
      return { x: width / 2 + dx * cos - dy * sin, y: height / 2 + dx * sin + dy * cos };
    },
  };
}
