// One order in the back office: its facts, team, redo requests, refunds, photos and pictures, history and audit
// log, each card in a file of its own.
import { useParams } from 'react-router';
import { Link } from '../../components/link.js';
import type { AdminOrderDetail } from '../../../domain/staff-api.js';
import { useAdminTitle } from './admin-layout.js';
import { Badge, ErrorAlert } from './admin-ui.js';
import { displayOrderNumber, orderStatusLabel, orderStatusTone, paymentStatusLabel, paymentStatusTone } from './admin-format.js';
import { DatesCard, OrderCard, PricesCard } from './order-cards.js';
import { Audit, History } from './order-log.js';
import { OriginalsSection } from './originals-section.js';
import { RefundCard } from './refund-card.js';
import { ResultUpload } from './result-upload.js';
import { ResultsSection } from './results-section.js';
import { Revisions } from './revisions-card.js';
import { StudioPanel } from './studio-panel.js';
import { TeamCard } from './team-card.js';
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
      {props.loadError && <ErrorAlert>Fehler beim Laden der Bestelldaten</ErrorAlert>}

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
