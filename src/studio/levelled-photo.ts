// A head tilted sideways is set level: the photo turned by the face's roll (levelling.ts), once per photo and
// angle, and how its points and boxes map onto the turned copy. The drafts (render.ts) frame and cut that copy.
import sharp from 'sharp';
import { OUTPUT_FORMATS } from './formats.js';
import type { Box } from './inference/types.js';
import { levellingAngle, turned } from './levelling.js';

export interface LevelledPhoto {
  buffer: Buffer;
  width: number;
  height: number;
  /** A point of the original (auto-oriented) photo in this image. */
  point: (p: { x: number; y: number }) => { x: number; y: number };
  /** A box of the original photo in this image (its centre moved, its size scaled as the photo was). */
  box: (b: Box) => Box;
  /** The lowest row that is photo all the way across the face's surroundings: the higher of the lower corners. */
  bottom: number;
}

const levelledPhotos = new WeakMap<Buffer, Map<string, Promise<LevelledPhoto>>>();

/**
 * The largest face any draft makes, in output pixels (the format's largest face share, where a tight photo makes the
 * frame zoom in): a turned photo keeps at least LEVEL_MARGIN times this, so the frame is still scaled down afterwards.
 */
const LARGEST_OUTPUT_FACE = Math.max(...Object.values(OUTPUT_FORMATS).map((format) => format.maxFaceHeight * format.height));
const LEVEL_MARGIN = 1.1;

/**
 * The photo turned so the face is level, cached per photo and angle; the photo itself when the roll is small.
 * Turning needs the whole photo decoded at once (an 11 MP photo took the worker 175 MB more for a moment), so a
 * photo is first scaled down to what the largest draft needs of it: the face at LEVEL_MARGIN times its largest
 * size in any output.
 */
export function levelled(photo: Buffer, size: { width: number; height: number }, face: Box & { roll?: number }): Promise<LevelledPhoto> {
  const angle = levellingAngle(face.roll ?? 0);
  const scale = angle === 0 ? 1 : Math.min(1, (LARGEST_OUTPUT_FACE * LEVEL_MARGIN) / Math.max(1, face.height));
  const key = `${angle}:${scale}`;
  let perPhoto = levelledPhotos.get(photo);
  if (!perPhoto) levelledPhotos.set(photo, (perPhoto = new Map()));
  let found = perPhoto.get(key);
  if (!found) {
    found = (async (): Promise<LevelledPhoto> => {
      if (angle === 0) return { buffer: photo, ...size, point: (p) => p, box: (b) => b, bottom: size.height };
      const scaled = { width: Math.max(1, Math.round(size.width * scale)), height: Math.max(1, Math.round(size.height * scale)) };
      // Two steps: sharp would otherwise turn before it scales.
      const smaller = await sharp(photo).rotate().resize(scaled.width, scaled.height, { fit: 'fill' }).removeAlpha().raw().toBuffer();
      const { data, info } = await sharp(smaller, { raw: { ...scaled, channels: 3 } })
        .rotate((angle * 180) / Math.PI, { background: { r: 0, g: 0, b: 0 } })
        .jpeg({ quality: 95, chromaSubsampling: '4:4:4' })
        .toBuffer({ resolveWithObject: true });
      const sx = scaled.width / size.width;
      const sy = scaled.height / size.height;
      const turn = turned(scaled, angle, info);
      const point = (p: { x: number; y: number }) => turn.point({ x: p.x * sx, y: p.y * sy });
      return {
        buffer: data,
        width: info.width,
        height: info.height,
        point,
        bottom: Math.floor(Math.min(point({ x: 0, y: size.height }).y, point({ x: size.width, y: size.height }).y)),
        box: (b) => {
          const centre = point({ x: b.x + b.width / 2, y: b.y + b.height / 2 });
          const width = b.width * sx;
          const height = b.height * sy;
          return { x: Math.round(centre.x - width / 2), y: Math.round(centre.y - height / 2), width, height };
        },
      };
    })();
    perPhoto.set(key, found);
  }
  return found;
}
