// Face-centred framing: where in the photo the frame of an output format lies, framed as a photographer frames a
// headshot (docs/studio/framing.md): the face a set share of the height, a small headroom above the hair, the eyes
// near the upper third. Where the photo ends too soon below the chin (a tight phone selfie), the frame is made
// smaller around the head instead of being moved up, so the head keeps its place and never sinks under an empty
// band of backdrop; the render enlarges the smaller frame to the format's size.
import { SEGMENTATION_SIZE } from './inference/segmentation-size.js';
import type { Box } from './inference/types.js';

/**
 * Where the head lies in the detector's face box, measured on nine real people (scripts in the issue note): the
 * box runs from about the hairline to below the chin; the chin at 0.85 of its height; the top of the hair
 * 0.12 to 0.47 of its height above it (0.24 typical). A measured crown (the person mask's top above the face)
 * replaces the typical one, within these bounds.
 */
export const HEAD_IN_FACE_BOX = { chin: 0.85, crown: -0.24, crownHighest: -0.5, crownLowest: -0.08 } as const;

export interface FrameFormat {
  width: number;
  height: number;
  /** The face box's height as a share of the frame's (variation applied). */
  faceHeight: number;
  /** The face box's middle, as a share of the frame's height from its top. */
  faceCenterY: number;
  /** At least this share of the frame's height above the crown. */
  headroom?: number;
  /** A format sized by the head (chin to crown) instead of the face box: that share of the height. */
  headHeight?: number | null;
  /** The largest face share a frame may zoom to where the photo ends below the chin (plans keep below it). */
  maxFaceHeight?: number;
  /** In a frame made smaller, the face's top no lower than this share of the height (a tall crown is cut instead). */
  maxFaceTop?: number | null;
  /**
   * A tighter framing than the format's own (more than 1: render.ts's variation, as a redo asking for less space
   * gets), by which faceHeight was scaled: where the photo's edges have made the format's own frame smaller, the
   * frame is smaller still by this much, so "tighter" is tighter on a tight photo too.
   */
  tighten?: number;
}

/** How far a frame that runs past the photo's sides may zoom in (the face up to this much larger) to stay inside them. */
const MAX_SIDE_ZOOM = 1.22;

export interface Framing {
  frame: Box;
  /** The face box's height as a share of the frame's, as framed (more than the format's where the photo made it zoom in). */
  faceShare: number;
}

/**
 * The frame in the photo's pixels. It may reach past the photo's left, right or top edge (the backdrop fills
 * that); past the bottom it would cut the body off in mid-air, so there the frame gets smaller, keeping its
 * headroom above the crown: the face grows, the head stays at the top.
 *
 * A format with a head height (35 × 45 mm) is sized by the head from chin to crown; the others by the face, with
 * at least the format's headroom above the hair. `crownY`: the top of the head in the photo's pixels, if measured.
 */
