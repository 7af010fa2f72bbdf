import { useState, type FormEvent, type MouseEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Link } from '../../components/link.js';
import { formatMoney } from '../../../domain/money.js';
import type { OrderListItem, OrderListResponse } from '../../../domain/staff-api.js';
import { useAdminTitle } from './admin-layout.js';
import { Badge, LoadState, PageHead } from './admin-ui.js';
import {
  ORDER_STATUS_LABELS,
  displayOrderNumber,
  formatDateTime,
  orderPager,
  orderStatusLabel,
  orderStatusTone,
  packageName,
  paymentStatusLabel,
  paymentStatusTone,
  pluralOrders,
} from './admin-format.js';
import { useAdminQuery } from './use-admin-query.js';

const STATUS_FILTERS = ['', 'created', 'paid', 'in_progress', 'completed', 'cancelled'] as const;

function readPage(value: string | null): number {
  const page = Number(value);
  return Number.isInteger(page) && page > 0 ? page : 1;
}

export function OrderListPage() {
  useAdminTitle('Bestellungen');
  const [params, setParams] = useSearchParams();
  const page = readPage(params.get('page'));
  const rawStatus = params.get('status') ?? '';
  const status = (STATUS_FILTERS as readonly string[]).includes(rawStatus) ? rawStatus : '';
  const q = params.get('q') ?? '';

  const query = new URLSearchParams({ page: String(page), status, q });
  const { data, error, loading, reload } = useAdminQuery<OrderListResponse>(`/api/admin/orders?${query.toString()}`);

  const update = (next: { page?: number; status?: string; q?: string }) => {
    const values = { page, status, q, ...next };
    const search = new URLSearchParams();
    if (values.page > 1) search.set('page', String(values.page));
    if (values.status) search.set('status', values.status);
    if (values.q) search.set('q', values.q);
    setParams(search);
  };

  const pager = data ? orderPager(data, page) : null;

  return (
    <div className="admin-page">
      <PageHead title="Bestellungen" loading={loading} onReload={reload} />

      {/* Keyed by the address: going back in the browser shows that search again. */}
      <Filters key={`${status}|${q}`} status={status} q={q} onChange={(next) => update({ ...next, page: 1 })} />

      <LoadState failed={error !== null} firstLoad={!data && loading} failure="Fehler beim Laden der Bestellungen" waiting="Lade Bestellungen..." />
      {data && (
        <>
          <p className="admin-muted" role="status" aria-live="polite" data-testid="order-total">
            {pluralOrders(data.total, data.totalExact)}
            {loading ? ' · wird aktualisiert...' : ''}
          </p>
          {data.orders.length === 0 ? (
            <p className="admin-empty">Keine Bestellungen gefunden</p>
          ) : (
            <OrderTable orders={data.orders} busy={loading} />
          )}
          {pager?.shown && (
            <nav className="admin-pager" aria-label="Seiten">
              <button type="button" className="button button--secondary button--small" disabled={page <= 1} onClick={() => update({ page: page - 1 })} data-testid="page-prev">
                ‹ Zurück
              </button>
              <span aria-current="page">
                {pager.label}
              </span>
              <button type="button" className="button button--secondary button--small" disabled={!pager.hasNext} onClick={() => update({ page: page + 1 })} data-testid="page-next">
                Weiter ›
              </button>
            </nav>
          )}
        </>
      )}
    </div>
  );
}

function Filters({ status, q, onChange }: { status: string; q: string; onChange: (next: { status: string; q: string }) => void }) {
  const [search, setSearch] = useState(q);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onChange({ status, q: search.trim() });
  };
  return (
    <form className="admin-filters" role="search" onSubmit={submit}>
      <div className="admin-field">
        <label htmlFor="order-status-filter">Status</label>
        <select id="order-status-filter" value={status} onChange={(e) => onChange({ status: e.target.value, q: search.trim() })} data-testid="status-filter">
          {STATUS_FILTERS.map((value) => (
            <option key={value} value={value}>
              {value ? ORDER_STATUS_LABELS[value] : 'Alle'}
            </option>
          ))}
        </select>
      </div>
      <div className="admin-field admin-field--grow">
        <label htmlFor="order-search">Suche</label>
        <input
          id="order-search"
          type="search"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          placeholder="Bestellnummer oder E-Mail"
          autoComplete="off"
          spellCheck={false}
          maxLength={254}
          data-testid="order-search"
        />
      </div>
      <button type="submit" className="button button--primary button--small">
        Suchen
      </button>
      {(status || q) && (
        <button type="button" className="button button--secondary button--small" onClick={() => onChange({ status: '', q: '' })}>
          Zurücksetzen
        </button>
      )}
    </form>
  );
}

function OrderTable({ orders, busy }: { orders: OrderListItem[]; busy: boolean }) {
  const navigate = useNavigate();
  // The whole row answers a mouse click; keyboard and screen-reader users use the link in the first cell.
  const openRow = (event: MouseEvent, id: string) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    if ((event.target as HTMLElement).closest('a, button, input, select')) return;
    if (window.getSelection()?.toString()) return;
    void navigate(`/admin/orders/${id}`);
  };
  return (
    <div className="admin-table-wrap">
      <table className="admin-table" aria-busy={busy}>
        <thead>
          <tr>
            <th scope="col">Bestellnummer</th>
            <th scope="col">Datum</th>
            <th scope="col">E-Mail</th>
            <th scope="col">Paket</th>
            <th scope="col">Status</th>
            <th scope="col">Zahlung</th>
            <th scope="col" className="admin-num">
              Betrag
            </th>
            <th scope="col" className="admin-num">
              Ergebnisse
            </th>
          </tr>
        </thead>
        <tbody>
          {orders.map((order) => {
            const enough = order.activeResults >= order.requiredResults;
            return (
              <tr key={order.id} className="admin-table__row" onClick={(event) => openRow(event, order.id)} data-testid="order-row" data-order-id={order.id}>
                <td>
                  <Link to={`/admin/orders/${order.id}`} className="admin-mono">
                    {displayOrderNumber(order)}
                  </Link>
                </td>
                <td>
                  <time dateTime={order.createdAt}>{formatDateTime(order.createdAt)}</time>
                </td>
                <td className="admin-ellipsis">{order.email ?? '–'}</td>
                <td>{packageName(order.package)}</td>
                <td>
                  <Badge tone={orderStatusTone(order.status)}>{orderStatusLabel(order.status)}</Badge>
                </td>
                <td>
                  <Badge tone={paymentStatusTone(order.paymentStatus)}>{paymentStatusLabel(order.paymentStatus)}</Badge>
                </td>
                <td className="admin-num">{order.totalCents === null ? '–' : formatMoney(order.totalCents)}</td>
                <td className={`admin-num${enough ? ' admin-ok' : ''}`}>
                  {order.activeResults}/{order.requiredResults}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
