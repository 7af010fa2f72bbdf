// The formats every studio draft comes in, at the shop's 300 DPI (docs/rules.md §6).
import { OUTPUT_DPI } from '../domain/catalog.js';

const mmToPx = (mm: number) => Math.round((mm / 25.4) * OUTPUT_DPI);

export const OUTPUT_FORMATS = {
  /**
   * 4:5 portrait, 4 × 5 inches: the usual application photo and social profiles. A head-and-shoulders headshot:
   * the face box (hairline to below the chin) 35 % of the height, its top at 17 % (the crown about 9 % down, the
   * eyes near the upper third), the shoulders below. Where the photo ends sooner, the frame gets smaller, the face
   * at most 62 % (maxFaceHeight) and its top no lower than 18 % (maxFaceTop).
   */
  portrait: { key: 'portrait', width: 1200, height: 1500, faceHeight: 0.35, faceCenterY: 0.345, headroom: 0.06, headHeight: null, maxFaceHeight: 0.62, maxFaceTop: 0.18 },
  /**
   * 1:1 square, 4 × 4 inches: LinkedIn and XING, shown as a circle, so the face sits a little lower and larger:
   * the face box 38 % of the height, its top at 16 % (the detector finds it 2 to 5 % lower in the draft, up to 10 % for a head bent down).
   */
  square: { key: 'square', width: 1200, height: 1200, faceHeight: 0.38, faceCenterY: 0.35, headroom: 0.07, headHeight: null, maxFaceHeight: 0.62, maxFaceTop: 0.16 },
  /**
   * The German application format 35 × 45 mm, in the proportions of a biometric photo: the head from chin to
   * crown 32 mm (headHeight 0.71 of 45 mm; the passport rule allows 32 to 36), about 4 mm above the crown, the
   * eyes near the middle, neck and the top of the shoulders below. The face box (the detector's, from the
   * hairline to below the chin) takes about 0.64 of the height with typical hair. Zoomed in where the photo ends
   * below the chin, up to the passport rule's 36 mm of head (a face box of 0.74).
   */
  application: { key: 'application', width: mmToPx(35), height: mmToPx(45), faceHeight: 0.64, faceCenterY: 0.555, headroom: 0.08, headHeight: 0.71, maxFaceHeight: 0.74, maxFaceTop: null },
} as const;

export type OutputFormatKey = keyof typeof OUTPUT_FORMATS;
export type OutputFormat = (typeof OUTPUT_FORMATS)[OutputFormatKey];
export const OUTPUT_FORMAT_KEYS = Object.keys(OUTPUT_FORMATS) as OutputFormatKey[];
