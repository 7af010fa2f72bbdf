// The parts of an order that tracking and the status page both show.
import { useState, type ReactNode } from 'react';
import type { CustomerOrderView } from '../../../domain/order-views.js';
import { formatMoney } from '../../../domain/money.js';
import { formatDate, formatShortDateTime } from '../../../domain/dates.js';
import { trackingStep } from '../../../domain/order-state.js';
import { DetailRows } from '../../components/details.js';
import { useI18n } from '../../lib/i18n.js';
import { InvoiceList } from './invoice-list.js';

export type OrderView = CustomerOrderView;

const KNOWN = ['created', 'paid', 'in_progress', 'completed', 'cancelled'];

/** Spec colours: completed green, in progress blue, paid yellow, everything else grey. */
export function StatusBanner({ status }: { status: string }) {
  const { t } = useI18n();
  const known = KNOWN.includes(status);
  const tone = status === 'completed' ? 'green' : status === 'in_progress' ? 'blue' : status === 'paid' ? 'yellow' : 'grey';
  return (
    <div className={`status-banner status-banner--${tone}`} data-testid="status-banner" data-status={status}>
      {status === 'in_progress' && <span className="spinner" aria-hidden="true" data-testid="spinner" />}
      <div>
        <p className="status-banner__label">{known ? t(`tracking.status.${status}.label`) : status}</p>
        <p className="status-banner__text">{known ? t(`tracking.status.${status}.description`) : t('tracking.status.unknown.description')}</p>
      </div>
    </div>
  );
}

/** Four steps: ordered, paid, processing, finished; cancelled is step 0 (spec). */
export function ProgressSteps({ status }: { status: string }) {
  const { t } = useI18n();
  const step = trackingStep(status);
  const steps = ['ordered', 'paid', 'processing', 'finished'] as const;
  return (
    <ol className="track-steps" aria-label={t('tracking.progressLabel')} data-testid="progress" data-step={step}>
      {steps.map((key, index) => (
        <li key={key} className={`track-steps__item${index < step ? ' track-steps__item--done' : ''}`} aria-current={index + 1 === step ? 'step' : undefined}>
          <span className="track-steps__dot" aria-hidden="true">
            {index + 1}
          </span>
          {t(`tracking.steps.${key}`)}
        </li>
      ))}
    </ol>
  );
}

/** Whether a signed link (its `exp`, in seconds) runs out within the next minute. */
function expiresSoon(href: string): boolean {
  const exp = Number(new URL(href, 'http://shop.invalid').searchParams.get('exp'));
  return Number.isFinite(exp) && exp > 0 && exp * 1000 < Date.now() + 60_000;
}

/**
 * A download button whose link renews itself: a page left open longer than the links live fetches fresh ones
 * first (`renew`) and then downloads; if that fails the spec's urlError says so. A link still fresh is followed
 * by the browser as it is.
 */
export function DownloadLink(props: { href: string; renew?: () => Promise<string | null>; className: string; testId?: string; children: ReactNode }) {
  const { t } = useI18n();
  const [failed, setFailed] = useState(false);
  const [busy, setBusy] = useState(false);
  return (
    <>
      <a
        className={props.className}
        href={props.href}
        download
        data-testid={props.testId}
        aria-busy={busy || undefined}
        onClick={(event) => {
          if (!props.renew || !expiresSoon(event.currentTarget.href)) return;
          event.preventDefault();
          setBusy(true);
          setFailed(false);
          void props
            .renew()
            .then((fresh) => {
              if (!fresh) return setFailed(true);
              const link = document.createElement('a');
              link.href = fresh;
              link.download = '';
              document.body.append(link);
              link.click();
              link.remove();
            })
            .finally(() => setBusy(false));
        }}
      >
        {props.children}
      </a>
      {failed && (
        <p className="alert alert--error" role="alert" data-testid="download-error">
          {t('tracking.errors.urlError')}
        </p>
      )}
    </>
  );
}

/** A result picture; when its link has run out it asks once for fresh links, then shows a placeholder. */
function ResultImage({ src, alt, renew }: { src: string; alt: string; renew?: () => Promise<unknown> }) {
  const { t } = useI18n();
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const [renewed, setRenewed] = useState(false);
  if (failedSrc === src && (renewed || !renew)) {
    return (
      <div className="gallery__placeholder" role="img" aria-label={alt} data-testid="image-placeholder">
        {t('tracking.results.imageError')}
      </div>
    );
  }
  return (
    <img
      src={src}
      alt={alt}
      loading="lazy"
      width={240}
      height={300}
      onError={() => {
        setFailedSrc(src);
        if (renew && !renewed) {
          setRenewed(true);
          void renew();
        }
      }}
    />
  );
}

