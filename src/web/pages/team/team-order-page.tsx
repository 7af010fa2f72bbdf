// The company's order (issue 17): seats of one package, the team's look, the billing data and the VAT ID, and a
// price that follows every change. The checks here are for comfort; the server validates with the same schema,
// prices from its catalogue and decides the VAT treatment.
import { loadChecksOnUse } from '../../lib/form-checks.js';
import { useI18n, useNamespace } from '../../lib/i18n.js';
import { TeamOrderSide } from './team-order-price.js';
import { BillingSection, LookSection, PackageSection, SeatsSection } from './team-order-sections.js';
import { useTeamOrder } from './use-team-order.js';

export function TeamOrderPage() {
  useNamespace('team');
  const { t } = useI18n();
  const order = useTeamOrder();

  return (
    <div className="page team-order" data-testid="team-order">
      <header className="team-hero">
        <p className="team-hero__eyebrow">{t('team.order.eyebrow')}</p>
        <h1>{t('team.order.title')}</h1>
        <p className="page__lead">{t('team.order.lead')}</p>
        <ul className="check-list team-hero__points">
          {(['look', 'privacy', 'invoice', 'zip'] as const).map((key) => (
            <li key={key}>{t(`team.order.points.${key}`)}</li>
          ))}
        </ul>
      </header>

      <form className="summary team-form" onSubmit={order.submit} noValidate {...loadChecksOnUse}>
        <div className="summary__main">
          <PackageSection order={order} />
          <SeatsSection order={order} />
          <LookSection order={order} />
          <BillingSection order={order} />
        </div>
        <TeamOrderSide order={order} />
      </form>
    </div>
  );
}
