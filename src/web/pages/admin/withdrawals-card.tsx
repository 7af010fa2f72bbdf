// Declarations made with "Vertrag widerrufen": staff see each new one, open its order (to refund from
// there) and mark it handled.
import { useState } from 'react';
import { Link } from '../../components/link.js';
import type { WithdrawalOutcome } from '../../../domain/withdrawal.js';
import { Badge, ListCard } from './admin-ui.js';
import { formatDateTime } from './admin-format.js';
import { useStaff } from './staff-session.js';
import { useAdminQuery } from './use-admin-query.js';

interface AdminWithdrawal {
  id: string;
  orderId: string | null;
  name: string;
  orderReference: string;
  email: string;
  outcome: WithdrawalOutcome;
  createdAt: string;
}

const OUTCOMES: Record<WithdrawalOutcome, { label: string; tone: 'red' | 'grey' | 'yellow' }> = {
  withdrawn: { label: 'Widerruf – erstatten', tone: 'red' },
  expired: { label: 'Recht erloschen (vollständig erbracht)', tone: 'grey' },
  late: { label: 'Nach Ablauf der Frist', tone: 'grey' },
  unpaid: { label: 'Nicht bezahlt – nicht ausführen', tone: 'yellow' },
  unmatched: { label: 'Keiner Bestellung zugeordnet', tone: 'yellow' },
};

export function WithdrawalsCard() {
  const { request } = useStaff();
  const { data, reload } = useAdminQuery<{ withdrawals: AdminWithdrawal[] }>('/api/admin/withdrawals?status=new');
  const [busy, setBusy] = useState(false);
  if (!data) return null;
  const handled = async (id: string) => {
    setBusy(true);
    try {
      await request(`/api/admin/withdrawals/${id}/handled`, { method: 'POST', body: {} });
      reload();
    } finally {
      setBusy(false);
    }
  };
  return (
    <ListCard id="withdrawals-title" title="Widerrufe" count={data.withdrawals.length} empty="Keine neuen Widerrufe." alert={data.withdrawals.length > 0} testId="withdrawals">
      <ul className="admin-list">
        {data.withdrawals.map((w) => (
          <li key={w.id} className="admin-list__item admin-list__item--static" data-testid="withdrawal">
            <span className="admin-list__main">
              <strong>{w.name}</strong>
              <Badge tone={OUTCOMES[w.outcome].tone}>{OUTCOMES[w.outcome].label}</Badge>
              <span className="admin-muted">{formatDateTime(w.createdAt)}</span>
            </span>
            <span className="admin-list__meta">
              {w.orderId ? <Link to={`/admin/orders/${w.orderId}`}>{w.orderReference}</Link> : w.orderReference} · <a href={`mailto:${w.email}`}>{w.email}</a>
            </span>
            <span className="admin-list__actions">
              <button type="button" className="button button--secondary button--small" disabled={busy} onClick={() => void handled(w.id)}>
                Erledigt
              </button>
            </span>
          </li>
        ))}
      </ul>
    </ListCard>
  );
}
