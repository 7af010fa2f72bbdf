// The edge of the cut-out: where the mask runs a little outside the person, the old background is estimated around
// every edge pixel, the pixel's opacity re-estimated from the colours and filtered along the photo's own edges, and
// the colours cleaned of the old background (edge-colour.ts).
import sharp from 'sharp';
import { BAND_SOLID, INTERIOR_SOLID, decontaminate, isMixed, keepOwnColour, suppressSpill } from './edge-colour.js';
import { guidedFilter } from './guided-filter.js';
import { blurScratch, maskedBlur, type BlurScratch } from './masked-blur.js';

/**
 * The old background leaves the edge (no blue or green halo on the new backdrop): where the mask runs a
 * little outside the hair, pixels of the old background's colour become transparent, and the colour of
 * the mixed pixels that remain is cleaned of it.
 * `frameRgb` (the frame, 3 bytes a pixel) and `alpha` (the draft's opacity) change in place; `near` is scratch.
 */
export async function cleanEdge(frameRgb: Buffer, alpha: Buffer, width: number, height: number, near: Uint8Array): Promise<void> {
  const rgb = new Uint8Array(frameRgb.buffer, frameRgb.byteOffset, frameRgb.byteLength);
  const alphaPixels = new Uint8Array(alpha.buffer, alpha.byteOffset, alpha.byteLength);
  const [band, interior] = await Promise.all(
    [300, 60].map((share) => sharp(alpha, { raw: { width, height, channels: 1 } }).blur(Math.max(2, width / share)).extractChannel(0).raw().toBuffer()),
  );
  // The colour estimates are read only near the edge: where refineEdge, decontaminate and suppressSpill look.
  near.fill(0);
  for (let i = 0; i < near.length; i++) {
    const a = alpha[i]!;
    const inner = interior![i]!;
    if ((a > 0 && band![i]! < BAND_SOLID) || isMixed(a) || (inner > 0 && inner < INTERIOR_SOLID)) near[i] = 1;
  }
  // One after the other on the same scratch images: a draft's render rose about 5 MB less than with both at once.
  const scratch = blurScratch(width, height);
  const background = await maskedBlur(frameRgb, width, height, { where: alpha, atMost: 26 }, near, scratch);
  // The person's colour from well inside the mask: the rim may still be the old background.
  const foreground = await maskedBlur(frameRgb, width, height, { where: interior!, atLeast: INTERIOR_SOLID }, near, scratch);
  await nearerColour(foreground, frameRgb, alpha, band!, width, height, near, scratch);
  refineAndFilterEdge(rgb, alphaPixels, background, foreground, band!, width, height);
  decontaminate(rgb, alphaPixels, background, foreground);
  suppressSpill(rgb, interior!, background, foreground);
  keepOwnColour(rgb, alphaPixels, band!, foreground);
}

/**
 * Where no pixel well inside the person lies within the estimate's reach (the crown of a head whose hair is a thin
 * arc above the forehead; a shoulder cut by the frame), the person's colour is read nearer the edge: from the pixels
 * that are solid with all their near neighbours (`band` at BAND_SOLID or above). Without it the edge's steps had
 * no colour of the person there: the estimate took the hair for the old background, the guided filter brought a
 * third of it back, and the solve turned that third into a pale yellow line along the top of the hair (issue 54,
 * sample3's selfie). `missing` is the pixels the estimates were read for; it is overwritten.
 */
async function nearerColour(foreground: Uint8Array, rgb: Buffer, alpha: Buffer, band: Buffer, width: number, height: number, missing: Uint8Array, scratch: BlurScratch): Promise<void> {
  let any = false;
  for (let i = 0, p = 0; i < missing.length; i++, p += 3) {
    const unseen = missing[i] === 1 && alpha[i]! > 0 && foreground[p] === 0 && foreground[p + 1] === 0 && foreground[p + 2] === 0;
    missing[i] = unseen ? 1 : 0;
    any ||= unseen;
  }
  if (!any) return;
  const nearer = await maskedBlur(rgb, width, height, { where: band, atLeast: BAND_SOLID }, missing, scratch);
  for (let i = 0, p = 0; i < missing.length; i++, p += 3) {
    if (!missing[i]) continue;
    foreground[p] = nearer[p]!;
    foreground[p + 1] = nearer[p + 1]!;
    foreground[p + 2] = nearer[p + 2]!;
  }
}

