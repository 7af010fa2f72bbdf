// The light retouch a portrait studio gives every picture, on the person only: skin smoothed gently where the
// face is, and the style's look (colour temperature, contrast, saturation). Exposure and white balance come
// first (tone.ts). Everything is mild by design: the customer must still recognise their own skin.
import sharp from 'sharp';
import type { BaseStyle } from '../domain/catalog.js';
import type { Box } from './inference/types.js';

/**
 * Skin smoothing by frequency bands: the fine band (pores, fine hair, eyelashes; below SKIN_FINE) and the
 * coarse band (the face's shape and light; above SKIN_COARSE) stay; the middle band (blotches, uneven
 * redness, shadows of small wrinkles) is reduced by up to SKIN_STRENGTH. Strong middle-band structure
 * (eyes, brows, lips, nostrils: above SKIN_EDGE levels) is kept, so features never blur. Sigmas are shares
 * of the face's width, so a close-up and a wide bust are treated alike.
 */
const SKIN_FINE = 1 / 250;
const SKIN_COARSE = 1 / 35;
const SKIN_STRENGTH = 0.7;
const SKIN_EDGE = 30;

/**
 * Where skin is smoothed: an ellipse in the face box grown by this much (the forehead up to the hairline, the chin).
 * Hair is often skin-coloured; kept out of this area, its strands stay as photographed.
 */
const SKIN_AREA = { x: 0.04, top: 0.1, bottom: 0.08 };

/**
 * Smooths the skin of the face in place. `rgb`: the person, 3 bytes a pixel; `alpha`: the person mask;
 * `face`: the main face in these pixels.
 */
export async function smoothSkin(rgb: Uint8Array, alpha: Uint8Array, width: number, height: number, face: Box): Promise<void> {
  // Only the skin area changes (and the soft weight's blur beyond it); the blurs read a margin of three sigmas
  // around it, so the work is done on that crop, not on the whole output (a 1200 × 1500 draft's face is a
  // tenth of it).
  const margin = Math.ceil(3 * (Math.max(0.5, face.width * SKIN_COARSE) + Math.max(1, face.width / 100))) + 2;
  const left = Math.max(0, Math.floor(face.x - face.width * SKIN_AREA.x) - margin);
  const right = Math.min(width, Math.ceil(face.x + face.width * (1 + SKIN_AREA.x)) + margin);
  const top = Math.max(0, Math.floor(face.y - face.height * SKIN_AREA.top) - margin);
  const bottom = Math.min(height, Math.ceil(face.y + face.height * (1 + SKIN_AREA.bottom)) + margin);
  if (right <= left || bottom <= top) return;
  const w = right - left;
  const h = bottom - top;
  const part = new Uint8Array(w * h * 3);
  const partAlpha = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    part.set(rgb.subarray(((top + y) * width + left) * 3, ((top + y) * width + right) * 3), y * w * 3);
    partAlpha.set(alpha.subarray((top + y) * width + left, (top + y) * width + right), y * w);
  }
  await smoothSkinWhole(part, partAlpha, w, h, { ...face, x: face.x - left, y: face.y - top });
  for (let y = 0; y < h; y++) rgb.set(part.subarray(y * w * 3, (y + 1) * w * 3), ((top + y) * width + left) * 3);
}

/** The smoothing over the whole picture given (smoothSkin gives it only the crop around the face; exported for its test). */
export async function smoothSkinWhole(rgb: Uint8Array, alpha: Uint8Array, width: number, height: number, face: Box): Promise<void> {
  const raw = { raw: { width, height, channels: 3 as const } };
  const input = Buffer.from(rgb.buffer, rgb.byteOffset, rgb.byteLength);
  const [fine, coarse] = await Promise.all(
    [SKIN_FINE, SKIN_COARSE].map((share) => sharp(input, raw).blur(Math.max(0.5, face.width * share)).raw().toBuffer()),
  );
  const weight = skinWeight(rgb, alpha, width, height, face);
  const soft = await sharp(weight, { raw: { width, height, channels: 1 } })
    .blur(Math.max(1, face.width / 100))
    .extractChannel(0)
    .raw()
    .toBuffer();
  for (let i = 0, p = 0; i < soft.length; i++, p += 3) {
    const w = soft[i]!;
    if (w === 0) continue;
    const dR = fine![p]! - coarse![p]!;
    const dG = fine![p + 1]! - coarse![p + 1]!;
    const dB = fine![p + 2]! - coarse![p + 2]!;
    const luma = Math.abs(0.299 * dR + 0.587 * dG + 0.114 * dB);
    if (luma >= SKIN_EDGE) continue;
    const k = (SKIN_STRENGTH * w * (1 - luma / SKIN_EDGE)) / 255;
    rgb[p] = clamp(rgb[p]! - k * dR);
    rgb[p + 1] = clamp(rgb[p + 1]! - k * dG);
    rgb[p + 2] = clamp(rgb[p + 2]! - k * dB);
  }
}

