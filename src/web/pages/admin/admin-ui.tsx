// Small building blocks of the back office: badges, images that may be missing, the lightbox.
import {
  useEffect,
  useEffectEvent,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type MouseEvent,
  type PointerEvent,
  type ReactNode,
  type SyntheticEvent,
} from 'react';

export function Badge({ tone, children, testId }: { tone: string; children: string; testId?: string }) {
  return (
    <span className={`admin-badge admin-badge--${tone}`} data-testid={testId}>
      {children}
    </span>
  );
}

/** An image from a signed, expiring link: a missing or expired file shows a placeholder box instead. */
export function SafeImage(props: { src: string; alt: string; className?: string; width?: number; height?: number; lazy?: boolean; onLoad?: () => void }) {
  const [broken, setBroken] = useState(false);
  if (broken || !props.src) {
    return (
      <span className={`admin-missing ${props.className ?? ''}`} role="img" aria-label={`${props.alt}: Bild nicht gefunden`} data-testid="image-missing">
        Bild nicht gefunden
      </span>
    );
  }
  return (
    <img
      src={props.src}
      alt={props.alt}
      className={props.className}
      width={props.width}
      height={props.height}
      loading={props.lazy === false ? undefined : 'lazy'}
      decoding="async"
      onLoad={props.onLoad}
      onError={() => setBroken(true)}
    />
  );
}

export interface LightboxItem {
  key: string;
  src: string;
  alt: string;
  caption: string;
  downloadUrl?: string;
  /** Shown next to the caption, e.g. a result's status, so a decision made here is seen at once. */
  badge?: { tone: string; label: string };
}

/** A decision about the picture on show: a button in the lightbox and a key (KeyboardEvent.key values). */
export interface LightboxAction {
  /** Its data-testid; the confirmation's button gets `${id}-confirm`. */
  id: string;
  label: string;
  keys?: string[];
  /** The key as printed on the button. */
  keyLabel?: string;
  tone: 'primary' | 'secondary' | 'danger';
  /** Asked inside the lightbox first, for what cannot be undone. */
  confirm?: { question: string; label: string };
  run: () => void;
}

interface LightboxProps {
  items: LightboxItem[];
  index: number;
  onIndex: (index: number) => void;
  onClose: () => void;
  /** The picture on show has loaded: staff have really seen it (a missing file does not count). */
  onViewed?: (key: string) => void;
  /** What staff can decide about the picture on show. */
  actions?: LightboxAction[];
  /** An action is running: further ones wait (a key held down must not publish twice). */
  busy?: boolean;
  /** Why the lightbox opened, kept in view (read out with the dialog). */
  notice?: ReactNode;
  /** The outcome of the last action, read out. */
  message?: string | null;
  error?: string | null;
}

const FACE = { x: 0.5, y: 0.35 };
const PAN_KEYS: Record<string, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

/**
 * Full-screen view of one image. A modal <dialog> makes the page behind it inert (focus stays inside),
 * closes on Escape and gives focus back to the thumbnail that opened it. The image is fitted to the screen
 * or shown at 100 % (one image pixel per CSS pixel), where it scrolls: by mouse drag, wheel or the arrow keys.
 */
