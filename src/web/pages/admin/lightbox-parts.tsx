// Parts of the lightbox (lightbox.tsx): its bar (caption, paging, zoom, download, close), the review panel with
// the decisions about the picture on show, and the line of keys.
import type { ReactNode, RefObject } from 'react';
import { Badge } from './admin-ui.js';
import type { LightboxAction, LightboxItem } from './lightbox-types.js';

export function LightboxBar({ item, index, count, zoomed, onStep, onZoom, onClose, closeButton }: {
  item: LightboxItem;
  index: number;
  count: number;
  zoomed: boolean;
  onStep: (delta: number) => void;
  onZoom: () => void;
  onClose: () => void;
  closeButton: RefObject<HTMLButtonElement | null>;
}) {
  return (
    <div className="admin-lightbox__bar">
      <p className="admin-lightbox__caption">
        <span className="admin-lightbox__name">{item.caption}</span>
        {item.badge && (
          <Badge tone={item.badge.tone} testId="lightbox-status">
            {item.badge.label}
          </Badge>
        )}
        {count > 1 && (
          <span className="admin-lightbox__count" data-testid="lightbox-position">
            ({index + 1} von {count})
          </span>
        )}
      </p>
      <div className="admin-lightbox__actions">
        {count > 1 && (
          <>
            <button
              type="button"
              className="button button--secondary button--small"
              onClick={() => onStep(-1)}
              aria-label="Vorheriges Bild"
              aria-keyshortcuts="ArrowLeft PageUp"
              data-testid="lightbox-previous"
            >
              ‹
            </button>
            <button
              type="button"
              className="button button--secondary button--small"
              onClick={() => onStep(1)}
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
          onClick={onZoom}
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
        <button ref={closeButton} type="button" className="button button--primary button--small" onClick={onClose} data-testid="lightbox-close">
          Schließen
        </button>
      </div>
    </div>
  );
}

/** Why the lightbox opened, the outcome of the last decision, and the decisions (or the question one asks first). */
export function LightboxReview(props: {
  ids: string;
  noticeId: string;
  notice?: ReactNode;
  message?: string | null;
  error?: string | null;
  busy: boolean;
  actions: LightboxAction[];
  /** The action whose question is open. */
  confirmAction: LightboxAction | undefined;
  onTrigger: (action: LightboxAction) => void;
  onConfirm: (action: LightboxAction) => void;
  onDismiss: () => void;
}) {
  const { ids, notice, message, error, busy, actions, confirmAction } = props;
  return (
    <div className="admin-lightbox__review" aria-busy={busy}>
      <div className="admin-lightbox__notes">
        {notice && (
          <p id={props.noticeId} className="admin-lightbox__notice" data-testid="lightbox-notice">
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
          <button type="button" className="button button--danger button--small" onClick={() => props.onConfirm(confirmAction)} autoFocus data-testid={`${confirmAction.id}-confirm`}>
            {confirmAction.confirm.label}
          </button>
          <button type="button" className="button button--secondary button--small" onClick={props.onDismiss} data-testid="lightbox-confirm-cancel">
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
                onClick={() => props.onTrigger(action)}
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
  );
}

export function LightboxKeys({ id, zoomed }: { id: string; zoomed: boolean }) {
  return (
    <p id={id} className="admin-lightbox__keys">
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
  );
}
