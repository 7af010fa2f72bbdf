// The colour of the cut-out's edge: the old background taken out of the mixed pixels (decontaminate), its tint out
// of the rim (suppressSpill), and the rim kept near the person's own colour (keepOwnColour).

/** The alpha blurred narrowly (`band`) at or above this: inside the person, away from the edge refineEdge works on. */
export const BAND_SOLID = 250;
/** The alpha blurred widely (`interior`) at or above this: well inside the person, where the person's own colour is read. */
export const INTERIOR_SOLID = 252;

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
 * What colour of the old background is left in the rim after the edge is refined: a pixel near the edge that is
 * more tinted towards the old background's colour than the person nearby loses that extra tint (the classic
 * despill of blue and green screens, here against whatever the background was).
 */
export function suppressSpill(rgb: Uint8Array, interior: Buffer, background: Uint8Array, foreground: Uint8Array): void {
  for (let i = 0, p = 0; i < interior.length; i++, p += 3) {
    if (interior[i] === 0 || interior[i]! >= INTERIOR_SOLID) continue;
    const bMean = (background[p]! + background[p + 1]! + background[p + 2]!) / 3;
    const cR = background[p]! - bMean;
    const cG = background[p + 1]! - bMean;
    const cB = background[p + 2]! - bMean;
    const chroma = Math.sqrt(cR * cR + cG * cG + cB * cB);
    if (chroma < 12) continue;
    // The old background's tint in the pixel beyond the person's own (each colour less its grey, along the tint).
    const r = rgb[p]!;
    const g = rgb[p + 1]!;
    const b = rgb[p + 2]!;
    const mean = (r + g + b) / 3;
    const fr = foreground[p]!;
    const fg = foreground[p + 1]!;
    const fb = foreground[p + 2]!;
    // No person seen nearby (the estimate is 0): the pixel's whole tint would count as spill, and orange hair
    // before an orange wall would turn purple.
    if (fr === 0 && fg === 0 && fb === 0) continue;
    const fMean = (fr + fg + fb) / 3;
    const excess = ((r - mean) * cR + (g - mean) * cG + (b - mean) * cB - ((fr - fMean) * cR + (fg - fMean) * cG + (fb - fMean) * cB)) / chroma;
    if (excess <= 0) continue;
    const k = excess / chroma;
    const nr = r - k * cR;
    const ng = g - k * cG;
    const nb = b - k * cB;
    rgb[p] = nr < 0 ? 0 : nr > 255 ? 255 : Math.round(nr);
    rgb[p + 1] = ng < 0 ? 0 : ng > 255 ? 255 : Math.round(ng);
    rgb[p + 2] = nb < 0 ? 0 : nb > 255 ? 255 : Math.round(nb);
  }
}

/**
 * How far the rim's colour may stray from the person's own colour nearby: in tint (RGB distance of the colour less
 * its grey) and in lightness. Strands keep their light and dark; a tint the person has nowhere near goes.
 */
const RIM_TINT = 24;
const RIM_LIGHT = 70;

/**
 * The rim keeps the person's own colour: along the edge (`band` below BAND_SOLID, or see-through), a pixel whose
 * tint or lightness strays far from the person's colour nearby (`foreground`) is brought back within RIM_TINT and
 * RIM_LIGHT of it.
 * What decontamination cannot tell apart is left here: an orange wall taken out too hard leaves a blue line on dark
 * hair, lamp light behind the head a pale or orange rim, a friend's blonde hair a yellow one (issue 54's fringes).
 */
export function keepOwnColour(rgb: Uint8Array, alpha: Uint8Array, band: Buffer, foreground: Uint8Array): void {
  for (let i = 0, p = 0; i < alpha.length; i++, p += 3) {
    // Along the mask as it came, and wherever the edge's estimate took opacity away (a strand before a wall of
    // its own colour can be well inside the mask as it came).
    if (alpha[i] === 0 || (alpha[i] === 255 && band[i]! >= BAND_SOLID)) continue;
    const fr = foreground[p]!;
    const fg = foreground[p + 1]!;
    const fb = foreground[p + 2]!;
    if (fr === 0 && fg === 0 && fb === 0) continue;
    const fMean = (fr + fg + fb) / 3;
    const r = rgb[p]!;
    const g = rgb[p + 1]!;
    const b = rgb[p + 2]!;
    const mean = (r + g + b) / 3;
    let dr = r - mean - (fr - fMean);
    let dg = g - mean - (fg - fMean);
    let db = b - mean - (fb - fMean);
    const tint = Math.sqrt(dr * dr + dg * dg + db * db);
    const light = Math.max(fMean - RIM_LIGHT, Math.min(fMean + RIM_LIGHT, mean));
    if (tint <= RIM_TINT && light === mean) continue;
    if (tint > RIM_TINT) {
      const k = RIM_TINT / tint;
      dr *= k;
      dg *= k;
      db *= k;
    }
    const nr = light + fr - fMean + dr;
    const ng = light + fg - fMean + dg;
    const nb = light + fb - fMean + db;
    rgb[p] = nr < 0 ? 0 : nr > 255 ? 255 : Math.round(nr);
    rgb[p + 1] = ng < 0 ? 0 : ng > 255 ? 255 : Math.round(ng);
    rgb[p + 2] = nb < 0 ? 0 : nb > 255 ? 255 : Math.round(nb);
  }
}
