// Small building blocks of the back office: badges, error messages, images that may be missing, a page's heading
// and load state, cards that list something and their entries that open an order. The lightbox is in lightbox.tsx.
import { useState, type ReactNode } from 'react';
import { Link } from '../../components/link.js';

export function Badge({ tone, children, testId }: { tone: string; children: string; testId?: string }) {
  return (
    <span className={`admin-badge admin-badge--${tone}`} data-testid={testId}>
      {children}
    </span>
  );
}

/** An error message, read out at once. */
export function ErrorAlert({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <p className="alert alert--error" role="alert" data-testid={testId}>
      {children}
    </p>
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

/** A page's heading with the button that loads its data again. */
export function PageHead({ title, loading, onReload }: { title: string; loading: boolean; onReload: () => void }) {
  return (
    <div className="admin-page__head">
      <h1>{title}</h1>
      <button type="button" className="button button--secondary button--small" onClick={onReload} disabled={loading} aria-busy={loading}>
        Aktualisieren
      </button>
    </div>
  );
}

/** A page's data could not be loaded (`failure`), or is loading for the first time (`waiting`). */
export function LoadState(props: { failed: boolean; firstLoad: boolean; failure: string; waiting: string }) {
  return (
    <>
      {props.failed && <ErrorAlert>{props.failure}</ErrorAlert>}
      {props.firstLoad && (
        <p role="status" className="admin-muted">
          {props.waiting}
        </p>
      )}
    </>
  );
}

/**
 * A card that lists something: its heading, with the count unless `counted` is false, then the list (children),
 * or the `empty` note when there is nothing to list.
 */
export function ListCard(props: {
  /** The heading's id: the card is labelled by it. */
  id: string;
  title: string;
  count: number;
  counted?: boolean;
  empty: string;
  /** Something here needs staff: the card stands out. */
  alert?: boolean;
  testId?: string;
  /** After the count in the heading. */
  badge?: ReactNode;
  /** Between the heading and the list. */
  notice?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section className={`card admin-card${props.alert ? ' admin-card--alert' : ''}`} aria-labelledby={props.id} data-testid={props.testId}>
      <h2 id={props.id}>
        {props.counted === false ? (
          props.title
        ) : (
          <>
            {`${props.title} `}
            <span className="admin-count">({props.count})</span>
          </>
        )}
        {props.badge}
      </h2>
      {props.notice}
      {props.count === 0 ? <p className="admin-muted">{props.empty}</p> : props.children}
    </section>
  );
}

/**
 * An entry of a card's list that opens an order: the order's number, then what the card says of it (`main`, on
 * the same line, and children below). alert: the entry stands out; overdue: marked on the link (data-overdue).
 */
export function OrderEntry(props: { orderId: string; number: string; testId: string; alert?: boolean; overdue?: boolean; main?: ReactNode; children?: ReactNode }) {
  return (
    <li className={`admin-list__item${props.alert ? ' admin-list__item--alert' : ''}`}>
      <Link to={`/admin/orders/${props.orderId}`} className="admin-list__link" data-testid={props.testId} data-overdue={props.overdue}>
        <span className="admin-list__main">
          <strong className="admin-mono">{props.number}</strong>
          {props.main}
        </span>
        {props.children}
      </Link>
    </li>
  );
}
