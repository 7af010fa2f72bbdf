// Money back, from the order: the invoices, refunds asked for and confirmed, and a form for a new one.
// A refund counts only when the payment provider confirms it; in the sandbox, staff play that answer.
import { useState, type FormEvent } from 'react';
import { formatMoney } from '../../../domain/money.js';
import { seatRefundCents } from '../../../domain/pricing.js';
import type { AdminOrderDetail } from '../../../domain/staff-api.js';
import { Badge, ErrorAlert } from './admin-ui.js';
import { formatDateTime } from './admin-format.js';
import { toApiError, useStaff } from './staff-session.js';
import { useAdminQuery } from './use-admin-query.js';

interface RefundState {
  refunds: { id: string; amountCents: number; seats: number | null; reason: string | null; status: 'requested' | 'succeeded' | 'failed'; providerRefundId: string | null; requestedAt: string; confirmedAt: string | null; failureReason: string | null }[];
  invoices: { id: string; number: string; kind: 'invoice' | 'cancellation'; issuedAt: string; grossCents: number }[];
  sandbox: boolean;
}

const STATUS = { requested: { label: 'Angefordert – wartet auf den Zahlungsanbieter', tone: 'yellow' }, succeeded: { label: 'Erstattet', tone: 'green' }, failed: { label: 'Fehlgeschlagen', tone: 'red' } } as const;

const REFUND_ERRORS: Record<string, string> = {
  refundTooLarge: 'Mehr als bezahlt (abzüglich offener Erstattungen) kann nicht erstattet werden.',
  refundFailed: 'Der Zahlungsanbieter hat die Erstattung abgelehnt.',
  refundUncertain: 'Der Zahlungsanbieter hat nicht geantwortet. Die Erstattung bleibt angefordert; bitte mit „Erneut senden“ wiederholen – es wird nie doppelt erstattet.',
  refundAlreadySent: 'Diese Erstattung liegt dem Zahlungsanbieter bereits vor.',
  notRefundable: 'Diese Bestellung kann nicht erstattet werden (nicht bezahlt oder keine Zahlung beim Anbieter bekannt).',
  seatsInUse: 'So viele Plätze sind nicht frei: Beigetretene Teammitglieder behalten ihren Platz, und ein Platz bleibt immer (das ganze Team erstatten Sie über den Betrag).',
  notATeamOrder: 'Plätze gibt es nur bei Teambestellungen.',
};

function parseEuro(value: string): number | null {
  const match = /^\s*(\d{1,6})(?:[,.](\d{1,2}))?\s*(?:€)?\s*$/.exec(value);
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '0').padEnd(2, '0'));
}

