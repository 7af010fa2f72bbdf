// Where the photo ends inside a draft's frame (a frame wider than the photo, a turned photo's corners), the person
// fades out instead of ending in a cut.

/** Share of the output's shorter side over which the person fades out where the photo ends inside the frame. */
const PHOTO_EDGE_FADE = 0.12;
/**
 * The same at the photo's top edge: the head seldom reaches it, but hair a little below it (the astronaut's,
 * Franck's: 3 to 6 % of the photo) faded over the full ramp showed as a see-through band over the head.
 */
const PHOTO_TOP_FADE = 0.02;

/**
 * Zero outside the photo, and a smooth ramp inside each of its edges that shows in the output (a photo edge
 * that runs along the output's own border, or outside it, shows nothing and needs none). `corners`: the
 * photo's corners in output pixels, clockwise from the top left; turned when the photo was levelled.
 */
export function fadeOutsidePhoto(alpha: Buffer, width: number, height: number, corners: { x: number; y: number }[]): void {
  const edges = corners.map((a, i) => {
    const b = corners[(i + 1) % corners.length]!;
    const length = Math.hypot(b.x - a.x, b.y - a.y) || 1;
    // Inward normal: the corners go clockwise on screen (y down).
    const nx = -(b.y - a.y) / length;
    const ny = (b.x - a.x) / length;
    // The photo's top edge (the first) only just above the hair: a long fade there dims the top of the head.
    const ramp = Math.max(1, Math.min(width, height) * (i === 0 ? PHOTO_TOP_FADE : PHOTO_EDGE_FADE));
    return { nx, ny, offset: -(nx * a.x + ny * a.y), visible: crossesInterior(a, b, width, height), ramp };
  });
  for (let y = 0; y < height; y++) {
    // Each edge's distance is linear along the row: the pixels at least a ramp inside every visible edge (and
    // inside the others) form one run, which keeps its alpha as it is.
    let from = 0;
    let to = width;
    for (const edge of edges) {
      const need = edge.visible ? edge.ramp : 0;
      const base = edge.ny * (y + 0.5) + edge.offset - need;
      // nx·(x + 0.5) + base >= 0
      if (Math.abs(edge.nx) < 1e-9) {
        if (base < 0) to = from;
      } else if (edge.nx > 0) from = Math.max(from, Math.ceil(-base / edge.nx - 0.5));
      else to = Math.min(to, Math.floor(-base / edge.nx - 0.5) + 1);
    }
    for (let x = 0; x < width; x++) {
      if (x === from && to > from) x = to;
      if (x >= width) break;
      if (alpha[y * width + x] === 0) continue;
      let inside = Infinity;
      for (const edge of edges) {
        const distance = edge.nx * (x + 0.5) + edge.ny * (y + 0.5) + edge.offset;
        if (distance < 0) {
          inside = 0;
          break;
        }
        if (edge.visible) inside = Math.min(inside, distance / edge.ramp);
      }
      if (inside >= 1) continue;
      const i = y * width + x;
      // Smoothstep: no visible line where the ramp begins.
      alpha[i] = Math.round(alpha[i]! * inside * inside * (3 - 2 * inside));
    }
  }
}

/** Whether the segment a–b passes through the output's interior (more than a pixel inside its border). */
function crossesInterior(a: { x: number; y: number }, b: { x: number; y: number }, width: number, height: number): boolean {
  // Liang–Barsky clipping against the rectangle shrunk by one pixel.
  let t0 = 0;
  let t1 = 1;
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  for (const [p, q] of [
    [-dx, a.x - 1],
    [dx, width - 1 - a.x],
    [-dy, a.y - 1],
    [dy, height - 1 - a.y],
  ] as const) {
    if (p === 0) {
      if (q < 0) return false;
      continue;
    }
    const t = q / p;
    if (p < 0) t0 = Math.max(t0, t);
    else t1 = Math.min(t1, t);
    if (t0 > t1) return false;
  }
  return true;
}
