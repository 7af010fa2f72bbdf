// Leftovers of the old picture in a draft's opacity: see-through ghosts beside the person and islands apart from it.
import { growColumns, pieces, within } from './mask-pieces.js';

/**
 * A see-through zone wider than an edge is no edge: what the model was unsure of beside the person (a friend's
 * dark hair behind her shoulder, kept at a quarter opacity) showed as a grey ghost on the new backdrop (issue 54's
 * "ragged smear over a shoulder"). Opacity below GHOST_SOLID further than GHOST_REACH (a share of the width) from
 * any pixel at GHOST_SOLID or more goes. Before the photo's edges fade the person out on purpose.
 */
const GHOST_SOLID = 200;
const GHOST_REACH = 1 / 100;

export function dropGhosts(alpha: Uint8Array, width: number, height: number, scratch: Uint8Array = new Uint8Array(width * height)): void {
  const near = within(alpha, GHOST_SOLID, width, height, Math.max(2, Math.round(width * GHOST_REACH)), scratch);
  for (let i = 0; i < alpha.length; i++) if (near[i] === 0 && alpha[i]! > 0 && alpha[i]! < GHOST_SOLID) alpha[i] = 0;
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