export function Lightbox({ items, index, onIndex, onClose, onViewed, actions = [], busy = false, notice, message, error }: LightboxProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const closeButton = useRef<HTMLButtonElement>(null);
  const stage = useRef<HTMLDivElement>(null);
  const ids = useId();
  const item = items[index];
  // Every picture starts fitted, whole, which is how a draft is judged first; 100 % ends when another one is shown
  // (by a key, a button or a decision that moved on), also for a picture shown again later.
  const [zoomed, setZoomed] = useState(false);
  // A question about one picture (reject it?) is not one about the next.
  const [confirming, setConfirming] = useState<{ key: string; action: string } | null>(null);
  const [shownKey, setShownKey] = useState(item?.key);
  if (item && item.key !== shownKey) {
    setShownKey(item.key);
    setZoomed(false);
    setConfirming(null);
  }
  // The point of the fitted image that 100 % opens on, as fractions of its size: where it was clicked, else the face
  // (a portrait's face sits in its upper half, and it is what a reviewer checks first).
  const zoomPoint = useRef(FACE);
  const confirmAction = item && confirming?.key === item.key ? actions.find((action) => action.id === confirming.action) : undefined;
  const drag = useRef<{ x: number; y: number; left: number; top: number } | null>(null);
  // A drag ends with a click, which must neither zoom nor close.
  const dragged = useRef(false);

  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    // Start on the close button: Enter or Escape leaves at once, Tab reaches the rest.
    closeButton.current?.focus();
  }, []);

  // A decision can remove the focused button (the item's actions change with its status): focus goes back
  // to the dialog, not to the inert page, so the next key still reaches the lightbox.
  useEffect(() => {
    const dialog = ref.current;
    if (dialog?.open && !dialog.contains(document.activeElement)) dialog.focus();
  });

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

  const close = () => ref.current?.close();
  const step = (delta: number) => {
    if (items.length > 1) onIndex((index + delta + items.length) % items.length);
  };
  const zoom = (on: boolean, point = FACE) => {
    zoomPoint.current = point;
    setZoomed(on);
  };
  const trigger = (action: LightboxAction) => {
    if (busy || !item) return;
    if (action.confirm) setConfirming({ key: item.key, action: action.id });
    else action.run();
  };

  // On the document, not the dialog: keys work wherever focus is inside the modal dialog, and even when
  // it fell to <body> for a moment because the focused button went away.
  const onKey = useEffectEvent((event: globalThis.KeyboardEvent) => {
    if (!item || event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    // A question is open: only its buttons (Enter) and Escape (onCancel) answer it.
    if (confirmAction) return;
    const key = event.key;
    const pan = PAN_KEYS[key];
    if (zoomed && pan && stage.current) {
      // At 100 % the arrows move the picture, as in any image viewer; Page Up/Down still change it.
      const box = stage.current;
      box.scrollBy({ left: pan[0] * box.clientWidth * 0.2, top: pan[1] * box.clientHeight * 0.2 });
    } else if (key === 'ArrowRight' || key === 'PageDown') step(1);
    else if (key === 'ArrowLeft' || key === 'PageUp') step(-1);
    else if (key === 'z' || key === 'Z') zoom(!zoomed);
    else if (key === '+' || key === '=') zoom(true);
    else if (key === '-') zoom(false);
    else {
      const action = actions.find((candidate) => candidate.keys?.includes(key));
      if (!action) return;
      // A key held down repeats: one decision per press.
      if (!event.repeat) trigger(action);
    }
    event.preventDefault();
  });
  useEffect(() => {
    const listener = (event: globalThis.KeyboardEvent) => onKey(event);
    document.addEventListener('keydown', listener);
    return () => document.removeEventListener('keydown', listener);
  }, []);

  // Escape answers an open question with "no" instead of closing the lightbox.
  const onCancel = (event: SyntheticEvent) => {
    if (!confirmAction) return;
    event.preventDefault();
    setConfirming(null);
  };
  // A click on the dark area around the image (the dialog itself) closes it.
  const onClick = (event: MouseEvent) => {
    if (event.target === event.currentTarget) close();
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

  if (!item) return null;
  const review = actions.length > 0 || notice || message || error;
  const noticeId = `${ids}-notice`;
  const keysId = `${ids}-keys`;
  return (
    <dialog
      ref={ref}
      className="admin-lightbox"
      aria-label={item.caption}
      aria-describedby={notice ? `${noticeId} ${keysId}` : keysId}
      tabIndex={-1}
      onClose={onClose}
      onCancel={onCancel}
      onClick={onClick}
      data-testid="lightbox"
      data-zoom={zoomed ? 'actual' : 'fit'}
    >
      <div className="admin-lightbox__bar">
        <p className="admin-lightbox__caption">
          <span className="admin-lightbox__name">{item.caption}</span>
          {item.badge && (
            <Badge tone={item.badge.tone} testId="lightbox-status">
              {item.badge.label}
            </Badge>
          )}
          {items.length > 1 && (
            <span className="admin-lightbox__count" data-testid="lightbox-position">
              ({index + 1} von {items.length})
            </span>
          )}
        </p>
        <div className="admin-lightbox__actions">
          {items.length > 1 && (
            <>
              <button
                type="button"
                className="button button--secondary button--small"
                onClick={() => step(-1)}
                aria-label="Vorheriges Bild"
                aria-keyshortcuts="ArrowLeft PageUp"
                data-testid="lightbox-previous"
              >
                ‹
              </button>
              <button
                type="button"
                className="button button--secondary button--small"
                onClick={() => step(1)}
                aria-label="Nächstes Bild"
                aria-keyshortcuts="ArrowRight PageDown"
                data-testid="lightbox-next"
              >
                ›
              </button>
            </>
          )}
          <button
            type="button"
            className="button button--secondary button--small admin-lightbox__zoom"
            onClick={() => zoom(!zoomed)}
            aria-keyshortcuts="Z"
            title={zoomed ? 'Ganzes Bild zeigen (Z oder −)' : 'Originalgröße, ein Bildpixel je Pixel (Z oder +)'}
            data-testid="lightbox-zoom"
          >
            {zoomed ? 'Einpassen' : '100\u00a0%'}
          </button>
          {item.downloadUrl && (
            <a className="button button--secondary button--small" href={item.downloadUrl} download>
              Herunterladen
            </a>
          )}
          <button ref={closeButton} type="button" className="button button--primary button--small" onClick={close} data-testid="lightbox-close">
            Schließen
          </button>
        </div>
      </div>
      <div
        ref={stage}
        className={`admin-lightbox__stage${zoomed ? ' admin-lightbox__stage--actual' : ''}`}
        onClick={onStageClick}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={endDrag}
        onPointerLeave={endDrag}
        onDragStart={(event) => event.preventDefault()}
        // At 100 % the stage scrolls: reachable by Tab, named, so its scrolling is announced and keyboard-usable.
        {...(zoomed ? { tabIndex: 0, role: 'region', 'aria-label': `${item.caption} in Originalgröße` } : {})}
        data-testid="lightbox-stage"
      >
        <SafeImage
          key={item.key}
          src={item.src}
          alt={item.alt}
          className="admin-lightbox__image"
          lazy={false}
          onLoad={() => {
            onViewed?.(item.key);
            if (zoomed) centre();
          }}
        />
      </div>
      {review && (
        <div className="admin-lightbox__review" aria-busy={busy}>
          <div className="admin-lightbox__notes">
            {notice && (
              <p id={noticeId} className="admin-lightbox__notice" data-testid="lightbox-notice">
                {notice}
              </p>
            )}
            <p className="admin-lightbox__message" role="status" data-testid="lightbox-message">
              {message}
            </p>
            {error && (
              <p className="admin-lightbox__error" role="alert" data-testid="lightbox-error">
                {error}
              </p>
            )}
          </div>
          {confirmAction?.confirm ? (
            <div className="admin-lightbox__confirm" role="alertdialog" aria-labelledby={`${ids}-question`}>
              <p id={`${ids}-question`}>{confirmAction.confirm.question}</p>
              {/* Focus on the answer: the key was the first step, Enter is the second; Escape says no. */}
              <button
                type="button"
                className="button button--danger button--small"
                onClick={() => {
                  setConfirming(null);
                  confirmAction.run();
                }}
                autoFocus
                data-testid={`${confirmAction.id}-confirm`}
              >
                {confirmAction.confirm.label}
              </button>
              <button type="button" className="button button--secondary button--small" onClick={() => setConfirming(null)} data-testid="lightbox-confirm-cancel">
                Abbrechen
              </button>
            </div>
          ) : (
            actions.length > 0 && (
              <div className="admin-lightbox__decisions">
                {actions.map((action) => (
                  <button
                    key={action.id}
                    type="button"
                    // aria-disabled, not disabled: a disabled button loses focus, and the keys would follow it out.
                    className={`button button--small button--${action.tone}`}
                    aria-disabled={busy || undefined}
                    aria-keyshortcuts={action.keys?.join(' ')}
                    onClick={() => trigger(action)}
                    data-testid={action.id}
                  >
                    {action.label}
                    {action.keyLabel && <kbd aria-hidden="true">{action.keyLabel}</kbd>}
                  </button>
                ))}
              </div>
            )
          )}
        </div>
      )}
      <p id={keysId} className="admin-lightbox__keys">
        {zoomed ? (
          <>
            <kbd>←</kbd> <kbd>→</kbd> <kbd>↑</kbd> <kbd>↓</kbd> verschieben · <kbd>Bild ↑</kbd> <kbd>Bild ↓</kbd> Bild wechseln ·{' '}
            <kbd>Z</kbd> oder <kbd>−</kbd> einpassen
          </>
        ) : (
          <>
            <kbd>←</kbd> <kbd>→</kbd> Bild wechseln · <kbd>Z</kbd> oder <kbd>+</kbd> 100 %
          </>
        )}{' '}
        · <kbd>Esc</kbd> schließen
      </p>
    </dialog>
  );
}
