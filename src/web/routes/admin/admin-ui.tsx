// Small building blocks of the back office: badges, images that may be missing, the lightbox.
import { useEffect, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';

export function Badge({ tone, children, testId }: { tone: string; children: string; testId?: string }) {
  return (
    <span className={`admin-badge admin-badge--${tone}`} data-testid={testId}>
      {children}
    </span>
  );
}

/** An image from a signed, expiring link: a missing or expired file shows a placeholder box instead. */
export function SafeImage(props: { src: string; alt: string; className?: string; width?: number; height?: number; lazy?: boolean }) {
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
}

/**
 * Full-screen view of one image. A modal <dialog> makes the page behind it inert (focus stays inside),
 * closes on Escape and gives focus back to the thumbnail that opened it.
 */
export function Lightbox({ items, index, onIndex, onClose }: { items: LightboxItem[]; index: number; onIndex: (index: number) => void; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const closeButton = useRef<HTMLButtonElement>(null);
  const item = items[index];

  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    // Start on the close button: Enter or Escape leaves at once, Tab reaches the rest.
    closeButton.current?.focus();
  }, []);

  const close = () => ref.current?.close();
  const step = (delta: number) => {
    if (items.length > 1) onIndex((index + delta + items.length) % items.length);
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowRight') step(1);
    else if (event.key === 'ArrowLeft') step(-1);
  };
  // A click on the dark area around the image (the dialog itself) closes it.
  const onClick = (event: MouseEvent) => {
    if (event.target === event.currentTarget) close();
  };

  if (!item) return null;
  return (
    <dialog ref={ref} className="admin-lightbox" aria-label={item.caption} onClose={onClose} onKeyDown={onKeyDown} onClick={onClick} data-testid="lightbox">
      <div className="admin-lightbox__bar">
        <p className="admin-lightbox__caption">
          {item.caption}
          {items.length > 1 && (
            <span className="admin-lightbox__count">
              {' '}
              ({index + 1} von {items.length})
            </span>
          )}
        </p>
        <div className="admin-lightbox__actions">
          {items.length > 1 && (
            <>
              <button type="button" className="button button--secondary button--small" onClick={() => step(-1)} aria-label="Vorheriges Bild">
                ‹
              </button>
              <button type="button" className="button button--secondary button--small" onClick={() => step(1)} aria-label="Nächstes Bild">
                ›
              </button>
            </>
          )}
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
      <div className="admin-lightbox__stage" onClick={onClick}>
        <SafeImage key={item.key} src={item.src} alt={item.alt} className="admin-lightbox__image" lazy={false} />
      </div>
    </dialog>
  );
}
