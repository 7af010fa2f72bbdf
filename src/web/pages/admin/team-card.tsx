// The detail page's team card: a team order's seats, VAT and members, or the team a member's order belongs to.
import { Link } from '../../components/link.js';
import type { AdminOrderDetail } from '../../../domain/staff-api.js';
import { Badge, OrderEntry } from './admin-ui.js';
import { orderStatusLabel, orderStatusTone } from './admin-format.js';

/** A team order: seats, VAT, its members (each an order of its own); a member's order: its team. */
export function TeamCard({ detail }: { detail: AdminOrderDetail }) {
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
            <OrderEntry
              key={member.id}
              orderId={member.id}
              number={member.orderNumber}
              testId="team-member"
              main={
                <>
                  <span>{member.email ?? '–'}</span>
                  <Badge tone={orderStatusTone(member.status)}>{member.paymentStatus === 'paid' || member.status === 'cancelled' ? orderStatusLabel(member.status) : 'Lädt Fotos hoch'}</Badge>
                </>
              }
            />
          ))}
        </ul>
      )}
    </section>
  );
}
