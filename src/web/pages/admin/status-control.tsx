// The order's status in the detail page: the current one and those staff may change it to, saved at once.
import { useRef, useState, type ChangeEvent } from 'react';
import type { AdminOrderDetail } from '../../../domain/staff-api.js';
import { orderStatusLabel } from './admin-format.js';
import { toApiError, useStaff } from './staff-session.js';

/** Offers the current status plus the ones the server's state machine allows now; a choice is saved at once. */
export function StatusControl({ detail, onChange }: { detail: AdminOrderDetail; onChange: (detail: AdminOrderDetail) => void }) {
  const { request } = useStaff();
  const { order } = detail;
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  // Cancelling cannot be undone, and arrow keys on a closed <select> change it in some browsers: ask first.
  const [confirmCancel, setConfirmCancel] = useState(false);
  const selectRef = useRef<HTMLSelectElement>(null);
  const options = [order.status, ...detail.nextStatuses.filter((status) => status !== order.status)];

  const save = async (status: string) => {
    setSaving(true);
    setError(null);
    setSaved(false);
    setConfirmCancel(false);
    try {
      onChange(await request<AdminOrderDetail>(`/api/admin/orders/${order.id}/status`, { method: 'POST', body: { status } }));
      setSaved(true);
    } catch (caught) {
      const failure = toApiError(caught);
      const required = Number(failure.details.required);
      setError(
        failure.code === 'notEnoughResults'
          ? `Fehler beim Aktualisieren des Status. Es fehlen aktive Bilder: ${Number.isFinite(required) ? required : detail.requiredResults} benötigt.`
          : 'Fehler beim Aktualisieren des Status',
      );
    } finally {
      setSaving(false);
      selectRef.current?.focus();
    }
  };

  const choose = (event: ChangeEvent<HTMLSelectElement>) => {
    const status = event.target.value;
    if (status === order.status) return;
    if (status === 'cancelled') setConfirmCancel(true);
    else void save(status);
  };

  return (
    <div className="admin-status">
      <label htmlFor="order-status-select" className="visually-hidden">
        Status ändern
      </label>
      <select
        id="order-status-select"
        ref={selectRef}
        value={confirmCancel ? 'cancelled' : order.status}
        onChange={choose}
        disabled={saving || options.length < 2}
        aria-describedby={error ? 'order-status-error' : undefined}
        data-testid="status-select"
      >
        {options.map((status) => (
          <option key={status} value={status}>
            {orderStatusLabel(status)}
          </option>
        ))}
      </select>
      {saving && <span className="admin-muted">Wird gespeichert...</span>}
      {saved && !saving && (
        <span className="admin-ok" role="status">
          Gespeichert
        </span>
      )}
      {confirmCancel && (
        <div className="confirm admin-confirm" role="alertdialog" aria-labelledby="cancel-confirm-text">
          <p id="cancel-confirm-text">Bestellung wirklich stornieren? Das lässt sich nicht rückgängig machen.</p>
          <div className="confirm__actions">
            <button type="button" className="button button--danger button--small" onClick={() => void save('cancelled')} data-testid="confirm-cancel">
              Stornieren
            </button>
            <button
              type="button"
              className="button button--secondary button--small"
              autoFocus
              onClick={() => {
                setConfirmCancel(false);
                selectRef.current?.focus();
              }}
            >
              Abbrechen
            </button>
          </div>
        </div>
      )}
      {error && (
        <p id="order-status-error" className="alert alert--error admin-inline-alert" role="alert" data-testid="status-error">
          {error}
        </p>
      )}
    </div>
  );
}