/** A heart that marks a picture as a favourite (kept on the order, shown to staff). */
function FavouriteButton({ favourite, n, onChange }: { favourite: boolean; n: number; onChange: (favourite: boolean) => Promise<void> }) {
  const { t } = useI18n();
  const [busy, setBusy] = useState(false);
  return (
    <button
      type="button"
      className={`favourite${favourite ? ' favourite--on' : ''}`}
      aria-pressed={favourite}
      aria-label={t('tracking.results.favourite', { n })}
      disabled={busy}
      data-testid="favourite"
      onClick={() => {
        setBusy(true);
        void onChange(!favourite).finally(() => setBusy(false));
      }}
    >
      <span aria-hidden="true">{favourite ? '♥' : '♡'}</span>
    </button>
  );
}

/** The pictures chosen for a redo, and how many the package still allows. */
export interface RedoChoice {
  selected: string[];
  max: number;
  toggle: (imageId: string) => void;
}

export function ResultsGallery({
  order,
  renew,
  onFavourite,
  redo,
}: {
  order: OrderView;
  renew?: () => Promise<OrderView | null>;
  /** Where the page may change the order (status page, tracking): marks a picture as a favourite or no longer. */
  onFavourite?: (imageId: string, favourite: boolean) => Promise<void>;
  /** While a redo can be asked for (status page): the pictures chosen to be made again. */
  redo?: RedoChoice;
}) {
  const { t } = useI18n();
  if (!order.results.length) return null;
  return (
    <section className="card" aria-labelledby="results-title">
      <div className="card__head">
        <h2 id="results-title">{t('tracking.results.title')}</h2>
        {order.zipUrl && (
          <DownloadLink className="button button--primary" href={order.zipUrl} renew={renew && (async () => (await renew())?.zipUrl ?? null)} testId="download-all">
            {t('tracking.results.downloadAll')}
          </DownloadLink>
        )}
      </div>
      {order.formatZips.length > 0 && (
        <p className="gallery__zips" data-testid="format-zips">
          <span>{t('tracking.results.zipByFormat')}</span>
          {order.formatZips.map((zip) => (
            <DownloadLink
              key={zip.format}
              className="button button--secondary button--small"
              href={zip.url}
              renew={renew && (async () => (await renew())?.formatZips.find((fresh) => fresh.format === zip.format)?.url ?? null)}
              testId={`download-zip-${zip.format}`}
            >
              {t('tracking.results.zipFormat', { format: t(`tracking.results.format.${zip.format}`), n: zip.count })}
            </DownloadLink>
          ))}
        </p>
      )}
      <ul className="gallery">
        {order.results.map((result) => (
          <li key={result.id} className="gallery__item" data-testid="result" data-format={result.format ?? ''} data-favourite={result.favourite}>
            <div className="gallery__frame">
              <ResultImage src={result.url} alt={t('tracking.results.alt', { n: result.n })} renew={renew} />
              {onFavourite && <FavouriteButton favourite={result.favourite} n={result.n} onChange={(favourite) => onFavourite(result.id, favourite)} />}
            </div>
            <p className="gallery__caption">
              {result.redo && (
                <span className="badge badge--info" data-testid="redo-badge">
                  {t('tracking.results.redoing')}
                </span>
              )}
              {result.format ? <span data-testid="result-format">{t(`tracking.results.format.${result.format}`)}</span> : null}
              <a href={result.url} target="_blank" rel="noopener noreferrer" data-testid="full-size">
                {t('tracking.results.fullSize')}
              </a>
            </p>
            <DownloadLink
              className="button button--secondary button--small"
              href={result.downloadUrl}
              renew={renew && (async () => (await renew())?.results.find((fresh) => fresh.id === result.id)?.downloadUrl ?? null)}
              testId="download-one"
            >
              {t('tracking.results.download', { n: result.n })}
            </DownloadLink>
            {redo && (
              <label className="gallery__redo">
                <input
                  type="checkbox"
                  checked={redo.selected.includes(result.id)}
                  disabled={!redo.selected.includes(result.id) && redo.selected.length >= redo.max}
                  onChange={() => redo.toggle(result.id)}
                  data-testid="redo-pick"
                />
                {t('tracking.results.redoPick', { n: result.n })}
              </label>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

export function ProcessingInfo({ order }: { order: OrderView }) {
  const { t, language } = useI18n();
  if (order.status === 'completed' || order.status === 'cancelled' || !order.deliveryHours) return null;
  // Paid, then the photos deleted: the job stopped, staff see it on their dashboard and get in touch. No due
  // time is promised any more.
  if (order.photosDeletedAt && order.dueAt) {
    return (
      <section className="card" aria-labelledby="processing-title">
        <h2 id="processing-title">{t('tracking.processing.title')}</h2>
        <p className="alert alert--info" data-testid="photos-deleted-in-production">
          {t('tracking.processing.photosDeleted')}
        </p>
      </section>
    );
  }
  return (
    <section className="card" aria-labelledby="processing-title">
      <h2 id="processing-title">{t('tracking.processing.title')}</h2>
      <p>
        {t('tracking.processing.delivery', { hours: order.deliveryHours })} {t('common.businessHoursRule')}
      </p>
      {order.dueAt && order.overdue ? (
        <p className="alert alert--info" data-testid="order-overdue">
          {t('tracking.processing.overdue', { date: formatShortDateTime(order.dueAt, language), support: order.contact.email })}
        </p>
      ) : order.dueAt ? (
        <p>{t('tracking.processing.due', { date: formatShortDateTime(order.dueAt, language) })}</p>
      ) : (
        <p>{t('tracking.processing.unpaid')}</p>
      )}
      {order.status === 'in_progress' && !order.overdue && <p>{t('tracking.processing.working')}</p>}
    </section>
  );
}

export function OrderSummary({ order }: { order: OrderView }) {
  const { t, language } = useI18n();
  const rows: [string, string][] = [
    [t('tracking.summary.orderNumber'), order.orderNumber],
    [t('tracking.summary.orderedAt'), formatDate(order.createdAt, language)],
    ...(order.package ? ([[t('tracking.summary.package'), t(`catalog.packages.${order.package}.name`)]] as [string, string][]) : []),
    ...(order.resultCount ? ([[t('tracking.summary.photos'), String(order.resultCount)]] as [string, string][]) : []),
    ...(order.style ? ([[t('tracking.summary.style'), t(`catalog.styles.${order.style}.name`)]] as [string, string][]) : []),
    ...(order.location ? ([[t('tracking.summary.location'), t(`catalog.locations.${order.location}.name`)]] as [string, string][]) : []),
    ...(order.outfit ? ([[t('tracking.summary.outfit'), t(`catalog.outfits.${order.outfit}.name`)]] as [string, string][]) : []),
    ...(order.totalCents !== null ? ([[t('tracking.summary.total'), formatMoney(order.totalCents)]] as [string, string][]) : []),
  ];
  const features = (['hd', 'extraVariants', 'expressDelivery', 'commercialLicense'] as const).filter((key) => order.features[key]);
  return (
    <div className="card-grid">
      <section className="card" aria-labelledby="summary-title">
        <h2 id="summary-title">{t('tracking.summary.title')}</h2>
        <DetailRows rows={rows} />
      </section>
      <section className="card" aria-labelledby="features-title">
        <h2 id="features-title">{t('tracking.features.title')}</h2>
        <ul className="check-list" data-testid="features">
          {features.map((key) => (
            <li key={key}>{t(`tracking.features.${key}`)}</li>
          ))}
        </ul>
      </section>
      {order.invoices.length > 0 && (
        <section className="card" aria-labelledby="invoices-title">
          <h2 id="invoices-title">{t('tracking.invoices.title')}</h2>
          <InvoiceList
            invoices={order.invoices}
            testId="invoices"
            itemTestId="invoice-download"
            meta={(invoice) => (
              <>
                {formatDate(invoice.issuedAt, language)} · {formatMoney(invoice.grossCents)}
              </>
            )}
          />
          <p className="card__hint">{t('tracking.invoices.hint')}</p>
        </section>
      )}
    </div>
  );
}

export function UploadsGallery({ order }: { order: OrderView }) {
  const { t } = useI18n();
  if (order.status === 'completed' || !order.uploads.length) return null;
  return (
    <section className="card" aria-labelledby="uploads-title">
      <h2 id="uploads-title">{t('tracking.uploads.title')}</h2>
      <ul className="thumbs thumbs--small">
        {order.uploads.map((upload) => (
          <li key={upload.id} className="thumb">
            <img src={upload.thumbnailUrl} alt={t('tracking.uploads.alt', { name: upload.fileName })} width={96} height={96} loading="lazy" />
          </li>
        ))}
      </ul>
    </section>
  );
}
