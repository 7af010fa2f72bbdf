// Where the team order's payment stands: cancelled or not paid yet (with the way to pay), on its way back from
// the payment page, or paid (with the seats taken).
import { useState } from 'react';
import type { TeamView } from '../../../domain/team-rules.js';
import { useI18n } from '../../lib/i18n.js';
import { ApiError, api } from '../../lib/api.js';
import { useTeamErrorText } from './team-parts.js';

/** The payment page again for an order not paid yet (the server reuses an open session or opens a new one). */
function PayButton({ teamId, token }: { teamId: string; token: string }) {
  const { t } = useI18n();
  const errorText = useTeamErrorText();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const pay = async () => {
    setBusy(true);
    setError(null);
    try {
      const { url } = await api<{ url: string }>(`/api/teams/${teamId}/pay`, { method: 'POST', headers: { 'x-status-token': token } });
      window.location.assign(url);
    } catch (caught) {
      setError(errorText(caught instanceof ApiError ? caught.code : 'unknown'));
      setBusy(false);
    }
  };
  return (
    <div className="team-pay">
      <button type="button" className="button button--primary" onClick={() => void pay()} disabled={busy} data-testid="team-pay">
        {busy ? t('team.status.paying') : t('team.status.pay')}
      </button>
      {error && (
        <p className="field__error" role="alert" data-testid="team-pay-error">
          {error}
        </p>
      )}
    </div>
  );
}

export function PaymentBanner({ view, token, arrival, waiting }: { view: TeamView; token: string; arrival: { paid: boolean; cancelled: boolean }; waiting: boolean }) {
  const { t } = useI18n();
  if (view.paymentStatus === 'paid') {
    return (
      <div className="status-banner status-banner--green" data-testid="team-paid">
        <div>
          <p className="status-banner__label">{t('team.status.paid')}</p>
          <p className="status-banner__text">
            <span className="team-seats__text" data-testid="team-seats-used">
              {t('team.status.seats', { used: view.seatsUsed, seats: view.seats })}
            </span>
          </p>
        </div>
        <meter className="team-seats__meter" min={0} max={view.seats} value={view.seatsUsed} aria-label={t('team.status.seatsLabel')} />
      </div>
    );
  }
  if (arrival.cancelled) {
    return (
      <div className="status-banner status-banner--grey" role="status" data-testid="team-cancelled">
        <div>
          <p className="status-banner__label">{t('team.status.cancelled')}</p>
          <p className="status-banner__text">{t('team.status.payLater')}</p>
        </div>
        <PayButton teamId={view.orderId} token={token} />
      </div>
    );
  }
  return (
    <div className="status-banner status-banner--yellow" role="status" data-testid="team-confirming">
      {waiting && <span className="spinner" aria-hidden="true" />}
      <div>
        <p className="status-banner__label">{arrival.paid ? t('team.status.confirming') : t('errors.teamNotPaid')}</p>
        <p className="status-banner__text">{arrival.paid ? t('team.status.confirmingText') : t('team.status.payLater')}</p>
      </div>
      {!waiting && view.paymentStatus !== 'refunded' && <PayButton teamId={view.orderId} token={token} />}
    </div>
  );
}