/** 255 on skin-coloured pixels of the person near the face, 0 elsewhere (before softening). */
function skinWeight(rgb: Uint8Array, alpha: Uint8Array, width: number, height: number, face: Box): Buffer {
  const weight = Buffer.alloc(width * height);
  const x0 = Math.max(0, Math.floor(face.x - face.width * SKIN_AREA.x));
  const x1 = Math.min(width, Math.ceil(face.x + face.width * (1 + SKIN_AREA.x)));
  const y0 = Math.max(0, Math.floor(face.y - face.height * SKIN_AREA.top));
  const y1 = Math.min(height, Math.ceil(face.y + face.height * (1 + SKIN_AREA.bottom)));
  const cx = face.x + face.width / 2;
  const cy = face.y + face.height / 2;
  const rx = (face.width / 2) * (1 + 2 * SKIN_AREA.x);
  const ry = (face.height / 2) * (1 + SKIN_AREA.top + SKIN_AREA.bottom);
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const i = y * width + x;
      if (alpha[i]! < 200) continue;
      const ex = (x - cx) / rx;
      const ey = (y - cy) / ry;
      if (ex * ex + ey * ey > 1) continue;
      const p = i * 3;
      if (isSkin(rgb[p]!, rgb[p + 1]!, rgb[p + 2]!)) weight[i] = 255;
    }
  }
  return weight;
}

/**
 * Skin tones of every complexion in YCbCr (the classic chroma box of Chai and Ngan, widened a little for
 * warm indoor light), and neither near black nor burnt out: hair, eyes, lips in shadow and teeth fall outside.
 */
function isSkin(r: number, g: number, b: number): boolean {
  const y = 0.299 * r + 0.587 * g + 0.114 * b;
  if (y < 35 || y > 245) return false;
  const cb = 128 - 0.168736 * r - 0.331264 * g + 0.5 * b;
  const cr = 128 + 0.5 * r - 0.418688 * g - 0.081312 * b;
  return cb >= 75 && cb <= 130 && cr >= 132 && cr <= 180;
}

/** What each style does to the person, visibly and in words the style step repeats (catalog.styles.*). */
export const STYLE_LOOKS: Record<BaseStyle, { warmth: number; contrast: number; saturation: number; lift: number }> = {
  /** Neutral colour, crisp contrast. */
  professional: { warmth: 0, contrast: 1.06, saturation: 0.96, lift: 0 },
  /** Warmer, softer: shadows lifted, contrast eased. */
  casual: { warmth: 0.045, contrast: 0.95, saturation: 1.05, lift: 10 },
  /** Richer colour and more contrast. */
  creative: { warmth: 0.01, contrast: 1.18, saturation: 1.16, lift: 0 },
};

/**
 * The style's look on the person in place: warmth shifts red against blue, contrast turns about the mid tone,
 * lift raises the shadows (a softer light), saturation moves each pixel from its own grey. With `shown` (the
 * draft's opacity), only where the person shows.
 */
export function applyStyle(rgb: Uint8Array, style: BaseStyle, shown?: Uint8Array): void {
  const look = STYLE_LOOKS[style];
  // One table per channel: warmth and the tone curve.
  const tables = [1 + look.warmth, 1, 1 - look.warmth].map((gain) =>
    Uint8Array.from({ length: 256 }, (_, v) => {
      const warmed = v * gain;
      const lifted = warmed + look.lift * (1 - warmed / 255) ** 2;
      return clamp(128 + (lifted - 128) * look.contrast);
    }),
  );
  const [tR, tG, tB] = tables as [Uint8Array, Uint8Array, Uint8Array];
  const s = look.saturation;
  for (let i = 0, p = 0; p < rgb.length; i++, p += 3) {
    if (shown && shown[i] === 0) continue;
    const r = tR[rgb[p]!]!;
    const g = tG[rgb[p + 1]!]!;
    const b = tB[rgb[p + 2]!]!;
    const grey = 0.299 * r + 0.587 * g + 0.114 * b;
    rgb[p] = clamp(grey + (r - grey) * s);
    rgb[p + 1] = clamp(grey + (g - grey) * s);
    rgb[p + 2] = clamp(grey + (b - grey) * s);
  }
}

function clamp(value: number): number {
  return value < 0 ? 0 : value > 255 ? 255 : Math.round(value);
}
