import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { Link } from '../../components/link.js';
import { formatDate, formatShortDateTime } from '../../../domain/dates.js';
import { ORDER_ID_SHAPE } from '../../../domain/validation-rules.js';
import { ApiError, api } from '../../lib/api.js';
import { checkForm, loadChecksOnUse } from '../../lib/form-checks.js';
import { linkTarget } from '../../routes.js';
import { useI18n } from '../../lib/i18n.js';
import { orderAccessToken, rememberOrderAccess } from './order-access.js';
import { DownloadLink, OrderSummary, ProcessingInfo, ProgressSteps, ResultsGallery, StatusBanner, UploadsGallery, type OrderView } from './order-view.js';

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

/**
 * Redo before accepting: the customer picks pictures in the gallery (up to what the package still allows),
 * adds an optional reason and sends it; an open request shows its due time; staff's answers stay readable.
 */
export function Revision({ order, token, selected, onChange }: { order: OrderView; token: string; selected: string[]; onChange: (order: OrderView) => void }) {
  const { t, language } = useI18n();
  const [message, setMessage] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState(false);
  // Sent and not yet answered (the checks may still be loading): a second press does nothing.
  const sending = useRef(false);
  const { revision } = order;
  const answers = revision.answers.length > 0 && (
    <div data-testid="revision-answers">
      {revision.answers.map((answer) => (
        <div key={answer.at}>
          <p>{t('orderStatus.revision.answerFrom', { date: formatShortDateTime(answer.at, language) })}</p>
          <p className="revision__answer">{answer.message}</p>
        </div>
      ))}
    </div>
  );
  if (revision.current) {
    return (
      <section className="card" aria-labelledby="revision-title" data-testid="revision-open">
        <h2 id="revision-title">{t('orderStatus.revision.title')}</h2>
        {sent && <p role="status">{t('orderStatus.revision.sent')}</p>}
        <p>{t(revision.current.pictures === 1 ? 'orderStatus.revision.openOne' : 'orderStatus.revision.open', { n: revision.current.pictures })}</p>
        {revision.current.dueAt && revision.current.overdue ? (
          <p className="alert alert--info" data-testid="revision-overdue">
            {t('orderStatus.revision.overdue', { date: formatShortDateTime(revision.current.dueAt, language), support: order.contact.email })}
          </p>
        ) : (
          revision.current.dueAt && <p>{t('orderStatus.revision.due', { date: formatShortDateTime(revision.current.dueAt, language) })}</p>
        )}
        {revision.current.message && <p className="revision__answer">{revision.current.message}</p>}
        {answers}
      </section>
    );
  }
  if (!revision.allowedUntil) {
    return answers ? (
      <section className="card" aria-labelledby="revision-title">
        <h2 id="revision-title">{t('orderStatus.revision.title')}</h2>
        {answers}
      </section>
    ) : null;
  }
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (sending.current) return;
    sending.current = true;
    try {
      const checked = await checkForm((schemas) => schemas.revisionRequestSchema, { imageIds: selected, message });
      if (checked.status === 'unavailable') {
        setError(t('errors.network'));
        return;
      }
      if (checked.status === 'invalid') {
        const errors = checked.fields;
        setError(t(`orderStatus.revision.errors.${errors.imageIds ?? errors.message ?? 'picturesRequired'}`));
        return;
      }
      setBusy(true);
      try {
        const next = await api<OrderView>(`/api/orders/${order.orderId}/revision`, { method: 'POST', body: checked.data, headers: { 'x-status-token': token } });
        setSent(true);
        setMessage('');
        onChange(next);
      } catch (caught) {
        const code = caught instanceof ApiError ? caught.code : 'unknown';
        setError(REVISION_ERRORS.includes(code) ? t(`orderStatus.revision.errors.${code}`) : t(`errors.${code}`));
      } finally {
        setBusy(false);
      }
    } finally {
      sending.current = false;
    }
  };
  return (
    <section className="card" aria-labelledby="revision-title" data-testid="revision">
      <h2 id="revision-title">{t('orderStatus.revision.title')}</h2>
      {answers}
      {revision.remaining === 0 ? (
        <p>{t('orderStatus.revision.usedUp', { budget: revision.budget })}</p>
      ) : (
        <form onSubmit={submit} noValidate {...loadChecksOnUse}>
          <p>{t('orderStatus.revision.text', { date: formatDate(revision.allowedUntil, language), remaining: revision.remaining, budget: revision.budget })}</p>
          <p aria-live="polite" data-testid="redo-count">
            {t('orderStatus.revision.selected', { n: selected.length, max: revision.remaining })}
          </p>
          <div className="field">
            <label htmlFor="revision-message">{t('orderStatus.revision.label')}</label>
            <textarea
              id="revision-message"
              rows={3}
              maxLength={2000}
              value={message}
              onChange={(e) => {
                setMessage(e.target.value);
                setError(null);
              }}
            />
          </div>
          {error && (
            <p className="field__error" role="alert">
              {error}
            </p>
          )}
          <button type="submit" className="button button--secondary" disabled={busy} data-testid="redo-submit">
            {t('orderStatus.revision.submit')}
          </button>
        </form>
      )}
    </section>
  );
}

const REVISION_ERRORS = ['picturesRequired', 'redoBudgetExceeded', 'messageTooLong', 'invalidText', 'revisionNotAllowed'];

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
          {confirming ? (
            <div className="confirm" role="alertdialog" aria-labelledby="deletion-confirm-text">
              <p id="deletion-confirm-text">{t('orderStatus.deletion.confirmText')}</p>
              <div className="confirm__actions">
                <button type="button" className="button button--danger" onClick={() => void remove()} disabled={busy} data-testid="confirm-delete">
                  {t('orderStatus.deletion.confirm')}
                </button>
                <button type="button" className="button button--secondary" onClick={() => setConfirming(false)}>
                  {t('orderStatus.deletion.cancel')}
                </button>
              </div>
            </div>
          ) : (
            <button type="button" className="button button--secondary" onClick={() => setConfirming(true)} data-testid="delete-photos">
              {t('orderStatus.deletion.button')}
            </button>
          )}
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
      <div className="page page--narrow">
        <p className="alert alert--error">{t('orderStatus.noOrderId')}</p>
        <Link to="/" className="button button--secondary">
          {t('orderStatus.home')}
        </Link>
      </div>
    );
  }
  if (failed && !order) {
    return (
      <div className="page page--narrow">
        <p className="alert alert--error" role="alert">
          {t('orderStatus.loadError')}
        </p>
        <Link to="/" className="button button--secondary">
          {t('orderStatus.home')}
        </Link>
      </div>
    );
  }
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
