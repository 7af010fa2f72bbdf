// The lightbox's stage (lightbox.tsx): the image fitted to the screen or shown at 100 % (one image pixel per CSS
// pixel), where it scrolls: by mouse drag, wheel or the arrow keys.
import { useLayoutEffect, useRef, useState, type MouseEvent, type PointerEvent } from 'react';

const FACE = { x: 0.5, y: 0.35 };
const PAN_KEYS: Record<string, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

/** The stage's element, its zoom and its pointer handlers; `close` closes the lightbox (a click beside the picture). */
export function useLightboxStage(close: () => void) {
  const stage = useRef<HTMLDivElement>(null);
  // Every picture starts fitted, whole, which is how a draft is judged first; 100 % ends when another one is shown
  // (by a key, a button or a decision that moved on), also for a picture shown again later: see fit().
  const [zoomed, setZoomed] = useState(false);
  // The point of the fitted image that 100 % opens on, as fractions of its size: where it was clicked, else the face
  // (a portrait's face sits in its upper half, and it is what a reviewer checks first).
  const zoomPoint = useRef(FACE);
  const drag = useRef<{ x: number; y: number; left: number; top: number } | null>(null);
  // A drag ends with a click, which must neither zoom nor close.
  const dragged = useRef(false);

  const centre = () => {
    const box = stage.current;
    const image = box?.querySelector('img');
    if (!box || !image) return;
    box.scrollLeft = image.offsetLeft + zoomPoint.current.x * image.offsetWidth - box.clientWidth / 2;
    box.scrollTop = image.offsetTop + zoomPoint.current.y * image.offsetHeight - box.clientHeight / 2;
  };
  useLayoutEffect(() => {
    if (zoomed) centre();
  }, [zoomed]);

  const zoom = (on: boolean, point = FACE) => {
    zoomPoint.current = point;
    setZoomed(on);
  };
  /** At 100 % the arrows move the picture, as in any image viewer: true when the key did. */
  const pan = (key: string) => {
    const direction = PAN_KEYS[key];
    const box = stage.current;
    if (!zoomed || !direction || !box) return false;
    box.scrollBy({ left: direction[0] * box.clientWidth * 0.2, top: direction[1] * box.clientHeight * 0.2 });
    return true;
  };

  const onStageClick = (event: MouseEvent<HTMLDivElement>) => {
    if (dragged.current) {
      dragged.current = false;
      return;
    }
    // At 100 % a click goes back to the whole picture; fitted, a click on it zooms in there, beside it closes.
    if (zoomed) return zoom(false);
    const image = (event.target as HTMLElement).closest('img');
    if (image) {
      const box = image.getBoundingClientRect();
      zoom(true, { x: (event.clientX - box.left) / box.width, y: (event.clientY - box.top) / box.height });
    } else if (event.target === event.currentTarget) close();
  };
  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    dragged.current = false;
    // Touch and pen scroll the stage natively.
    if (!zoomed || event.pointerType !== 'mouse' || event.button !== 0) return;
    drag.current = { x: event.clientX, y: event.clientY, left: event.currentTarget.scrollLeft, top: event.currentTarget.scrollTop };
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    const start = drag.current;
    if (!start) return;
    const dx = event.clientX - start.x;
    const dy = event.clientY - start.y;
    if (Math.abs(dx) + Math.abs(dy) > 4) dragged.current = true;
    event.currentTarget.scrollLeft = start.left - dx;
    event.currentTarget.scrollTop = start.top - dy;
  };
  const endDrag = () => {
    drag.current = null;
  };

  return {
    stage,
    zoomed,
    zoom,
    /** Back to the whole picture: called while rendering, when another picture is shown. */
    fit: () => setZoomed(false),
    centre,
    pan,
    onStageClick,
    onPointerDown,
    onPointerMove,
    endDrag,
  };
}
