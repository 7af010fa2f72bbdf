import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { Link } from '../../components/link.js';
import { ApiError, api } from '../../lib/api.js';
import { checkForm, loadChecksOnUse } from '../../lib/form-checks.js';
import { useI18n } from '../../lib/i18n.js';
import { rememberOrderAccess, renewOrder } from './order-access.js';
import { OrderSummary, ProcessingInfo, ProgressSteps, ResultsGallery, StatusBanner, UploadsGallery, type OrderView } from './order-view.js';

/** Spec: after 5 searches the form is blocked for 15 minutes; a successful search resets the count. */
const LOCK = { attempts: 5, ms: 15 * 60 * 1000, key: 'tracking-attempts' };

interface Attempts {
  count: number;
  since: number;
  lockedUntil: number | null;
}

function readAttempts(): Attempts {
  try {
    const value = JSON.parse(localStorage.getItem(LOCK.key) ?? 'null') as Attempts | null;
    if (value && Date.now() - value.since < LOCK.ms) return value;
  } catch {
    // unreadable: start afresh
  }
  return { count: 0, since: Date.now(), lockedUntil: null };
}

function writeAttempts(value: Attempts | null) {
  try {
    if (value) localStorage.setItem(LOCK.key, JSON.stringify(value));
    else localStorage.removeItem(LOCK.key);
  } catch {
    // the server enforces the limit anyway
  }
}

