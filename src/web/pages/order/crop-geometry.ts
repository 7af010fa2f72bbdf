// The geometry of the crop dialog (photo-crop.tsx), pure: the frame lives in the photo's own pixels (upright, as
// createImageBitmap with imageOrientation 'from-image' and the server both see it), so what the customer frames is
// exactly what is cut out and what the server then measures against UPLOAD_LIMITS.minShortSidePx.

export interface Size {
  width: number;
  height: number;
}

/** A frame in source pixels: whole numbers, always inside the photo, never below the minimum. */
export interface CropRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** What one photo allows: the frame's aspect and the range of its width. */
export interface CropBounds {
  image: Size;
  /** Width divided by height, at most 1: the frame is portrait or square, so its width is its short side. */
  aspect: number;
  minWidth: number;
  maxWidth: number;
  /** Arrow keys move by this many source pixels, with Shift by ten times as many. */
  moveStep: number;
  /** + and − change the width by this many source pixels. */
  resizeStep: number;
}

/**
 * Head and shoulders: the studio frames a portrait from them, and 4:5 is the portrait format of the pictures it
 * makes. A wider frame would take in the neighbours a group photo is refused for.
 */
export const PREFERRED_ASPECT = 4 / 5;
export const SHIFT_FACTOR = 10;

/**
 * The frame's limits for a photo, or null when no frame of `minShortSide` on its short side fits (then nothing is
 * offered). 4:5 where the photo is tall enough for it, else as tall as the photo is (up to square), so that a
 * landscape photo just above the minimum can still be cropped.
 */
export function cropBounds(image: Size, minShortSide: number): CropBounds | null {
  const { width, height } = image;
  if (!(width >= minShortSide && height >= minShortSide && minShortSide > 0)) return null;
  const aspect = Math.max(PREFERRED_ASPECT, minShortSide / height);
  const maxWidth = Math.max(minShortSide, Math.min(width, Math.floor(height * aspect)));
  const longSide = Math.max(width, height);
  return {
    image: { width, height },
    aspect,
    minWidth: minShortSide,
    maxWidth,
    moveStep: Math.max(1, Math.round(longSide / 100)),
    resizeStep: Math.max(1, Math.round(longSide / 50)),
  };
}

/** The frame's height for a width: the aspect kept, never taller than the photo, never below the minimum. */
export function heightFor(bounds: CropBounds, width: number): number {
  return Math.min(bounds.image.height, Math.max(bounds.minWidth, Math.round(width / bounds.aspect)));
}

function clampWidth(bounds: CropBounds, width: number): number {
  return Math.min(bounds.maxWidth, Math.max(bounds.minWidth, Math.round(width)));
}

/** Any frame made valid: its width within the limits, its height from the aspect, its position inside the photo. */
export function clampCrop(bounds: CropBounds, rect: CropRect): CropRect {
  const width = clampWidth(bounds, rect.width);
  const height = heightFor(bounds, width);
  return {
    x: Math.min(bounds.image.width - width, Math.max(0, Math.round(rect.x))),
    y: Math.min(bounds.image.height - height, Math.max(0, Math.round(rect.y))),
    width,
    height,
  };
}

/** The largest frame, centred: the whole photo is in it, and the customer narrows it down to themselves. */
export function initialCrop(bounds: CropBounds): CropRect {
  const width = bounds.maxWidth;
  const height = heightFor(bounds, width);
  return clampCrop(bounds, { x: (bounds.image.width - width) / 2, y: (bounds.image.height - height) / 2, width, height });
}

export function moveCrop(bounds: CropBounds, rect: CropRect, dx: number, dy: number): CropRect {
  return clampCrop(bounds, { ...rect, x: rect.x + dx, y: rect.y + dy });
}

/** A new width around the same centre (slider, + and −): the frame grows or shrinks in place, pushed back inside at an edge. */
export function resizeCrop(bounds: CropBounds, rect: CropRect, width: number): CropRect {
  const newWidth = clampWidth(bounds, width);
  const newHeight = heightFor(bounds, newWidth);
  const cx = rect.x + rect.width / 2;
  const cy = rect.y + rect.height / 2;
  return clampCrop(bounds, { x: cx - newWidth / 2, y: cy - newHeight / 2, width: newWidth, height: newHeight });
}

/**
 * The bottom-right handle dragged by (dx, dy) source pixels: the top-left corner stays, the frame follows the
 * pointer along whichever direction asks for more, and stops at the photo's edges.
 */
export function resizeFromCorner(bounds: CropBounds, rect: CropRect, dx: number, dy: number): CropRect {
  const wanted = Math.max(rect.width + dx, (rect.height + dy) * bounds.aspect);
  const room = Math.min(bounds.image.width - rect.x, Math.floor((bounds.image.height - rect.y) * bounds.aspect));
  const width = clampWidth(bounds, Math.min(wanted, room));
  // Near the bottom edge the minimum may not fit below the anchor: clampCrop then moves the frame up instead.
  return clampCrop(bounds, { x: rect.x, y: rect.y, width, height: heightFor(bounds, width) });
}

const ARROWS: Record<string, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

/**
 * A key pressed on the focused frame: arrows move it (Shift: ten times as far), + and − resize it. Null for any
 * other key, which then keeps its usual meaning (Tab, Enter, Escape).
 */
export function cropForKey(bounds: CropBounds, rect: CropRect, key: string, shift: boolean): CropRect | null {
  const arrow = ARROWS[key];
  if (arrow) {
    const step = bounds.moveStep * (shift ? SHIFT_FACTOR : 1);
    return moveCrop(bounds, rect, arrow[0] * step, arrow[1] * step);
  }
  // '=' is + without Shift on US keyboards; '_' is − with Shift.
  if (key === '+' || key === '=') return resizeCrop(bounds, rect, rect.width + bounds.resizeStep);
  if (key === '-' || key === '_' || key === '−') return resizeCrop(bounds, rect, rect.width - bounds.resizeStep);
  return null;
}

/** A distance on screen in source pixels: the photo is shown `displayed` wide and high. */
export function toSource(bounds: CropBounds, displayed: Size, dx: number, dy: number): { dx: number; dy: number } {
  if (!(displayed.width > 0 && displayed.height > 0)) return { dx: 0, dy: 0 };
  return { dx: (dx * bounds.image.width) / displayed.width, dy: (dy * bounds.image.height) / displayed.height };
}

/** The frame as percentages of the photo, for CSS: right at any displayed size, on a phone as on a desktop. */
export function toPercent(bounds: CropBounds, rect: CropRect): { left: number; top: number; width: number; height: number } {
  const { width, height } = bounds.image;
  return { left: (rect.x / width) * 100, top: (rect.y / height) * 100, width: (rect.width / width) * 100, height: (rect.height / height) * 100 };
}

/** The preview's size: the photo scaled down to at most `longSide` on its long side (never up). */
export function previewSize(image: Size, longSide: number): Size {
  const scale = Math.min(1, longSide / Math.max(image.width, image.height));
  return { width: Math.max(1, Math.round(image.width * scale)), height: Math.max(1, Math.round(image.height * scale)) };
}

/** "IMG_1234.HEIC" → "IMG_1234-crop.jpg": the customer recognises the photo, and the name says what it now is. */
export function cropFileName(name: string): string {
  const base = name.replace(/\.[^./\\]{1,5}$/, '') || 'photo';
  return `${base}-crop.jpg`;
}
