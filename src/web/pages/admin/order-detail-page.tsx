import { useRef, useState, type ChangeEvent, type FormEvent, type ReactNode } from 'react';
import { useParams } from 'react-router';
import { Link } from '../../components/link.js';
import { formatMoney } from '../../../domain/money.js';
import { useAdminTitle } from './admin-layout.js';
import type { AdminOrder, AdminOrderDetail } from './admin-types.js';
import { Badge } from './admin-ui.js';
import {
  actorLabel,
  displayOrderNumber,
  extraName,
  formatDateTime,
  genderLabel,
  historyEventLabel,
  languageLabel,
  locationName,
  orderStatusLabel,
  orderStatusTone,
  outfitName,
  packageName,
  paymentStatusLabel,
  paymentStatusTone,
  revisionStatusLabel,
  styleName,
} from './admin-format.js';
import { OriginalsSection, ResultUpload, ResultsSection } from './order-images.js';
import { RefundCard } from './refund-card.js';
import { StudioPanel } from './studio-panel.js';
import { toApiError, useStaff } from './staff-session.js';
import { useAdminQuery } from './use-admin-query.js';

export function OrderDetailPage() {
  const { id = '' } = useParams();
  const query = useAdminQuery<AdminOrderDetail>(`/api/admin/orders/${encodeURIComponent(id)}`);
  const { data, error, loading } = query;
  useAdminTitle(data ? `Bestellung ${displayOrderNumber(data.order)}` : 'Bestellung');

  let body;
  if (data) body = <OrderDetail detail={data} onChange={query.replace} onReload={query.reload} reloading={loading} loadError={error !== null} />;
  else if (error?.code === 'notFound' || error?.status === 404)
    body = (
      <div className="admin-empty" data-testid="order-not-found">
        <h1>Bestellung nicht gefunden</h1>
      </div>
    );
  else if (error)
    body = (
      <div className="alert alert--error admin-alert-row" role="alert" data-testid="order-error">
        <span>Fehler beim Laden der Bestelldaten</span>
        <button type="button" className="button button--secondary button--small" onClick={query.reload}>
          Erneut versuchen
        </button>
      </div>
    );
  else
    body = (
      <p role="status" className="admin-muted" data-testid="order-loading">
        Lade Bestelldaten...
      </p>
    );

  return (
    <div className="admin-page">
      <p className="admin-back">
        <Link to="/admin/orders" data-testid="back-to-orders">
          <span aria-hidden="true">←</span> Zurück zu den Bestellungen
        </Link>
      </p>
      {body}
    </div>
  );
}

function OrderDetail(props: { detail: AdminOrderDetail; onChange: (detail: AdminOrderDetail) => void; onReload: () => void; reloading: boolean; loadError: boolean }) {
  const { detail } = props;
  const { order } = detail;
  const number = displayOrderNumber(order);
  const teamOrder = detail.team?.kind === 'team';
  return (
    <>
      <div className="admin-page__head">
        <h1>
          Bestellung <span className="admin-mono">{number}</span>
        </h1>
        <div className="admin-page__badges">
          <Badge tone={orderStatusTone(order.status)} testId="order-status">
            {orderStatusLabel(order.status)}
          </Badge>
          <Badge tone={paymentStatusTone(order.paymentStatus)}>{`Zahlung: ${paymentStatusLabel(order.paymentStatus)}`}</Badge>
        </div>
      </div>
      {props.loadError && (
        <p className="alert alert--error" role="alert">
          Fehler beim Laden der Bestelldaten
        </p>
      )}

      <div className="admin-detail-grid">
        <OrderCard detail={detail} onChange={props.onChange} />
        <div>
          <PricesCard order={order} />
          <DatesCard order={order} business={teamOrder} />
        </div>
      </div>

      <TeamCard detail={detail} />
      {/* A team order makes no pictures of its own: its members' orders do (each linked in the team card). */}
      {!teamOrder && <Revisions detail={detail} onChange={props.onChange} />}
      <RefundCard detail={detail} onChange={props.onReload} />
      {!teamOrder && (
        <>
          <OriginalsSection uploads={detail.uploads} />
          <StudioPanel detail={detail} onFinished={props.onReload} />
          <ResultUpload detail={detail} onUploaded={props.onReload} />
          <ResultsSection detail={detail} onChange={props.onChange} onReload={props.onReload} reloading={props.reloading} />
        </>
      )}

      <div className="admin-columns">
        <History history={detail.history} />
        <Audit audit={detail.audit} />
      </div>
    </>
  );
}

