// The formats every studio draft comes in, at the shop's 300 DPI (decisions.md section 6).
import { OUTPUT_DPI } from '../domain/catalog.js';

const mmToPx = (mm: number) => Math.round((mm / 25.4) * OUTPUT_DPI);

export const OUTPUT_FORMATS = {
  /** 4:5 portrait, 4 × 5 inches: the usual application photo and social profiles. */
  portrait: { key: 'portrait', width: 1200, height: 1500, faceHeight: 0.3, faceCenterY: 0.4, headroom: 0.05, headHeight: null },
  /** 1:1 square, 4 × 4 inches: LinkedIn and XING (shown as a circle, so the face sits more central). */
  square: { key: 'square', width: 1200, height: 1200, faceHeight: 0.36, faceCenterY: 0.44, headroom: 0.07, headHeight: null },
  /**
   * The German application format 35 × 45 mm, in the proportions of a biometric photo: the head from chin to
   * crown 32 mm (headHeight 0.71 of 45 mm; the passport rule allows 32 to 36), about 4 mm above the crown, the
   * eyes near the middle, neck and the top of the shoulders below. The face box (the detector's, from the
   * hairline to below the chin) takes about 0.64 of the height with typical hair.
   */
  application: { key: 'application', width: mmToPx(35), height: mmToPx(45), faceHeight: 0.64, faceCenterY: 0.555, headroom: 0.08, headHeight: 0.71 },
} as const;

export type OutputFormatKey = keyof typeof OUTPUT_FORMATS;
export type OutputFormat = (typeof OUTPUT_FORMATS)[OutputFormatKey];
export const OUTPUT_FORMAT_KEYS = Object.keys(OUTPUT_FORMATS) as OutputFormatKey[];
