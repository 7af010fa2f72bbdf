// Two operations on a draft's opacity that every draft runs over all its pixels (1.8 MP for a 4:5 draft): the
// connected pieces of what is opaque, and where something lies within a distance. Both work row by row, in the
// order the pixels are stored: a flood fill per pixel and a pass down each column took about a fifth of a draft's
// render (issue 54: 4:5 drafts at 1.4 s on a slower machine, against a target of 1 s).

/** The pieces of a mask: its runs (pixels at or above a level, side by side in a row), joined across rows. */
export interface Pieces {
  /** Per run: its row, its first column, and one past its last. */
  row: Int32Array;
  from: Int32Array;
  to: Int32Array;
  /** Per run: the piece it belongs to (an index into `sizes`). */
  piece: Int32Array;
  /** Per piece: its pixels. */
  sizes: number[];
  /** The piece with the most pixels, or -1 where nothing reaches the level. */
  largest: number;
}

/**
 * The 8-connected pieces of the pixels at or above `level`: runs per row, a run joined to each run of the row
 * above that it touches or meets at a corner (union-find over runs, not pixels).
 */
export function pieces(mask: Uint8Array, width: number, height: number, level: number): Pieces {
  let count = 0;
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) if (mask[row + x]! >= level && (x === 0 || mask[row + x - 1]! < level)) count++;
  }
  const row = new Int32Array(count);
  const from = new Int32Array(count);
  const to = new Int32Array(count);
  const parent = new Int32Array(count);
  const find = (run: number) => {
    while (parent[run] !== run) {
      parent[run] = parent[parent[run]!]!;
      run = parent[run]!;
    }
    return run;
  };
  let runs = 0;
  let above = 0;
  for (let y = 0; y < height; y++) {
    const first = runs;
    const offset = y * width;
    for (let x = 0; x < width; ) {
      if (mask[offset + x]! < level) {
        x++;
        continue;
      }
      const start = x;
      while (x < width && mask[offset + x]! >= level) x++;
      row[runs] = y;
      from[runs] = start;
      to[runs] = x;
      parent[runs] = runs;
      runs++;
    }
    // Runs of this row against the row above's, both in order: joined where they touch, corners included.
    let a = first;
    let b = above;
    while (a < runs && b < first) {
      if (from[a]! <= to[b]! && from[b]! <= to[a]!) {
        const ra = find(a);
        const rb = find(b);
        if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
      }
      if (to[a]! < to[b]!) a++;
      else b++;
    }
    above = first;
  }
  const piece = new Int32Array(count);
  const index = new Int32Array(count).fill(-1);
  const sizes: number[] = [];
  for (let run = 0; run < count; run++) {
    const root = find(run);
    if (index[root] === -1) {
      index[root] = sizes.length;
      sizes.push(0);
    }
    piece[run] = index[root]!;
    sizes[piece[run]!]! += to[run]! - from[run]!;
  }
  let largest = -1;
  for (let p = 0; p < sizes.length; p++) if (largest === -1 || sizes[p]! > sizes[largest]!) largest = p;
  return { row, from, to, piece, sizes, largest };
}

/**
 * Grows a mask by `reach` pixels up and down, in place: call it on a mask already grown along its rows (where
 * it is 1) to grow it in a square (Chebyshev) neighbourhood. Row by row, with a count per column of the mask's
 * pixels within reach; the pixels it adds get the value 2 (the mask's own keep theirs, 1 or 3), so the count
 * reads only the mask's own.
 */
export function growColumns(mask: Uint8Array, width: number, height: number, reach: number): void {
  const count = new Int32Array(width);
  for (let y = 0; y < Math.min(height, reach); y++) {
    const offset = y * width;
    for (let x = 0; x < width; x++) count[x]! += mask[offset + x]! & 1;
  }
  for (let y = 0; y < height; y++) {
    if (y + reach < height) {
      const offset = (y + reach) * width;
      for (let x = 0; x < width; x++) count[x]! += mask[offset + x]! & 1;
    }
    if (y - reach - 1 >= 0) {
      const offset = (y - reach - 1) * width;
      for (let x = 0; x < width; x++) count[x]! -= mask[offset + x]! & 1;
    }
    const offset = y * width;
    for (let x = 0; x < width; x++) if (count[x]! > 0) mask[offset + x]! |= 2;
  }
}

/**
 * `into` (width × height) non-zero where a pixel of `source` at or above `level` lies within `reach` pixels in
 * every direction (a square neighbourhood), zero elsewhere.
 */
export function within(source: Uint8Array, level: number, width: number, height: number, reach: number, into: Uint8Array): Uint8Array {
  into.fill(0);
  for (let y = 0; y < height; y++) {
    const offset = y * width;
    // A sliding count of the row's pixels at the level within reach.
    let count = 0;
    for (let x = 0; x < Math.min(width, reach); x++) if (source[offset + x]! >= level) count++;
    for (let x = 0; x < width; x++) {
      if (x + reach < width && source[offset + x + reach]! >= level) count++;
      if (x - reach - 1 >= 0 && source[offset + x - reach - 1]! >= level) count--;
      if (count > 0) into[offset + x] = 1;
    }
  }
  growColumns(into, width, height, reach);
  return into;
}
