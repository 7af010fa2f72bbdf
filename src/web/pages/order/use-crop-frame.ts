// Moving and resizing the crop dialog's frame (photo-crop.tsx): dragging it or its corner, a tap beside it,
// or the keys (the arrows move it, + and − resize it).
import { useRef, type KeyboardEvent, type PointerEvent, type RefObject } from 'react';
import { cropForKey, moveCrop, resizeFromCorner, toSource, type CropBounds, type CropRect } from './crop-geometry.js';

interface Drag {
  pointerId: number;
  mode: 'move' | 'resize';
  clientX: number;
  clientY: number;
  start: CropRect;
}

/** The frame's key and pointer handlers; `bounds` and `rect` are null until the photo is ready. */
export function useCropFrame(props: {
  bounds: CropBounds | null;
  rect: CropRect | null;
  setRect: (rect: CropRect) => void;
  canvas: RefObject<HTMLCanvasElement | null>;
  frame: RefObject<HTMLDivElement | null>;
}) {
  const { bounds, rect, setRect, canvas, frame } = props;
  const drag = useRef<Drag | null>(null);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (!bounds || !rect || event.ctrlKey || event.metaKey || event.altKey) return;
    const next = cropForKey(bounds, rect, event.key, event.shiftKey);
    if (!next) return;
    event.preventDefault();
    setRect(next);
  };

  // Pointer events cover mouse, touch and pen; the stage has touch-action: none, so a finger drags the frame
  // instead of scrolling the dialog.
  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (!bounds || !rect || !canvas.current || (event.pointerType === 'mouse' && event.button !== 0)) return;
    const target = event.target as HTMLElement;
    const mode = target.closest('[data-crop-handle]') ? 'resize' : 'move';
    let start = rect;
    if (!target.closest('[data-crop-frame]')) {
      // A tap beside the frame brings it there, centred on the spot, and the drag goes on from it.
      const box = canvas.current.getBoundingClientRect();
      const point = toSource(bounds, box, event.clientX - box.left, event.clientY - box.top);
      start = moveCrop(bounds, rect, point.dx - (rect.x + rect.width / 2), point.dy - (rect.y + rect.height / 2));
      setRect(start);
    }
    event.currentTarget.setPointerCapture(event.pointerId);
    drag.current = { pointerId: event.pointerId, mode, clientX: event.clientX, clientY: event.clientY, start };
    frame.current?.focus({ preventScroll: true });
    event.preventDefault();
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    const current = drag.current;
    if (!bounds || !canvas.current || !current || current.pointerId !== event.pointerId) return;
    const moved = toSource(bounds, canvas.current.getBoundingClientRect(), event.clientX - current.clientX, event.clientY - current.clientY);
    setRect(current.mode === 'move' ? moveCrop(bounds, current.start, moved.dx, moved.dy) : resizeFromCorner(bounds, current.start, moved.dx, moved.dy));
  };
  const endDrag = (event: PointerEvent<HTMLDivElement>) => {
    if (drag.current?.pointerId === event.pointerId) drag.current = null;
  };

  return { onKeyDown, onPointerDown, onPointerMove, endDrag };
}
