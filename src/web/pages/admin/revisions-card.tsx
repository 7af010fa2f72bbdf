// The customer's redo requests in the detail page, and the form that answers and closes an open one.
import { useState, type FormEvent } from 'react';
import type { AdminOrderDetail } from '../../../domain/staff-api.js';
import { Badge, ListCard } from './admin-ui.js';
import { formatDateTime, revisionStatusLabel } from './admin-format.js';
import { toApiError, useStaff } from './staff-session.js';

/**
 * The customer's redo requests: which pictures (their file names), the reason, the due time; an open one is
 * answered and closed here, which completes the order again and mails the answer to the customer.
 */
export function Revisions({ detail, onChange }: { detail: AdminOrderDetail; onChange: (detail: AdminOrderDetail) => void }) {
  const { revisions } = detail;
  const open = revisions.filter((revision) => revision.status === 'open').length;
  const names = new Map(detail.results.map((result) => [result.id, result.fileName]));
  return (
    <ListCard
      id="revisions-title"
      title="Nachbesserungen"
      count={revisions.length}
      empty="Keine Nachbesserungen angefragt."
      alert={open > 0}
      badge={open > 0 && <Badge tone="red">{`${open} offen`}</Badge>}
    >
      <ul className="admin-list">
        {revisions.map((revision) => (
          <li key={revision.id} className={`admin-list__item admin-list__item--static${revision.status === 'open' ? ' admin-list__item--alert' : ''}`} data-testid="revision">
            <span className="admin-list__main">
              <Badge tone={revision.status === 'open' ? 'red' : 'grey'}>{revisionStatusLabel(revision.status)}</Badge>
              <time className="admin-muted" dateTime={revision.createdAt}>
                {formatDateTime(revision.createdAt)}
              </time>
              {revision.dueAt && revision.status === 'open' && <span>{`fällig ${formatDateTime(revision.dueAt)}`}</span>}
            </span>
            {revision.imageIds.length > 0 && (
              <p className="admin-list__text" data-testid="revision-pictures">
                {`Neu machen (${revision.imageIds.length}): ${revision.imageIds.map((id) => names.get(id) ?? id.slice(0, 8)).join(', ')}`}
              </p>
            )}
            <p className="admin-list__text admin-prewrap">{revision.message || <span className="admin-muted">Ohne Begründung.</span>}</p>
            {revision.answer && <p className="admin-list__text admin-prewrap">{`Antwort: ${revision.answer}`}</p>}
            {revision.status === 'open' && <CloseRevision orderId={detail.order.id} revisionId={revision.id} onChange={onChange} />}
          </li>
        ))}
      </ul>
    </ListCard>
  );
}

function CloseRevision({ orderId, revisionId, onChange }: { orderId: string; revisionId: string; onChange: (detail: AdminOrderDetail) => void }) {
  const { request } = useStaff();
  const [message, setMessage] = useState('');
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!message.trim()) {
      setError('Bitte schreiben Sie eine Antwort an die Kundin oder den Kunden.');
      return;
    }
    setSaving(true);
    setError(null);
    try {
      onChange(await request<AdminOrderDetail>(`/api/admin/orders/${orderId}/revisions/${revisionId}/close`, { method: 'POST', body: { message } }));
    } catch (caught) {
      const failure = toApiError(caught);
      const required = Number(failure.details.required);
      setError(
        failure.code === 'notEnoughResults'
          ? `Nicht genug aktive Bilder, um die Bestellung abzuschließen: ${Number.isFinite(required) ? required : '?'} benötigt.`
          : failure.code === 'revisionClosed'
            ? 'Diese Nachbesserung ist bereits abgeschlossen.'
            : 'Fehler beim Abschließen der Nachbesserung',
      );
    } finally {
      setSaving(false);
    }
  };
  return (
    <form className="admin-refund-form" onSubmit={submit} noValidate>
      <div className="field">
        <label htmlFor={`revision-answer-${revisionId}`}>Antwort an den Kunden (per E-Mail)</label>
        <textarea id={`revision-answer-${revisionId}`} rows={3} maxLength={2000} value={message} onChange={(e) => setMessage(e.target.value)} data-testid="revision-answer" />
        <p className="field__hint">Schließt die Nachbesserung ab. Seit der Anfrage veröffentlichte Bilder ersetzen die genannten; die Bestellung ist danach wieder abgeschlossen.</p>
      </div>
      {error && (
        <p className="field__error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" className="button button--primary button--small" disabled={saving} data-testid="revision-close">
        Antworten und abschließen
      </button>
    </form>
  );
}
