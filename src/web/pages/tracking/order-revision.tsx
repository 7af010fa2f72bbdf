// The redo of an order's pictures before the customer accepts them, on the status page.
import { useRef, useState, type FormEvent } from 'react';
import { formatDate, formatShortDateTime } from '../../../domain/dates.js';
import { ApiError, api } from '../../lib/api.js';
import { checkForm, loadChecksOnUse } from '../../lib/form-checks.js';
import { useI18n } from '../../lib/i18n.js';
import type { OrderView } from './order-view.js';

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