export function framingFor(face: Box, photo: { width: number; height: number }, format: FrameFormat, crownY?: number | null): Framing {
  const aspect = format.width / format.height;
  const centerX = face.x + face.width / 2;
  const centerY = face.y + face.height / 2;
  const crown = Math.min(
    face.y + HEAD_IN_FACE_BOX.crownLowest * face.height,
    Math.max(face.y + HEAD_IN_FACE_BOX.crownHighest * face.height, crownY ?? face.y + HEAD_IN_FACE_BOX.crown * face.height),
  );
  const chin = face.y + HEAD_IN_FACE_BOX.chin * face.height;
  const headroom = format.headroom ?? 0;
  let height: number;
  let top: number;
  if (format.headHeight) {
    height = (chin - crown) / format.headHeight;
    top = crown - headroom * height;
  } else {
    height = face.height / format.faceHeight;
    top = centerY - format.faceCenterY * height;
    // Hair rising higher than usual: the frame moves up so it keeps its headroom, but the face no lower than the
    // format allows (very tall hair is cut at the top, as a photographer crops a headshot).
    top = Math.min(top, crown - headroom * height);
    if (format.maxFaceTop) top = Math.max(top, face.y - format.maxFaceTop * height);
  }
  // The share of the frame above the crown, kept as the frame gets smaller.
  const above = (crown - top) / height;
  // Where the face's top lies in a smaller frame: the crown keeps its headroom, but the face goes no lower than
  // the format's own place for it (tall hair in a tight frame is cut at the top, as a photographer crops it).
  const faceTopAt = (frameHeight: number) => Math.min(above + (face.y - crown) / frameHeight, format.maxFaceTop ?? 1);
  const ideal = height;
  if (top + height > photo.height) {
    // The photo ends before the frame: a smaller frame, its top where the face needs it, down to the photo's bottom.
    // The face's place depends on the frame's size: a few steps settle it (each moves it less).
    for (let step = 0; step < 4; step++) height = Math.max(1, (photo.height - face.y) / (1 - faceTopAt(height)));
    top = face.y - faceTopAt(height) * height;
  }
  // A frame wider than the photo shows where the photo ends beside the person, and there a shoulder or an arm is
  // cut off: the frame zooms in (the face up to MAX_SIDE_ZOOM larger than the format's) to stay within the sides.
  const fitsWidth = 2 * Math.min(centerX, photo.width - centerX);
  if (height * aspect > fitsWidth) {
    height = Math.min(height, Math.max(fitsWidth / aspect, ideal / MAX_SIDE_ZOOM));
    top = face.y - faceTopAt(height) * height;
  }
  const tighten = format.tighten ?? 1;
  if (tighten > 1) {
    // Tighter than the format's own frame after the photo's edges have made that smaller: smaller still.
    const own = framingFor(face, photo, { ...format, faceHeight: format.faceHeight / tighten, headHeight: format.headHeight && format.headHeight / tighten, tighten: 1 }, crownY);
    // Not past the format's largest face share, unless the photo made the format's own frame pass it already.
    const tighter = Math.max(own.frame.height / tighten, Math.min(own.frame.height, face.height / (format.maxFaceHeight ?? 1)));
    if (tighter < height) {
      height = tighter;
      top = face.y - faceTopAt(height) * height;
    }
  }
  const width = height * aspect;
  return {
    frame: { x: Math.round(centerX - width / 2), y: Math.round(top), width: Math.round(width), height: Math.round(height) },
    faceShare: face.height / height,
  };
}

export function frameFor(face: Box, photo: { width: number; height: number }, format: FrameFormat, crownY?: number | null): Box {
  return framingFor(face, photo, format, crownY).frame;
}

/**
 * How many of a format's output pixels one photo pixel may become: beyond this the enlargement shows (soft skin,
 * blocky hair). A phone selfie's face is 1000 px and more; the upload gate warns below 220 (lowResolution).
 */
export const MAX_UPSCALE = 2.5;

/**
 * How well a photo gives a format, 0 to 1: 1 when the format's frame (the format's own framing, zoomed in where
 * the photo ends below the chin) keeps the face within the format's largest share and needs no more enlarging
 * than MAX_UPSCALE; less by how far it misses. Plans take photos that give a format (1) before any that does
 * not; a photo that fills no format still gives its best (the order's photos may all be tight).
 */
export function photoFills(face: Box, photo: { width: number; height: number }, format: FrameFormat & { maxFaceHeight: number }): number {
  const { frame, faceShare } = framingFor(face, photo, format);
  const share = Math.min(1, format.maxFaceHeight / faceShare);
  const resolution = Math.min(1, (MAX_UPSCALE * frame.height) / format.height);
  return Math.round(share * resolution * 100) / 100;
}

/** A person map (the segmentation model's SEGMENTATION_SIZE² output, 0–255) of a region of a picture, and where that region lies in the picture's pixels. */
export interface PersonMap {
  mask: Uint8Array;
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/**
 * The top of the head (hair or a cap included) above the face, in the picture's pixels: the highest row of the
 * person map over the middle of the face. Null when the map shows no one there (the framing then assumes typical
 * hair). The studio reads it from a crop around the head (render.ts), a generated picture from its whole map
 * (output-formats.ts).
 */
export function crownIn(map: PersonMap | null, face: Box): number | null {
  if (!map) return null;
  const sx = SEGMENTATION_SIZE / (map.right - map.left);
  const sy = SEGMENTATION_SIZE / (map.bottom - map.top);
  const x0 = Math.max(0, Math.floor((face.x + face.width * 0.3 - map.left) * sx));
  const x1 = Math.min(SEGMENTATION_SIZE - 1, Math.ceil((face.x + face.width * 0.7 - map.left) * sx));
  const lastRow = Math.min(SEGMENTATION_SIZE - 1, Math.floor((face.y + face.height * 0.3 - map.top) * sy));
  for (let y = 0; y <= lastRow; y++) {
    for (let x = x0; x <= x1; x++) if (map.mask[y * SEGMENTATION_SIZE + x]! > 128) return map.top + y / sy;
  }
  return null;
}
