import { useCallback, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Link } from '../../components/link.js';
import { formatMoney } from '../../../domain/money.js';
import { PageLink } from '../../components/page-link.js';
import { ApiError, api } from '../../lib/api.js';
import { useI18n } from '../../lib/i18n.js';
import { WIZARD_STORAGE_KEY, clearWizard } from './wizard-state.js';

interface Confirmation {
  orderId: string;
  orderNumber: string;
  email: string | null;
  package: string | null;
  totalCents: number | null;
  status: string;
  paymentStatus: string;
  paidAt: string | null;
}

function draftTokenFor(orderId: string): string | null {
  try {
    const raw = sessionStorage.getItem(WIZARD_STORAGE_KEY);
    const state = raw ? (JSON.parse(raw) as { orderId?: string; draftToken?: string }) : null;
    return state?.orderId === orderId ? (state.draftToken ?? null) : null;
  } catch {
    return null;
  }
}

/** Shows what the server knows about the payment; it never tells the server anything. */
export function SuccessPage() {
  const { t } = useI18n();
  const [params] = useSearchParams();
  const orderId = params.get('order_id') ?? '';
  const sessionId = params.get('session_id') ?? '';
  const [order, setOrder] = useState<Confirmation | null>(null);
  const [failed, setFailed] = useState(false);
  const [refreshing, setRefreshing] = useState(false);
  const [token] = useState(() => (typeof window === 'undefined' ? null : draftTokenFor(orderId)));

  const load = useCallback(
    async (refresh: boolean) => {
      const query = sessionId ? `?session_id=${encodeURIComponent(sessionId)}` : '';
      const headers: Record<string, string> = token ? { 'x-draft-token': token } : {};
      return api<Confirmation>(`/api/orders/${encodeURIComponent(orderId)}/confirmation${refresh ? '/refresh' : ''}${query}`, {
        method: refresh ? 'POST' : 'GET',
        headers,
      });
    },
    [orderId, sessionId, token],
  );

  useEffect(() => {
    if (!orderId) return;
    let active = true;
    load(false)
      .then(async (first) => {
        if (!active) return;
        setOrder(first);
        // The provider's event may arrive a moment after the customer: ask the server to look again once.
        if (first.paymentStatus !== 'paid') {
          await new Promise((r) => setTimeout(r, 1500));
          const second = await load(true);
          if (active) setOrder(second);
        }
      })
      .catch((error: unknown) => {
        if (active) setFailed(error instanceof ApiError || true);
      })
      .finally(() => clearWizard());
    return () => {
      active = false;
    };
  }, [orderId, load]);

  const refresh = async () => {
    setRefreshing(true);
    try {
      setOrder(await load(true));
    } catch {
      setFailed(true);
    } finally {
      setRefreshing(false);
    }
  };

  if (!orderId) {
    return (
      <section className="page page--narrow">
        <h1>{t('order.success.errorTitle')}</h1>
        <p className="alert alert--error">{t('order.success.noOrder')}</p>
        <Link to="/" className="button button--secondary">
          {t('order.success.home')}
        </Link>
      </section>
    );
  }

  const paid = order?.paymentStatus === 'paid';
  return (
    <section className="page page--narrow success" data-testid="success">
      <h1>{paid ? t('order.success.title') : t('order.success.titlePending')}</h1>
      {failed && !order && (
        <p className="alert alert--error" role="alert">
          {t('order.success.loadError', { id: orderId })}
        </p>
      )}
      {order && (
        <>
          <p className={`status-pill status-pill--${order.paymentStatus}`} data-testid="payment-status">
            {t(`order.success.payment.${order.paymentStatus}`)}
          </p>
          {!paid && order.paymentStatus === 'pending' && <p>{t('order.success.pendingText')}</p>}
          {order.paymentStatus === 'failed' && (
            <p>
              {t('order.success.failedText')} <Link to="/order/summary">{t('order.success.retry')}</Link>
            </p>
          )}
          <dl className="summary__details">
            <div className="summary__row">
              <dt>{t('order.success.orderNumber')}</dt>
              <dd data-testid="order-number">{order.orderNumber}</dd>
            </div>
            {order.email && (
              <div className="summary__row">
                <dt>{t('order.success.email')}</dt>
                <dd>{order.email}</dd>
              </div>
            )}
            {order.package && (
              <div className="summary__row">
                <dt>{t('order.success.package')}</dt>
                <dd>{t(`catalog.packages.${order.package}.name`)}</dd>
              </div>
            )}
            {order.totalCents !== null && (
              <div className="summary__row">
                <dt>{t('order.success.total')}</dt>
                <dd>{formatMoney(order.totalCents)}</dd>
              </div>
            )}
          </dl>
          {order.email && <p>{t('order.success.mailNote', { email: order.email })}</p>}
          {!paid && (
            <button type="button" className="button button--secondary" onClick={() => void refresh()} disabled={refreshing} data-testid="refresh-payment">
              {t('order.success.refresh')}
            </button>
          )}
        </>
      )}
      <div className="success__links">
        {order ? (
          <Link to={`/tracking?order_id=${encodeURIComponent(order.orderId)}${order.email ? `&email=${encodeURIComponent(order.email)}` : ''}`} className="button button--primary" data-testid="to-tracking">
            {t('order.success.toTracking')}
          </Link>
        ) : (
          <PageLink to="tracking" className="button button--primary">
            {t('order.success.toTracking')}
          </PageLink>
        )}
        <Link to="/" className="button button--secondary">
          {t('order.success.home')}
        </Link>
      </div>
    </section>
  );
}
