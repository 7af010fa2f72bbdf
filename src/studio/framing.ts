// Face-centred framing: where in the photo the frame of an output format lies.
import type { OutputFormat } from './formats.js';
import type { Box } from './inference/types.js';

/** The largest face height (share of the frame) we zoom in to so the frame need not run past the photo's bottom. */
const MAX_FACE_HEIGHT = 0.5;

/**
 * The frame in the photo's pixels. It may reach past the photo's left, right or top edge (the backdrop fills
 * that); past the bottom it would cut the body off in mid-air, so the frame zooms in a little instead, and
 * only then moves up.
 */
export function frameFor(face: Box, photo: { width: number; height: number }, format: Pick<OutputFormat, 'width' | 'height'> & { faceHeight: number; faceCenterY: number }): Box {
  const aspect = format.width / format.height;
  const centerX = face.x + face.width / 2;
  const centerY = face.y + face.height / 2;
  let height = face.height / format.faceHeight;
  let top = centerY - format.faceCenterY * height;
  if (top + height > photo.height) {
    // Zoom in until the frame ends at the photo's bottom, within the face-size limit.
    const fitted = (photo.height - centerY) / (1 - format.faceCenterY);
    height = Math.max(fitted, face.height / MAX_FACE_HEIGHT);
    top = centerY - format.faceCenterY * height;
    if (top + height > photo.height) top = photo.height - height;
  }
  const width = height * aspect;
  return { x: Math.round(centerX - width / 2), y: Math.round(top), width: Math.round(width), height: Math.round(height) };
}
