import type { ReactNode } from 'react';
import { Link } from '../../components/link.js';
import type { DashboardResponse } from '../../../domain/staff-api.js';
import { useAdminTitle } from './admin-layout.js';
import { Badge, ListCard, LoadState, OrderEntry, PageHead } from './admin-ui.js';
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
      <PageHead title="Dashboard" loading={loading} onReload={reload} />
      <LoadState failed={error !== null} firstLoad={!data && loading} failure="Fehler beim Laden des Dashboards" waiting="Lade Dashboard..." />
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
            <ListCard id="waiting-title" title="Wartende Aufträge" count={data.waiting.length} empty="Keine wartenden Aufträge.">
              <ol className="admin-list">
                {data.waiting.map((order) => (
                  <OrderEntry
                    key={order.id}
                    orderId={order.id}
                    number={displayOrderNumber(order)}
                    testId="waiting-order"
                    alert={order.overdue || order.photosDeleted}
                    overdue={order.overdue}
                    main={
                      <>
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
                      </>
                    }
                  >
                    <span className="admin-list__meta">
                      {order.email ?? '–'} · Bezahlt {formatDateTime(order.paidAt)} · Fällig <strong>{formatDateTime(order.dueAt)}</strong>
                    </span>
                  </OrderEntry>
                ))}
              </ol>
            </ListCard>

            <div>
              <EntryCard id="dash-revisions-title" title="Offene Nachbesserungen" entries={data.revisions} empty="Keine offenen Nachbesserungen.">
                {(revision) => (
                  <OrderEntry
                    key={revision.id}
                    orderId={revision.orderId}
                    number={displayOrderNumber({ id: revision.orderId, orderNumber: revision.orderNumber })}
                    testId="dashboard-revision"
                    main={
                      <>
                        <span>{`${revision.pictures} ${revision.pictures === 1 ? 'Bild' : 'Bilder'}`}</span>
                        {revision.dueAt && <span className="admin-muted">{`fällig ${formatDateTime(revision.dueAt)}`}</span>}
                        {revision.overdue && <Badge tone="red">Überfällig</Badge>}
                      </>
                    }
                  >
                    {revision.message && <span className="admin-list__text admin-clamp">{revision.message}</span>}
                  </OrderEntry>
                )}
              </EntryCard>

              <EntryCard id="dash-teams-title" title="Teambestellungen" entries={data.teams} empty="Keine offenen Teambestellungen.">
                {(team) => (
                  <OrderEntry key={team.id} orderId={team.id} number={team.orderNumber} testId="dashboard-team" main={<span>{team.company ?? '–'}</span>}>
                    <span className="admin-list__text">{`${team.seats ?? 0} Plätze · ${team.joined} beigetreten · ${team.submitted} Fotos geschickt · ${team.delivered} geliefert`}</span>
                  </OrderEntry>
                )}
              </EntryCard>

              <EntryCard id="contact-title" title="Neue Kontaktanfragen" entries={data.contactMessages} empty="Keine neuen Kontaktanfragen.">
                {(message) => (
                  <li key={message.id} className="admin-list__item admin-list__item--static" data-testid="contact-message">
                    <span className="admin-list__main">
                      <strong>{message.name}</strong>
                      <a href={`mailto:${message.email}`}>{message.email}</a>
                      <span className="admin-muted">{formatDateTime(message.createdAt)}</span>
                    </span>
                    <p className="admin-list__text admin-prewrap">{message.message}</p>
                  </li>
                )}
              </EntryCard>

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

/** A card of the dashboard's side column: its entries in a list, each as `children` makes it. */
function EntryCard<T>(props: { id: string; title: string; entries: T[]; empty: string; children: (entry: T) => ReactNode }) {
  return (
    <ListCard id={props.id} title={props.title} count={props.entries.length} empty={props.empty}>
      <ul className="admin-list">{props.entries.map(props.children)}</ul>
    </ListCard>
  );
}