/**
 * The edge's guided filter: its window's radius as a share of the output's width (12 px on a 1200 px portrait),
 * the regularisation (larger: softer where the photo's edge is faint) and the solve's scale. Tried on the contact
 * sheets: a 1/150 radius with 1e-4 and 1e-3 left more ragged strands on the party photos' hair than this, which
 * keeps the astronaut's curls and Hopper's cap as they were.
 */
const EDGE_FILTER_RADIUS = 1 / 100;
const EDGE_FILTER_EPSILON = 3e-3;
const EDGE_FILTER_STEP = 4;

/** Person and old background must differ by at least this much (RGB distance) for the edge to be re-estimated. */
const MIN_CONTRAST = 40;

/** Person and old background this far apart (RGB distance) or more: the edge's estimate from their colours is sure. */
const SURE_CONTRAST = 100;

/**
 * The edge's opacity from the colours (refineEdge), then through the guided filter (guided-filter.ts): the
 * per-pixel estimate is noisy where hair and the old background look alike (ragged, with specks), and the filter
 * makes it follow the photo's own edges and turns it soft where the photo has none. The filter may lower the
 * opacity anywhere but raise it only where the estimate was unsure: where person and old background differ
 * clearly (skin against a bright window, hair against a blue screen) what the estimate took away stays away, or
 * it would come back as a light or coloured rim on a dark backdrop. Nowhere above the mask as it came.
 */
export function refineAndFilterEdge(rgb: Uint8Array, alpha: Uint8Array, background: Uint8Array, foreground: Uint8Array, band: Uint8Array, width: number, height: number): void {
  const ceiling = Uint8Array.from(alpha);
  refineEdge(rgb, alpha, background, foreground, band, ceiling);
  alpha.set(guidedFilter(rgb, alpha, width, height, { radius: width * EDGE_FILTER_RADIUS, epsilon: EDGE_FILTER_EPSILON, step: EDGE_FILTER_STEP, atMost: ceiling }));
}

/**
 * Near the mask's edge (`band`: the alpha blurred, below BAND_SOLID), a pixel's own alpha follows from where its colour
 * lies between the person's colour nearby and the old background's: a = (I − B)·(F − B) / |F − B|². The mask
 * only ever loses opacity here, never gains it, so a wrong estimate cannot bring the old background back.
 * `ceiling` gets how high the opacity may go again: the estimate where it is sure, the mask's where it is not.
 */
function refineEdge(rgb: Uint8Array, alpha: Uint8Array, background: Uint8Array, foreground: Uint8Array, band: Uint8Array, ceiling: Uint8Array): void {
  for (let i = 0, p = 0; i < alpha.length; i++, p += 3) {
    if (alpha[i] === 0 || band[i]! >= BAND_SOLID) continue;
    const bR = background[p]!;
    const bG = background[p + 1]!;
    const bB = background[p + 2]!;
    const fR = foreground[p]! - bR;
    const fG = foreground[p + 1]! - bG;
    const fB = foreground[p + 2]! - bB;
    const contrast = fR * fR + fG * fG + fB * fB;
    if ((bR === 0 && bG === 0 && bB === 0) || contrast < MIN_CONTRAST * MIN_CONTRAST) continue;
    const a = ((rgb[p]! - bR) * fR + (rgb[p + 1]! - bG) * fG + (rgb[p + 2]! - bB) * fB) / contrast;
    const estimate = Math.max(0, Math.min(255, Math.round(a * 1.15 * 255)));
    if (estimate < alpha[i]!) {
      const sure = Math.min(1, (Math.sqrt(contrast) - MIN_CONTRAST) / (SURE_CONTRAST - MIN_CONTRAST));
      ceiling[i] = Math.round(estimate + (alpha[i]! - estimate) * (1 - sure));
      alpha[i] = estimate;
    }
  }
}