export function TrackingPage() {
  const { t } = useI18n();
  const [params] = useSearchParams();
  const [orderId, setOrderId] = useState(params.get('order_id') ?? '');
  const [email, setEmail] = useState(params.get('email') ?? '');
  const [error, setError] = useState<string | null>(null);
  const [order, setOrder] = useState<OrderView | null>(null);
  const [searching, setSearching] = useState(false);
  // The order is under guard after many failed lookups: the answer says only that a link was mailed if it matched.
  const [linkSent, setLinkSent] = useState(false);
  // Sent here from the status page by a link that ran out or was revoked.
  const expiredLink = params.get('link') === 'expired';
  const [lockedUntil, setLockedUntil] = useState<number | null>(null);
  const autoSearched = useRef(false);
  const searchRunning = useRef(false);

  useEffect(() => {
    const attempts = readAttempts();
    // eslint-disable-next-line react-hooks/set-state-in-effect
    if (attempts.lockedUntil && attempts.lockedUntil > Date.now()) setLockedUntil(attempts.lockedUntil);
  }, []);

  useEffect(() => {
    if (!lockedUntil) return;
    const timer = setTimeout(() => setLockedUntil(null), Math.max(0, lockedUntil - Date.now()));
    return () => clearTimeout(timer);
  }, [lockedUntil]);

  const lock = (until: number) => {
    setLockedUntil(until);
    writeAttempts({ ...readAttempts(), lockedUntil: until });
    setError(t('tracking.errors.rateLimited'));
  };

  /** The form's checks of these values (loaded first): their parsed form, or why not in the page's words. */
  const checkValues = async (rawId: string, rawEmail: string): Promise<{ message: string } | { data: { orderId: string; email: string } }> => {
    const checked = await checkForm((schemas) => schemas.trackingFormSchema, { orderId: rawId, email: rawEmail });
    if (checked.status === 'unavailable') return { message: t('tracking.errors.loadError') };
    if (checked.status === 'invalid') {
      const fields = checked.fields;
      return { message: t(`tracking.errors.${fields._form ?? fields.orderId ?? fields.email ?? 'required'}`) };
    }
    return { data: checked.data };
  };

  const search = useCallback(
    /**
     * From the form, the values are checked first (the checks load with the form's first use). From a link (a
     * mail, the success page) they go to the server at once, which checks them with the same schema: the page
     * shows the order without waiting for the checks, and loads them only to explain a refusal.
     */
    async (rawId: string, rawEmail: string, fromLink = false) => {
      // One search at a time: a second press while the checks load or the answer is awaited does nothing.
      if (searchRunning.current) return;
      searchRunning.current = true;
      try {
        setError(null);
        setLinkSent(false);
        let body = { orderId: rawId, email: rawEmail };
        if (!fromLink) {
          const checked = await checkValues(rawId, rawEmail);
          if ('message' in checked) {
            setError(checked.message);
            return;
          }
          body = checked.data;
        }
        const attempts = readAttempts();
        if (attempts.lockedUntil && attempts.lockedUntil > Date.now()) {
          lock(attempts.lockedUntil);
          return;
        }
        setSearching(true);
        try {
          const result = await api<{ order: OrderView; statusToken: string } | { outcome: 'linkSent' }>('/api/tracking', { method: 'POST', body });
          if ('outcome' in result) {
            setOrder(null);
            setLinkSent(true);
            return;
          }
          writeAttempts(null);
          rememberOrderAccess(result.order.orderId, result.statusToken);
          setOrder(result.order);
        } catch (caught) {
          setOrder(null);
          const code = caught instanceof ApiError ? caught.code : 'loadError';
          if (code === 'validationFailed' && fromLink) {
            // The link's values are not an order's (cut short in a mail program, typed by hand): the form's own
            // words for why, and no failed search counted.
            const checked = await checkValues(rawId, rawEmail);
            setError('message' in checked ? checked.message : t('tracking.errors.loadError'));
            return;
          }
          if (code === 'rateLimited') {
            const seconds = caught instanceof ApiError ? Number(caught.details.retryAfterSeconds ?? 900) : 900;
            lock(Date.now() + seconds * 1000);
            return;
          }
          const next = { ...attempts, count: attempts.count + 1 };
          if (next.count >= LOCK.attempts) {
            writeAttempts(next);
            lock(Date.now() + LOCK.ms);
            return;
          }
          writeAttempts(next);
          setError(t(code === 'notFound' ? 'tracking.errors.notFound' : 'tracking.errors.loadError'));
        } finally {
          setSearching(false);
        }
      } finally {
        searchRunning.current = false;
      }
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t],
  );

  // Spec: order_id and email in the address fill the form and search at once.
  useEffect(() => {
    if (autoSearched.current) return;
    autoSearched.current = true;
    const id = params.get('order_id');
    const mail = params.get('email');
    // Searching is the point of this effect: the link in a mail or on the success page carries both fields.
    if (id && mail) void search(id, mail, true);
  }, [params, search]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void search(orderId, email);
  };

  // The timer above clears the lock when it runs out.
  const locked = lockedUntil !== null;
  return (
    <div className="page">
      <h1>{t('tracking.title')}</h1>
      <p className="page__lead">{t('tracking.subtitle')}</p>
      {expiredLink && !order && (
        <p className="alert alert--info" data-testid="track-link-expired">
          {t('tracking.linkExpired')}
        </p>
      )}
      <form className="track-form" onSubmit={submit} noValidate {...loadChecksOnUse}>
        <div className="field">
          <label htmlFor="track-order">{t('tracking.orderIdLabel')}</label>
          <input id="track-order" value={orderId} onChange={(e) => setOrderId(e.target.value)} autoComplete="off" spellCheck={false} maxLength={40} data-testid="track-order" />
        </div>
        <div className="field">
          <label htmlFor="track-email">{t('tracking.emailLabel')}</label>
          <input id="track-email" type="email" value={email} onChange={(e) => setEmail(e.target.value)} autoComplete="email" maxLength={260} data-testid="track-email" />
        </div>
        <button type="submit" className="button button--primary" disabled={searching || locked} data-testid="track-submit">
          {locked ? t('tracking.rateLimitedButton') : searching ? t('tracking.searching') : t('tracking.submit')}
        </button>
      </form>
      {error && (
        <p className="alert alert--error" role="alert" data-testid="track-error">
          {error}
        </p>
      )}
      {linkSent && (
        <p className="alert alert--info" role="status" data-testid="track-link-sent">
          {t('tracking.linkSent')}
        </p>
      )}
      {order && (
        <div className="track-result" data-testid="track-result">
          <StatusBanner status={order.status} />
          <ProgressSteps status={order.status} />
          <ResultsGallery
            order={order}
            renew={async () => {
              const fresh = await renewOrder(order.orderId, (url, token) => api<OrderView>(url, { headers: { 'x-status-token': token } }));
              if (fresh) setOrder(fresh);
              return fresh;
            }}
            onFavourite={async (imageId, favourite) => {
              const changed = await renewOrder(order.orderId, (url, token) =>
                api<OrderView>(`${url.replace(/\/status$/, '')}/results/${imageId}/favourite`, { method: 'POST', headers: { 'x-status-token': token }, body: { favourite } }),
              );
              if (changed) setOrder(changed);
            }}
          />
          <ProcessingInfo order={order} />
          <OrderSummary order={order} />
          <UploadsGallery order={order} />
          <p>
            <Link className="button button--secondary" to={`/order-status/${order.orderId}`} data-testid="to-status-page">
              {t('tracking.toStatusPage')}
            </Link>
          </p>
        </div>
      )}
    </div>
  );
}