function Row({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="summary__row admin-row" data-testid={testId}>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

function OrderCard({ detail, onChange }: { detail: AdminOrderDetail; onChange: (detail: AdminOrderDetail) => void }) {
  const { order } = detail;
  return (
    <section className="card admin-card" aria-labelledby="order-card-title">
      <h2 id="order-card-title">Bestellung</h2>
      <dl className="summary__details">
        <Row label="Bestellnummer">
          <span className="admin-mono" title={order.id}>
            {displayOrderNumber(order)}
          </span>
        </Row>
        {order.firstName && <Row label="Vorname">{order.firstName}</Row>}
        {order.lastName && <Row label="Nachname">{order.lastName}</Row>}
        {order.billingName && <Row label="Rechnung an">{order.billingName}</Row>}
        {order.billingAddress && (
          <Row label="Rechnungsadresse">
            <span className="admin-lines">{order.billingAddress}</span>
          </Row>
        )}
        <Row label="E-Mail">{order.email ? <a href={`mailto:${order.email}`}>{order.email}</a> : '–'}</Row>
        {order.phone && (
          <Row label="Telefon">
            <a href={`tel:${order.phone}`}>{order.phone}</a>
          </Row>
        )}
        <Row label="Status">
          <StatusControl detail={detail} onChange={onChange} />
        </Row>
        <Row label="Bestelldatum">
          <time dateTime={order.orderedAt ?? order.createdAt}>{formatDateTime(order.orderedAt ?? order.createdAt)}</time>
        </Row>
        {detail.team?.kind !== 'team' && <Row label="Geschlecht">{genderLabel(order.gender)}</Row>}
        {order.styleBase && <Row label="Basis-Stil">{styleName(order.styleBase)}</Row>}
        <Row label="Paket">{packageName(order.package)}</Row>
        {order.refineOutfit && <Row label="Outfit-Stil">{outfitName(order.refineOutfit)}</Row>}
        {order.refineLocation && <Row label="Hintergrund">{locationName(order.refineLocation)}</Row>}
        <Row label="Zusätzliche Features" testId="order-extras">
          {order.extras.length ? order.extras.map(extraName).join(', ') : 'Keine zusätzlichen Features'}
        </Row>
        <Row label="Zahlung">
          <Badge tone={paymentStatusTone(order.paymentStatus)}>{paymentStatusLabel(order.paymentStatus)}</Badge>
        </Row>
        <Row label="Betrag">{order.totalCents === null ? '–' : formatMoney(order.totalCents)}</Row>
        {order.language && <Row label="Sprache">{languageLabel(order.language)}</Row>}
      </dl>
    </section>
  );
}

/** Offers the current status plus the ones the server's state machine allows now; a choice is saved at once. */
function StatusControl({ detail, onChange }: { detail: AdminOrderDetail; onChange: (detail: AdminOrderDetail) => void }) {
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

function PricesCard({ order }: { order: AdminOrder }) {
  const money = (cents: number | null) => (cents === null ? '–' : formatMoney(cents));
  return (
    <section className="card admin-card" aria-labelledby="prices-title">
      <h2 id="prices-title">Preise</h2>
      <dl className="summary__details">
        {order.packageListCents !== null && order.packageListCents !== order.packageCents && <Row label="Paket (Listenpreis)">{money(order.packageListCents)}</Row>}
        {!!order.discountCents && <Row label="Rabatt">− {money(order.discountCents)}</Row>}
        <Row label="Paket">{money(order.packageCents)}</Row>
        <Row label="Extras">{money(order.extrasCents)}</Row>
        <Row label="Netto">{money(order.netCents)}</Row>
        <Row label="MwSt.">{money(order.vatCents)}</Row>
        <Row label="Gesamt">
          <strong>{money(order.totalCents)}</strong>
        </Row>
      </dl>
    </section>
  );
}

function DatesCard({ order, business }: { order: AdminOrder; business: boolean }) {
  const rows: [string, string | null][] = [
    ['Angelegt', order.createdAt],
    ['Bestellt', order.orderedAt],
    ['Bezahlt', order.paidAt],
    ['Abgeschlossen', order.completedAt],
    ['Fotos gelöscht', order.photosDeletedAt],
  ];
  return (
    <section className="card admin-card" aria-labelledby="dates-title">
      <h2 id="dates-title">Zeitpunkte</h2>
      <dl className="summary__details">
        {rows
          .filter(([, value]) => value)
          .map(([label, value]) => (
            <Row key={label} label={label}>
              <time dateTime={value ?? undefined}>{formatDateTime(value)}</time>
            </Row>
          ))}
        <Row label="Widerrufsverzicht">
          {business ? 'Entfällt (Unternehmer, kein Widerrufsrecht)' : order.waiverAcceptedAt ? `${formatDateTime(order.waiverAcceptedAt)}${order.waiverTextVersion ? ` (Text ${order.waiverTextVersion})` : ''}` : 'Nicht erteilt'}
        </Row>
      </dl>
    </section>
  );
}

/** A team order: seats, VAT, its members (each an order of its own); a member's order: its team. */
function TeamCard({ detail }: { detail: AdminOrderDetail }) {
  const { team } = detail;
  if (!team) return null;
  if (team.kind === 'member') {
    return (
      <section className="card admin-card" aria-labelledby="team-title" data-testid="member-of-team">
        <h2 id="team-title">Teammitglied</h2>
        <p>
          {`Bezahlt von ${team.company ?? 'der Teambestellung'} · `}
          <Link to={`/admin/orders/${team.teamOrderId}`}>{`Teambestellung ${team.teamOrderNumber}`}</Link>
        </p>
      </section>
    );
  }
  return (
    <section className="card admin-card" aria-labelledby="team-title" data-testid="team-card">
      <h2 id="team-title">
        Teambestellung <span className="admin-count">{`(${team.members.filter((m) => m.status !== 'cancelled').length} von ${team.seats} Plätzen)`}</span>
      </h2>
      <p className="admin-muted">{`USt-IdNr.: ${team.vatId ?? '–'} · ${team.vatTreatment === 'reverse_charge' ? 'Reverse Charge (0 %)' : 'mit 19 % USt.'}`}</p>
      {team.members.length === 0 ? (
        <p className="admin-muted">Noch niemand beigetreten.</p>
      ) : (
        <ul className="admin-list">
          {team.members.map((member) => (
            <li key={member.id} className="admin-list__item">
              <Link to={`/admin/orders/${member.id}`} className="admin-list__link" data-testid="team-member">
                <span className="admin-list__main">
                  <strong className="admin-mono">{member.orderNumber}</strong>
                  <span>{member.email ?? '–'}</span>
                  <Badge tone={orderStatusTone(member.status)}>{member.paymentStatus === 'paid' || member.status === 'cancelled' ? orderStatusLabel(member.status) : 'Lädt Fotos hoch'}</Badge>
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * The customer's redo requests: which pictures (their file names), the reason, the due time; an open one is
 * answered and closed here, which completes the order again and mails the answer to the customer.
 */
function Revisions({ detail, onChange }: { detail: AdminOrderDetail; onChange: (detail: AdminOrderDetail) => void }) {
  const { revisions } = detail;
  const open = revisions.filter((revision) => revision.status === 'open').length;
  const names = new Map(detail.results.map((result) => [result.id, result.fileName]));
  return (
    <section className={`card admin-card${open ? ' admin-card--alert' : ''}`} aria-labelledby="revisions-title">
      <h2 id="revisions-title">
        Nachbesserungen <span className="admin-count">({revisions.length})</span>
        {open > 0 && <Badge tone="red">{`${open} offen`}</Badge>}
      </h2>
      {revisions.length === 0 ? (
        <p className="admin-muted">Keine Nachbesserungen angefragt.</p>
      ) : (
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
      )}
    </section>
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

function History({ history }: { history: AdminOrderDetail['history'] }) {
  return (
    <section className="card admin-card" aria-labelledby="history-title">
      <h2 id="history-title">Verlauf</h2>
      {history.length === 0 ? (
        <p className="admin-muted">Noch keine Einträge.</p>
      ) : (
        <ol className="history" data-testid="admin-history">
          {history.map((entry, index) => (
            <li key={`${entry.at}-${index}`} className="history__item">
              <time dateTime={entry.at}>{formatDateTime(entry.at)}</time>
              <span>
                {historyEventLabel(entry.event)}
                {entry.fromStatus || entry.toStatus ? (
                  <>
                    {': '}
                    {entry.fromStatus ? orderStatusLabel(entry.fromStatus) : '–'} → {entry.toStatus ? orderStatusLabel(entry.toStatus) : '–'}
                  </>
                ) : null}
                <span className="admin-muted"> · {actorLabel(entry.actorType)}</span>
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

function describeDetails(details: unknown): string {
  if (details === null || details === undefined) return '';
  if (typeof details !== 'object') return String(details);
  return Object.entries(details as Record<string, unknown>)
    .map(([key, value]) => `${key}: ${typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value)}`)
    .join(', ');
}

function Audit({ audit }: { audit: AdminOrderDetail['audit'] }) {
  return (
    <section className="card admin-card" aria-labelledby="audit-title">
      <h2 id="audit-title">Protokoll</h2>
      {audit.length === 0 ? (
        <p className="admin-muted">Noch keine Aktionen des Teams.</p>
      ) : (
        <div className="admin-table-wrap">
          <table className="admin-table admin-table--compact" data-testid="audit">
            <thead>
              <tr>
                <th scope="col">Wann</th>
                <th scope="col">Wer</th>
                <th scope="col">Was</th>
              </tr>
            </thead>
            <tbody>
              {audit.map((entry, index) => {
                const details = describeDetails(entry.details);
                return (
                  <tr key={`${entry.at}-${index}`}>
                    <td>
                      <time dateTime={entry.at}>{formatDateTime(entry.at)}</time>
                    </td>
                    <td className="admin-ellipsis">{entry.staffEmail ?? 'System'}</td>
                    <td>
                      <span className="admin-mono">{entry.action}</span>
                      {details && <span className="admin-muted admin-audit-details">{details}</span>}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
