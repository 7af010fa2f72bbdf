// The crop dialog of the upload step: the customer frames themselves in a photo the server refused for showing
// several people. The cut-out is made here, at the photo's own resolution, and uploaded like any chosen file:
// the server checks it as it checks every photo (size, faces, light), so nothing here is trusted.
import { useEffect, useId, useLayoutEffect, useRef, useState, type CSSProperties } from 'react';
import { UPLOAD_LIMITS } from '../../../domain/catalog.js';
import { useI18n } from '../../lib/i18n.js';
import './photo-crop.css';
import { cropBounds, cropFileName, initialCrop, previewSize, resizeCrop, toPercent, type CropBounds, type CropRect } from './crop-geometry.js';
import { useCropFrame } from './use-crop-frame.js';

export const CROP_JPEG_QUALITY = 0.92;
/** The photo on screen: sharp on a phone's 3× display, without holding a second full-size copy. */
const PREVIEW_LONG_SIDE_PX = 1600;

/**
 * The photo decoded upright (EXIF orientation applied, as the server applies it), or null where this browser
 * cannot decode it: HEIC in most browsers.
 */
async function decodePhoto(file: Blob): Promise<ImageBitmap | null> {
  if (typeof createImageBitmap !== 'function') return null;
  try {
    return await createImageBitmap(file, { imageOrientation: 'from-image' });
  } catch {
    return null;
  }
}

/** What a refused photo's item offers: the crop, a note that it is too small for one, or nothing (not decodable here). */
export type CropOffer = 'crop' | 'tooSmall' | 'none';

export async function cropOffer(file: File): Promise<CropOffer> {
  const bitmap = await decodePhoto(file);
  if (!bitmap) return 'none';
  const fits = cropBounds(bitmap, UPLOAD_LIMITS.minShortSidePx) !== null;
  bitmap.close();
  return fits ? 'crop' : 'tooSmall';
}

type Photo = { state: 'loading' } | { state: 'unsupported' } | { state: 'tooSmall' } | { state: 'ready'; bitmap: ImageBitmap; bounds: CropBounds };

/**
 * A modal <dialog>: the page behind is inert (focus stays inside) and Escape cancels. The frame is 4:5 (head and
 * shoulders) and never smaller than the server accepts, in the photo's own pixels; it moves by dragging (mouse,
 * touch, pen) or the arrow keys and resizes by its corner, the slider or + and −.
 */
