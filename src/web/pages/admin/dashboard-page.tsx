import { Link } from '../../components/link.js';
import { useAdminTitle } from './admin-layout.js';
import type { DashboardResponse } from './admin-types.js';
import { Badge } from './admin-ui.js';
import { ORDER_STATUS_LABELS, displayOrderNumber, formatDateTime, orderStatusLabel, orderStatusTone, packageName } from './admin-format.js';
import { DeadJobsCard } from './dead-jobs-card.js';
import { GeneratorCheckCard } from './generator-check-card.js';
import { MetricsCard } from './metrics-card.js';
import { WithdrawalsCard } from './withdrawals-card.js';
import { useAdminQuery } from './use-admin-query.js';

const COUNT_ORDER = ['created', 'paid', 'in_progress', 'completed', 'cancelled'] as const;

export function DashboardPage() {
  useAdminTitle('Dashboard');
  const { data, error, loading, reload } = useAdminQuery<DashboardResponse>('/api/admin/dashboard');

  return (
    <div className="admin-page">
      <div className="admin-page__head">
        <h1>Dashboard</h1>
        <button type="button" className="button button--secondary button--small" onClick={reload} disabled={loading} aria-busy={loading}>
          Aktualisieren
        </button>
      </div>
      {error && (
        <p className="alert alert--error" role="alert">
          Fehler beim Laden des Dashboards
        </p>
      )}
      {!data && loading && (
        <p role="status" className="admin-muted">
          Lade Dashboard...
        </p>
      )}
      {data && (
        <>
          <ul className="admin-tiles" aria-label="Bestellungen nach Status">
            {COUNT_ORDER.map((status) => (
              <li key={status}>
                <Link className={`admin-tile admin-tile--${orderStatusTone(status)}`} to={`/admin/orders?status=${status}`} data-testid={`count-${status}`}>
                  <span className="admin-tile__count">{(data.counts[status] ?? 0).toLocaleString('de-DE')}</span>
                  <span className="admin-tile__label">{ORDER_STATUS_LABELS[status]}</span>
                </Link>
              </li>
            ))}
          </ul>

          <div className="admin-columns">
            <section className="card admin-card" aria-labelledby="waiting-title">
              <h2 id="waiting-title">
                Wartende Aufträge <span className="admin-count">({data.waiting.length})</span>
              </h2>
              {data.waiting.length === 0 ? (
                <p className="admin-muted">Keine wartenden Aufträge.</p>
              ) : (
                <ol className="admin-list">
                  {data.waiting.map((order) => (
                    <li key={order.id} className={`admin-list__item${order.overdue || order.photosDeleted ? ' admin-list__item--alert' : ''}`}>
                      <Link to={`/admin/orders/${order.id}`} className="admin-list__link" data-testid="waiting-order" data-overdue={order.overdue}>
                        <span className="admin-list__main">
                          <strong className="admin-mono">{displayOrderNumber(order)}</strong>
                          <span>{packageName(order.package)}</span>
                          <Badge tone={orderStatusTone(order.status)}>{orderStatusLabel(order.status)}</Badge>
                          {order.express && <Badge tone="blue">Express</Badge>}
                          {order.redo && <Badge tone="yellow">Nachbesserung</Badge>}
                          {order.team && <Badge tone="blue">{`Team: ${order.team.company ?? order.team.orderNumber}`}</Badge>}
                          {order.photosDeleted && (
                            <Badge tone="red" testId="photos-deleted">
                              Fotos vom Kunden gelöscht – Produktion gestoppt, Kunde kontaktieren
                            </Badge>
                          )}
                          {order.overdue && (
                            <Badge tone="red" testId="overdue">
                              Überfällig
                            </Badge>
                          )}
                        </span>
                        <span className="admin-list__meta">
                          {order.email ?? '–'} · Bezahlt {formatDateTime(order.paidAt)} · Fällig <strong>{formatDateTime(order.dueAt)}</strong>
                        </span>
                      </Link>
                    </li>
                  ))}
                </ol>
              )}
            </section>

            <div>
              <section className="card admin-card" aria-labelledby="dash-revisions-title">
                <h2 id="dash-revisions-title">
                  Offene Nachbesserungen <span className="admin-count">({data.revisions.length})</span>
                </h2>
                {data.revisions.length === 0 ? (
                  <p className="admin-muted">Keine offenen Nachbesserungen.</p>
                ) : (
                  <ul className="admin-list">
                    {data.revisions.map((revision) => (
                      <li key={revision.id} className="admin-list__item">
                        <Link to={`/admin/orders/${revision.orderId}`} className="admin-list__link" data-testid="dashboard-revision">
                          <span className="admin-list__main">
                            <strong className="admin-mono">{displayOrderNumber({ id: revision.orderId, orderNumber: revision.orderNumber })}</strong>
                            <span>{`${revision.pictures} ${revision.pictures === 1 ? 'Bild' : 'Bilder'}`}</span>
                            {revision.dueAt && <span className="admin-muted">{`fällig ${formatDateTime(revision.dueAt)}`}</span>}
                            {revision.overdue && <Badge tone="red">Überfällig</Badge>}
                          </span>
                          {revision.message && <span className="admin-list__text admin-clamp">{revision.message}</span>}
                        </Link>
                      </li>
                    ))}
                  </ul>
                )}
              </section>

              <section className="card admin-card" aria-labelledby="dash-teams-title">
                <h2 id="dash-teams-title">
                  Teambestellungen <span className="admin-count">({data.teams.length})</span>
                </h2>
                {data.teams.length === 0 ? (
                  <p className="admin-muted">Keine offenen Teambestellungen.</p>
                ) : (
                  <ul className="admin-list">
                    {data.teams.map((team) => (
                      <li key={team.id} className="admin-list__item">
                        <Link to={`/admin/orders/${team.id}`} className="admin-list__link" data-testid="dashboard-team">
                          <span className="admin-list__main">
                            <strong className="admin-mono">{team.orderNumber}</strong>
                            <span>{team.company ?? '–'}</span>
                          </span>
                          <span className="admin-list__text">{`${team.seats ?? 0} Plätze · ${team.joined} beigetreten · ${team.submitted} Fotos geschickt · ${team.delivered} geliefert`}</span>
                        </Link>
                      </li>
                    ))}
                  </ul>
                )}
              </section>

              <section className="card admin-card" aria-labelledby="contact-title">
                <h2 id="contact-title">
                  Neue Kontaktanfragen <span className="admin-count">({data.contactMessages.length})</span>
                </h2>
                {data.contactMessages.length === 0 ? (
                  <p className="admin-muted">Keine neuen Kontaktanfragen.</p>
                ) : (
                  <ul className="admin-list">
                    {data.contactMessages.map((message) => (
                      <li key={message.id} className="admin-list__item admin-list__item--static" data-testid="contact-message">
                        <span className="admin-list__main">
                          <strong>{message.name}</strong>
                          <a href={`mailto:${message.email}`}>{message.email}</a>
                          <span className="admin-muted">{formatDateTime(message.createdAt)}</span>
                        </span>
                        <p className="admin-list__text admin-prewrap">{message.message}</p>
                      </li>
                    ))}
                  </ul>
                )}
              </section>

              <WithdrawalsCard />
              <DeadJobsCard />
              <GeneratorCheckCard />
              <MetricsCard />
            </div>
          </div>
        </>
      )}
    </div>
  );
}
