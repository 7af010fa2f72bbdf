// What happened to the order, in the detail page: its history (status changes) and the staff's audit log.
import type { AdminOrderDetail } from '../../../domain/staff-api.js';
import { ListCard } from './admin-ui.js';
import { actorLabel, formatDateTime, historyEventLabel, orderStatusLabel } from './admin-format.js';

export function History({ history }: { history: AdminOrderDetail['history'] }) {
  return (
    <ListCard id="history-title" title="Verlauf" count={history.length} counted={false} empty="Noch keine Einträge.">
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
    </ListCard>
  );
}

function describeDetails(details: unknown): string {
  if (details === null || details === undefined) return '';
  if (typeof details !== 'object') return String(details);
  return Object.entries(details as Record<string, unknown>)
    .map(([key, value]) => `${key}: ${typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value)}`)
    .join(', ');
}

export function Audit({ audit }: { audit: AdminOrderDetail['audit'] }) {
  return (
    <ListCard id="audit-title" title="Protokoll" count={audit.length} counted={false} empty="Noch keine Aktionen des Teams.">
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
    </ListCard>
  );
}
