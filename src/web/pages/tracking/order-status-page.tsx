import { useCallback, useEffect, useState } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { Link } from '../../components/link.js';
import { formatDate, formatShortDateTime } from '../../../domain/dates.js';
import { ORDER_ID_SHAPE } from '../../../domain/validation-rules.js';
import { ApiError, api } from '../../lib/api.js';
import { linkTarget } from '../../routes.js';
import { useI18n } from '../../lib/i18n.js';
import { ConfirmedButton } from '../../components/confirm-box.js';
import { orderAccessToken, rememberOrderAccess } from './order-access.js';
import { Revision } from './order-revision.js';
import { DownloadLink, OrderSummary, ProcessingInfo, ProgressSteps, ResultsGallery, StatusBanner, UploadsGallery, type OrderView } from './order-view.js';
import { ProblemPage } from '../../components/problem-page.js';

const HISTORY_EVENTS = [
  'order_created',
  'order_placed',
  'payment_pending',
  'payment_received',
  'payment_failed',
  'checkout_expired',
  'status_changed',
  'revision_requested',
  'revision_answered',
  'photos_deleted',
  'photos_deleted_by_customer',
  'production_started',
  'refund_requested',
  'refund_confirmed',
  'refund_failed',
  'withdrawal_received',
];

function History({ order }: { order: OrderView }) {
  const { t, language } = useI18n();
  return (
    <section className="card" aria-labelledby="history-title">
      <h2 id="history-title">{t('orderStatus.history.title')}</h2>
      <ol className="history" data-testid="history">
        {order.history.map((entry, index) => (
          <li key={`${entry.at}-${index}`} className="history__item">
            <time dateTime={entry.at}>{formatShortDateTime(entry.at, language)}</time>
            <span>
              {HISTORY_EVENTS.includes(entry.event) ? t(`orderStatus.history.${entry.event}`) : t('orderStatus.history.unknown')}
              {entry.event === 'status_changed' && entry.toStatus ? `: ${t(`tracking.status.${entry.toStatus}.label`)}` : ''}
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}

function Deletion({ order, token, onChange }: { order: OrderView; token: string; onChange: (order: OrderView, token: string) => void }) {
  const { t, language } = useI18n();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const remove = async () => {
    setBusy(true);
    try {
      // Deleting revokes every earlier link to this order; the answer brings this page a new one.
      const result = await api<{ order: OrderView; statusToken: string }>(`/api/orders/${order.orderId}/delete-photos`, { method: 'POST', body: { confirm: true }, headers: { 'x-status-token': token } });
      onChange(result.order, result.statusToken);
      setConfirming(false);
    } catch (caught) {
      setError(t(`errors.${caught instanceof ApiError ? caught.code : 'unknown'}`));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="card" aria-labelledby="deletion-title">
      <h2 id="deletion-title">{t('orderStatus.deletion.title')}</h2>
      {order.photosDeletedAt ? (
        <p data-testid="deleted-note">{t('orderStatus.deletion.deleted', { date: formatDate(order.photosDeletedAt, language) })}</p>
      ) : (
        <>
          {order.photosDeleteAfter && <p data-testid="deletion-date">{t('orderStatus.deletion.scheduled', { date: formatDate(order.photosDeleteAfter, language) })}</p>}
          <ConfirmedButton
            open={confirming}
            onOpen={setConfirming}
            button={{ label: t('orderStatus.deletion.button'), className: 'button button--secondary', testId: 'delete-photos' }}
            question={{ id: 'deletion-confirm-text', text: t('orderStatus.deletion.confirmText') }}
            confirm={{ label: t('orderStatus.deletion.confirm'), testId: 'confirm-delete', onClick: () => void remove(), disabled: busy }}
            cancelLabel={t('orderStatus.deletion.cancel')}
          />
          {error && (
            <p className="alert alert--error" role="alert">
              {error}
            </p>
          )}
        </>
      )}
    </section>
  );
}

export function OrderStatusPage() {
  const { t } = useI18n();
  const { id = '' } = useParams();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [token, setToken] = useState<string | null>(null);
  const [order, setOrder] = useState<OrderView | null>(null);
  const [failed, setFailed] = useState(false);
  const [loading, setLoading] = useState(false);
  const [redoPicks, setRedoPicks] = useState<string[]>([]);
  const validId = ORDER_ID_SHAPE.test(id);

  const load = useCallback(
    async (proof: string) => {
      setLoading(true);
      try {
        setOrder(await api<OrderView>(`/api/orders/${id}/status`, { headers: { 'x-status-token': proof } }));
        setFailed(false);
      } catch (caught) {
        // Without a valid proof the visitor goes to tracking, which asks for the e-mail (and says why when the
        // link ran out or was revoked by deleting the photos).
        if (caught instanceof ApiError && caught.code === 'linkExpired') navigate(`/tracking?order_id=${encodeURIComponent(id)}&link=expired`, { replace: true });
        else if (caught instanceof ApiError && caught.status === 404) navigate(`/tracking?order_id=${encodeURIComponent(id)}`, { replace: true });
        else setFailed(true);
      } finally {
        setLoading(false);
      }
    },
    [id, navigate],
  );

  useEffect(() => {
    if (!validId) return;
    const fromLink = params.get('token');
    const proof = fromLink ?? orderAccessToken(id);
    if (!proof) {
      navigate(`/tracking?order_id=${encodeURIComponent(id)}`, { replace: true });
      return;
    }
    if (fromLink) rememberOrderAccess(id, fromLink);
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setToken(proof);
    void load(proof);
  }, [id, validId, params, navigate, load]);

  if (!validId) {
    return (
      <ProblemPage announce={false} home={t('orderStatus.home')}>
        {t('orderStatus.noOrderId')}
      </ProblemPage>
    );
  }
  if (failed && !order) return <ProblemPage home={t('orderStatus.home')}>{t('orderStatus.loadError')}</ProblemPage>;
  if (!order || !token) return <div className="page page-loading" aria-busy="true" />;
  // Fresh links for the downloads and pictures of a page left open longer than they live.
  const renew = async () => {
    try {
      const fresh = await api<OrderView>(`/api/orders/${id}/status`, { headers: { 'x-status-token': token } });
      setOrder(fresh);
      return fresh;
    } catch {
      return null;
    }
  };
  // A download link opened from elsewhere that had run out or failed came back here (customer-orders/routes.ts).
  const downloadProblem = params.get('download');

  return (
    <div className="page" data-testid="order-status">
      <header className="status-header">
        <h1>{t('orderStatus.title', { number: order.orderNumber })}</h1>
        <div className="status-header__actions">
          <button type="button" className="button button--secondary" onClick={() => void load(token)} disabled={loading} data-testid="refresh-status">
            {t('orderStatus.refresh')}
          </button>
          {order.status === 'completed' && order.zipUrl && (
            <DownloadLink className="button button--primary" href={order.zipUrl} renew={async () => (await renew())?.zipUrl ?? null}>
              {t('orderStatus.downloadAll')}
            </DownloadLink>
          )}
          {linkTarget('orderStart') && (
            <Link className="button button--secondary" to={linkTarget('orderStart')!}>
              {t('orderStatus.newOrder')}
            </Link>
          )}
        </div>
      </header>
      {(downloadProblem === 'link' || downloadProblem === 'failed') && (
        <p className="alert alert--error" role="alert" data-testid="download-problem">
          {t(downloadProblem === 'link' ? 'tracking.errors.urlError' : 'tracking.errors.downloadError')} {t('tracking.results.freshLinks')}
        </p>
      )}
      <StatusBanner status={order.status} />
      <ProgressSteps status={order.status} />
      <ResultsGallery
        order={order}
        renew={renew}
        onFavourite={async (imageId, favourite) => {
          setOrder(await api<OrderView>(`/api/orders/${id}/results/${imageId}/favourite`, { method: 'POST', headers: { 'x-status-token': token }, body: { favourite } }));
        }}
        redo={
          order.revision.allowedUntil && !order.revision.current && order.revision.remaining > 0
            ? { selected: redoPicks, max: order.revision.remaining, toggle: (imageId) => setRedoPicks((picks) => (picks.includes(imageId) ? picks.filter((p) => p !== imageId) : [...picks, imageId])) }
            : undefined
        }
      />
      <Revision
        order={order}
        token={token}
        selected={redoPicks}
        onChange={(next) => {
          setRedoPicks([]);
          setOrder(next);
        }}
      />
      <ProcessingInfo order={order} />
      <OrderSummary order={order} />
      <UploadsGallery order={order} />
      <History order={order} />
      <Deletion
        order={order}
        token={token}
        onChange={(next, nextToken) => {
          setOrder(next);
          setToken(nextToken);
          rememberOrderAccess(next.orderId, nextToken);
          // The mail's link in the address no longer works: keep the page on the new one.
          if (params.get('token')) navigate(`/order-status/${next.orderId}`, { replace: true });
        }}
      />
      <section className="card" aria-labelledby="contact-title">
        <h2 id="contact-title">{t('orderStatus.contact.title')}</h2>
        <p>
          {t('orderStatus.contact.text')} <a href={`mailto:${order.contact.email}?subject=${encodeURIComponent(order.orderNumber)}`}>{order.contact.email}</a>
          {order.contact.phone && (
            <>
              {' · '}
              <a href={`tel:${order.contact.phone.replace(/[^+\d]/g, '')}`}>{order.contact.phone}</a>
            </>
          )}
        </p>
        <p>
          <Link to={`/widerruf?order=${encodeURIComponent(order.orderNumber)}`} data-testid="status-withdrawal">
            {t('withdrawal.footerLink')}
          </Link>
        </p>
      </section>
    </div>
  );
}
