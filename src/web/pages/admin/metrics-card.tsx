// The first-party counters on the dashboard: page views and the shop's events of the last 7 days.
import type { ReactNode } from 'react';
import type { MetricsSummary } from '../../../domain/metrics.js';
import { ErrorAlert } from './admin-ui.js';
import { useAdminQuery } from './use-admin-query.js';

const EVENT_LABELS: Record<string, string> = {
  upload_start_cta: 'Start-Button (Startseite)',
  transform_images_cta: '„Eigene Fotos umwandeln“ (Vorher/Nachher)',
  main_pricing_cta: '„Preise ansehen“',
  pricing_basic_cta: 'Preiskarte Basic',
  pricing_pro_cta: 'Preiskarte Pro',
  pricing_premium_cta: 'Preiskarte Premium',
  final_cta: 'Abschluss-Button (Startseite)',
  cta_click: 'Buttons der Ratgeber',
  package_selected: 'Paket gewählt',
  upload_count: 'Fotos hochgeladen (Anzahl)',
  begin_checkout: '„Zahlungspflichtig bestellen“',
  purchase: 'Bezahlt',
  error_occurred: 'Fehler angezeigt',
};

export function MetricsCard() {
  const { data, error } = useAdminQuery<MetricsSummary>('/api/admin/metrics?days=7');
  const total = data?.pageViews.reduce((sum, row) => sum + row.count, 0) ?? 0;
  return (
    <section className="card admin-card" aria-labelledby="metrics-title" data-testid="metrics-card">
      <h2 id="metrics-title">
        Besuche und Ereignisse <span className="admin-count">(7 Tage)</span>
      </h2>
      <p className="admin-muted">Gezählt auf unserem Server, ohne Cookies und ohne personenbezogene Daten.</p>
      {error && <ErrorAlert>Fehler beim Laden der Zahlen</ErrorAlert>}
      {data && (
        <>
          <p>
            <strong data-testid="metrics-total">{total.toLocaleString('de-DE')}</strong> Seitenaufrufe
          </p>
          {data.pageViews.length > 0 && (
            <CountTable caption="Seitenaufrufe nach Seite" what="Seite" count="Aufrufe">
              {data.pageViews.slice(0, 10).map((row) => (
                <tr key={row.path}>
                  <td className="admin-mono">{row.path}</td>
                  <td>{row.count.toLocaleString('de-DE')}</td>
                </tr>
              ))}
            </CountTable>
          )}
          {data.events.length > 0 && (
            <CountTable caption="Ereignisse" what="Ereignis" count="Anzahl">
              {data.events.slice(0, 15).map((row) => (
                <tr key={`${row.name}:${row.detail}`} data-testid="metrics-event">
                  <td>
                    {EVENT_LABELS[row.name] ?? row.name}
                    {row.detail && <span className="admin-muted"> · {row.detail}</span>}
                  </td>
                  <td>{row.count.toLocaleString('de-DE')}</td>
                </tr>
              ))}
            </CountTable>
          )}
        </>
      )}
    </section>
  );
}

/** A table of counts, read out with its caption: what was counted and how often, one row each (children). */
function CountTable({ caption, what, count, children }: { caption: string; what: string; count: string; children: ReactNode }) {
  return (
    <table className="admin-table admin-table--compact">
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{what}</th>
          <th scope="col">{count}</th>
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}