export function PhotoCrop({ file, onCancel, onConfirm }: { file: File; onCancel: () => void; onConfirm: (cropped: File) => void }) {
  const { t } = useI18n();
  const ids = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const frame = useRef<HTMLDivElement>(null);
  const cancelButton = useRef<HTMLButtonElement>(null);
  // Set once the crop is handed over: the dialog's close is then no cancel.
  const finished = useRef(false);
  const [photo, setPhoto] = useState<Photo>({ state: 'loading' });
  const [rect, setRect] = useState<CropRect | null>(null);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    cancelButton.current?.focus();
  }, []);

  useEffect(() => {
    let live = true;
    let decoded: ImageBitmap | null = null;
    void decodePhoto(file).then((bitmap) => {
      if (!live) return bitmap?.close();
      decoded = bitmap;
      if (!bitmap) return setPhoto({ state: 'unsupported' });
      const bounds = cropBounds(bitmap, UPLOAD_LIMITS.minShortSidePx);
      if (!bounds) return setPhoto({ state: 'tooSmall' });
      setPhoto({ state: 'ready', bitmap, bounds });
      setRect(initialCrop(bounds));
    });
    return () => {
      live = false;
      decoded?.close();
    };
  }, [file]);

  const ready = photo.state === 'ready' ? photo : null;

  // The preview: drawn once, scaled down; the frame is laid over it in percentages.
  useLayoutEffect(() => {
    const element = canvas.current;
    if (!ready || !element) return;
    const size = previewSize(ready.bitmap, PREVIEW_LONG_SIDE_PX);
    element.width = size.width;
    element.height = size.height;
    const context = element.getContext('2d');
    if (context) {
      context.imageSmoothingQuality = 'high';
      context.drawImage(ready.bitmap, 0, 0, size.width, size.height);
    }
    // The frame is what the keys work on: it takes the focus as soon as there is one.
    frame.current?.focus({ preventScroll: true });
  }, [ready]);

  const finish = () => {
    finished.current = true;
    dialog.current?.close();
  };

  const confirm = async () => {
    if (!ready || !rect || busy) return;
    setBusy(true);
    setFailed(false);
    try {
      const out = document.createElement('canvas');
      out.width = rect.width;
      out.height = rect.height;
      const context = out.getContext('2d');
      if (!context) throw new Error('no 2d context');
      // JPEG has no transparency: white under a PNG's transparent parts, as the server would flatten it.
      context.fillStyle = '#ffffff';
      context.fillRect(0, 0, rect.width, rect.height);
      context.drawImage(ready.bitmap, rect.x, rect.y, rect.width, rect.height, 0, 0, rect.width, rect.height);
      const blob = await new Promise<Blob | null>((resolve) => out.toBlob(resolve, 'image/jpeg', CROP_JPEG_QUALITY));
      // Give the full-size pixels back at once, not when the canvas is collected.
      out.width = 0;
      out.height = 0;
      if (!blob) throw new Error('no JPEG');
      // Cancelled while the JPEG was being made.
      if (!dialog.current?.open) return;
      const cropped = new File([blob], cropFileName(file.name), { type: 'image/jpeg', lastModified: Date.now() });
      finish();
      onConfirm(cropped);
    } catch {
      setFailed(true);
      setBusy(false);
    }
  };

  const { onKeyDown, onPointerDown, onPointerMove, endDrag } = useCropFrame({ bounds: ready?.bounds ?? null, rect, setRect, canvas, frame });

  const titleId = `${ids}-title`;
  const helpId = `${ids}-help`;
  const sizeId = `${ids}-size`;
  const atMinimum = ready && rect ? rect.width <= ready.bounds.minWidth : false;
  const sizeText = rect ? t(atMinimum ? 'order.upload.crop.sizeMin' : 'order.upload.crop.sizeValue', { width: rect.width, height: rect.height }) : '';
  const place = ready && rect ? toPercent(ready.bounds, rect) : null;

  return (
    <dialog
      ref={dialog}
      className="photo-crop"
      aria-labelledby={titleId}
      aria-describedby={helpId}
      onClose={() => {
        if (!finished.current) onCancel();
      }}
      data-testid="crop-dialog"
    >
      <div className={`photo-crop__panel${ready ? ' photo-crop__panel--ready' : ''}`}>
        <h2 id={titleId} className="photo-crop__title">
          {t('order.upload.crop.title')}
        </h2>
        <div id={helpId} className="photo-crop__help">
          <p>{t('order.upload.crop.intro')}</p>
          <p>{t('order.upload.crop.pointerHelp')}</p>
          <p>{t('order.upload.crop.keyboardHelp')}</p>
        </div>

        {ready && rect && place && (
          <div className="photo-crop__viewport">
            <div
              className="photo-crop__stage"
              // The stage has the photo's proportions, so the frame's percentages are the photo's.
              style={{ '--crop-ratio': String(ready.bounds.image.width / ready.bounds.image.height) } as CSSProperties}
              onPointerDown={onPointerDown}
              onPointerMove={onPointerMove}
              onPointerUp={endDrag}
              onPointerCancel={endDrag}
              onLostPointerCapture={endDrag}
            >
              {/* React sets the frame's place through the DOM's style object, which the CSP allows (no style attribute). */}
              <canvas ref={canvas} className="photo-crop__photo" role="img" aria-label={t('order.upload.crop.photoLabel', { name: file.name })} />
              <div
                ref={frame}
                className="photo-crop__frame"
                style={{ left: `${place.left}%`, top: `${place.top}%`, width: `${place.width}%`, height: `${place.height}%` }}
                tabIndex={0}
                // A widget with keys of its own: screen readers pass the arrows through instead of reading on.
                role="application"
                aria-label={`${t('order.upload.crop.frameLabel')}: ${sizeText}`}
                aria-describedby={helpId}
                onKeyDown={onKeyDown}
                data-crop-frame=""
                data-testid="crop-frame"
                data-crop={`${rect.x},${rect.y},${rect.width},${rect.height}`}
              >
                <span className="photo-crop__handle" data-crop-handle="" title={t('order.upload.crop.handle')} aria-hidden="true" />
              </div>
            </div>
          </div>
        )}

        <div className="photo-crop__controls">
          {photo.state === 'loading' && (
            <p className="photo-crop__status" role="status">
              {t('order.upload.crop.loading')}
            </p>
          )}
          {(photo.state === 'unsupported' || photo.state === 'tooSmall') && (
            <p className="alert alert--error" role="alert" data-testid="crop-unavailable">
              {photo.state === 'unsupported' ? t('order.upload.crop.unsupported') : t('order.upload.crop.tooSmall', { min: UPLOAD_LIMITS.minShortSidePx })}
            </p>
          )}
          {ready && rect && (
            <>
              <div className="photo-crop__size">
                <label htmlFor={sizeId}>{t('order.upload.crop.size')}</label>
                <input
                  id={sizeId}
                  type="range"
                  min={ready.bounds.minWidth}
                  max={ready.bounds.maxWidth}
                  step={1}
                  value={rect.width}
                  disabled={ready.bounds.minWidth >= ready.bounds.maxWidth}
                  aria-valuetext={sizeText}
                  onChange={(event) => setRect(resizeCrop(ready.bounds, rect, Number(event.target.value)))}
                  data-testid="crop-size"
                />
                <output htmlFor={sizeId} className="photo-crop__size-value" aria-live="polite" data-testid="crop-size-value">
                  {sizeText}
                </output>
              </div>
              <p className="photo-crop__note">{t('order.upload.crop.checkNote')}</p>
            </>
          )}
          {failed && (
            <p className="alert alert--error" role="alert">
              {t('order.upload.crop.failed')}
            </p>
          )}
        </div>

        <div className="photo-crop__actions">
          <button ref={cancelButton} type="button" className="button button--secondary" onClick={() => dialog.current?.close()} data-testid="crop-cancel">
            {ready ? t('order.upload.crop.cancel') : t('order.upload.crop.close')}
          </button>
          {ready && (
            <button type="button" className="button button--primary" onClick={() => void confirm()} disabled={busy} aria-busy={busy} data-testid="crop-confirm">
              {busy ? t('order.upload.crop.working') : t('order.upload.crop.confirm')}
            </button>
          )}
        </div>
      </div>
    </dialog>
  );
}