export function RefundCard({ detail, onChange }: { detail: AdminOrderDetail; onChange: () => void }) {
  const { request } = useStaff();
  const query = useAdminQuery<RefundState>(`/api/admin/orders/${detail.order.id}/refunds`);
  const [amount, setAmount] = useState('');
  const [seats, setSeats] = useState('');
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const state = query.data;
  const total = detail.order.totalCents ?? 0;
  const refunded = state?.refunds.filter((r) => r.status === 'succeeded').reduce((sum, r) => sum + r.amountCents, 0) ?? 0;
  const open = state?.refunds.filter((r) => r.status === 'requested').reduce((sum, r) => sum + r.amountCents, 0) ?? 0;
  const refundable = Math.max(0, total - refunded - open);
  const canRefund = detail.order.paymentStatus === 'paid' && refundable > 0;
  // A team order's unused seats: the server takes them from the team and works out their share of the price.
  const team = detail.team?.kind === 'team' ? detail.team : null;
  const freeSeats = team ? Math.max(0, team.seats - Math.max(team.members.filter((m) => m.status !== 'cancelled').length, 1)) : 0;
  const seatsBought = team ? team.seats + (state?.refunds.filter((r) => r.status !== 'failed').reduce((sum, r) => sum + (r.seats ?? 0), 0) ?? 0) : 0;
  const seatCount = Number(seats);
  const seatShare = team && Number.isInteger(seatCount) && seatCount > 0 && seatCount <= freeSeats ? seatRefundCents({ totalCents: total, seatsBought, seats: seatCount }) : null;

  const act = async (path: string, body: object, failure: string) => {
    setBusy(true);
    setError(null);
    try {
      await request(path, { method: 'POST', body });
      return true;
    } catch (caught) {
      const code = toApiError(caught).code;
      setError(REFUND_ERRORS[code] ?? failure);
      return false;
    } finally {
      // A failed request may have stored something too (a refund kept requested after no answer).
      query.reload();
      onChange();
      setBusy(false);
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const cents = amount.trim() ? parseEuro(amount) : refundable;
    if (!cents || cents < 1) {
      setError('Bitte einen Betrag in Euro angeben, z. B. 14,90.');
      return;
    }
    if (await act(`/api/admin/orders/${detail.order.id}/refunds`, { amountCents: cents, ...(reason.trim() ? { reason: reason.trim() } : {}) }, 'Fehler beim Anfordern der Erstattung')) {
      setAmount('');
      setReason('');
    }
  };

  const submitSeats = async (event: FormEvent) => {
    event.preventDefault();
    if (!Number.isInteger(seatCount) || seatCount < 1 || seatCount > freeSeats) {
      setError(`Bitte eine Zahl von 1 bis ${freeSeats} angeben.`);
      return;
    }
    if (await act(`/api/admin/orders/${detail.order.id}/refunds`, { seats: seatCount, ...(reason.trim() ? { reason: reason.trim() } : {}) }, 'Fehler beim Anfordern der Erstattung')) {
      setSeats('');
      setReason('');
    }
  };

  return (
    <section className="card admin-card" aria-labelledby="refunds-title" data-testid="refund-card">
      <h2 id="refunds-title">Rechnungen und Erstattungen</h2>
      {state && (
        <>
          {state.invoices.length > 0 && (
            <ul className="admin-list">
              {state.invoices.map((invoice) => (
                <li key={invoice.id} className="admin-list__item admin-list__item--static">
                  <a href={`/api/admin/orders/${detail.order.id}/invoices/${invoice.id}`} download data-testid="admin-invoice">
                    {invoice.kind === 'invoice' ? 'Rechnung' : 'Stornorechnung'} {invoice.number}
                  </a>
                  <span className="admin-muted">
                    {' '}
                    · {formatDateTime(invoice.issuedAt)} · {formatMoney(invoice.grossCents)}
                  </span>
                </li>
              ))}
            </ul>
          )}
          <p>
            Bezahlt {formatMoney(total)} · erstattet <strong data-testid="refunded-total">{formatMoney(refunded)}</strong>
            {open > 0 && ` · offen ${formatMoney(open)}`}
          </p>
          {state.refunds.length > 0 && (
            <ol className="admin-jobs">
              {state.refunds.map((refund) => (
                <li key={refund.id} className="admin-job" data-testid="refund" data-status={refund.status}>
                  <span className="admin-job__main">
                    <strong>{formatMoney(refund.amountCents)}</strong>
                    {refund.seats && <span>{refund.seats === 1 ? '1 Platz' : `${refund.seats} Plätze`}</span>}
                    <Badge tone={STATUS[refund.status].tone}>{STATUS[refund.status].label}</Badge>
                    <span className="admin-muted">
                      {formatDateTime(refund.requestedAt)}
                      {refund.reason ? ` · ${refund.reason}` : ''}
                    </span>
                  </span>
                  {refund.failureReason && <span className="admin-job__error">Grund: {refund.failureReason}</span>}
                  {refund.status === 'requested' && !refund.providerRefundId && (
                    <span className="admin-actions">
                      <span className="admin-muted">Noch ohne Antwort des Zahlungsanbieters</span>
                      <button type="button" className="button button--secondary button--small" disabled={busy} onClick={() => void act(`/api/admin/orders/${detail.order.id}/refunds/${refund.id}/retry`, {}, 'Fehler beim erneuten Senden')} data-testid="refund-retry">
                        Erneut senden
                      </button>
                    </span>
                  )}
                  {state.sandbox && refund.status === 'requested' && refund.providerRefundId && (
                    <span className="admin-actions">
                      <span className="admin-muted">Sandbox (Test): Antwort des Zahlungsanbieters</span>
                      <button type="button" className="button button--secondary button--small" disabled={busy} onClick={() => void act(`/api/admin/orders/${detail.order.id}/refunds/${refund.id}/sandbox/succeeded`, {}, 'Fehler')} data-testid="sandbox-refund-succeeded">
                        Erstattet
                      </button>
                      <button type="button" className="button button--secondary button--small" disabled={busy} onClick={() => void act(`/api/admin/orders/${detail.order.id}/refunds/${refund.id}/sandbox/failed`, {}, 'Fehler')}>
                        Fehlgeschlagen
                      </button>
                    </span>
                  )}
                </li>
              ))}
            </ol>
          )}
          {canRefund && team && freeSeats > 0 && (
            <form className="admin-refund-form" onSubmit={(event) => void submitSeats(event)} data-testid="refund-seats-form">
              <div className="field">
                <label htmlFor="refund-seats">{`Freie Plätze erstatten (bis ${freeSeats}; die Plätze fallen sofort weg)`}</label>
                <input id="refund-seats" type="number" min={1} max={freeSeats} inputMode="numeric" value={seats} onChange={(e) => setSeats(e.target.value)} data-testid="refund-seats" />
                {seatShare !== null && <p className="field__hint">{`Anteil am Preis: ${formatMoney(seatShare)}`}</p>}
              </div>
              <button type="submit" className="button button--secondary button--small" disabled={busy} data-testid="refund-seats-submit">
                Plätze erstatten
              </button>
            </form>
          )}
          {canRefund && (
            <form className="admin-refund-form" onSubmit={(event) => void submit(event)}>
              <div className="field">
                <label htmlFor="refund-amount">Betrag in Euro (leer: {formatMoney(refundable)}, alles Offene)</label>
                <input id="refund-amount" inputMode="decimal" value={amount} onChange={(e) => setAmount(e.target.value)} placeholder={formatMoney(refundable)} data-testid="refund-amount" />
              </div>
              <div className="field">
                <label htmlFor="refund-reason">Grund (intern, optional)</label>
                <input id="refund-reason" maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} data-testid="refund-reason" />
              </div>
              <button type="submit" className="button button--primary button--small" disabled={busy} data-testid="refund-submit">
                Erstattung beim Zahlungsanbieter anfordern
              </button>
            </form>
          )}
          {error && <ErrorAlert>{error}</ErrorAlert>}
        </>
      )}
    </section>
  );
}
