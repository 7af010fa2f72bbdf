// The back office's full-screen view of one image, and the decisions staff take about it there.
import { useEffect, useEffectEvent, useId, useRef, useState, type MouseEvent, type ReactNode, type SyntheticEvent } from 'react';
import { SafeImage } from './admin-ui.js';
import { LightboxBar, LightboxKeys, LightboxReview } from './lightbox-parts.js';
import type { LightboxAction, LightboxItem } from './lightbox-types.js';
import { useLightboxStage } from './use-lightbox-stage.js';


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

/**
 * Full-screen view of one image. A modal <dialog> makes the page behind it inert (focus stays inside),
 * closes on Escape and gives focus back to the thumbnail that opened it. The image is fitted to the screen
 * or shown at 100 % (one image pixel per CSS pixel), where it scrolls: by mouse drag, wheel or the arrow keys.
 */
export function Lightbox({ items, index, onIndex, onClose, onViewed, actions = [], busy = false, notice, message, error }: LightboxProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const closeButton = useRef<HTMLButtonElement>(null);
  const ids = useId();
  const item = items[index];
  const close = () => ref.current?.close();
  const { stage, zoomed, zoom, fit, centre, pan, onStageClick, onPointerDown, onPointerMove, endDrag } = useLightboxStage(close);
  // A question about one picture (reject it?) is not one about the next.
  const [confirming, setConfirming] = useState<{ key: string; action: string } | null>(null);
  const [shownKey, setShownKey] = useState(item?.key);
  if (item && item.key !== shownKey) {
    setShownKey(item.key);
    fit();
    setConfirming(null);
  }
  const confirmAction = item && confirming?.key === item.key ? actions.find((action) => action.id === confirming.action) : undefined;

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

  const step = (delta: number) => {
    if (items.length > 1) onIndex((index + delta + items.length) % items.length);
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
    // At 100 % the arrows move the picture (pan); Page Up/Down still change it.
    if (!pan(key)) {
      if (key === 'ArrowRight' || key === 'PageDown') step(1);
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
      <LightboxBar item={item} index={index} count={items.length} zoomed={zoomed} onStep={step} onZoom={() => zoom(!zoomed)} onClose={close} closeButton={closeButton} />
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
        <LightboxReview
          ids={ids}
          noticeId={noticeId}
          notice={notice}
          message={message}
          error={error}
          busy={busy}
          actions={actions}
          confirmAction={confirmAction}
          onTrigger={trigger}
          onConfirm={(action) => {
            setConfirming(null);
            action.run();
          }}
          onDismiss={() => setConfirming(null)}
        />
      )}
      <LightboxKeys id={keysId} zoomed={zoomed} />
    </dialog>
  );
}
