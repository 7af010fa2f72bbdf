// The side of the team order: the price as it follows the form, what the server decides, the business
// confirmation and the order button.
import { Link } from '../../components/link.js';
import { formatMoney } from '../../../domain/money.js';
import { CheckboxField, SubmitButton } from '../../components/form-fields.js';
import { PageLink } from '../../components/page-link.js';
import { useI18n } from '../../lib/i18n.js';
import { linkTarget } from '../../routes.js';
import { FIELD_IDS } from './team-order-form.js';
import type { TeamOrder } from './use-team-order.js';

function PriceList({ order }: { order: TeamOrder }) {
  const { t } = useI18n();
  const { price, treatment } = order;
  if (!price) {
    return (
      <p className="field__hint" data-testid="team-price">
        {t('team.order.seatsMissing')}
      </p>
    );
  }
  return (
    <dl className="prices" data-testid="team-price">
      <div className="prices__row">
        <dt>{t('team.order.seatLine', { seats: order.seats, package: t(`catalog.packages.${order.form.package}.name`) })}</dt>
        <dd>{formatMoney(price.packageListCents)}</dd>
      </div>
      {price.discountCents > 0 && (
        <div className="prices__row prices__row--discount">
          <dt>{t('team.order.discount', { percent: price.discountPercent })}</dt>
          <dd>−{formatMoney(price.discountCents)}</dd>
        </div>
      )}
      <div className="prices__row prices__row--minor">
        <dt>{t('team.order.net')}</dt>
        <dd data-testid="team-net">{formatMoney(price.netCents)}</dd>
      </div>
      <div className="prices__row prices__row--minor">
        <dt>{treatment === 'reverse_charge' ? t('team.order.reverseCharge') : t('team.order.vat', { rate: price.vatRatePercent })}</dt>
        <dd data-testid="team-vat">{formatMoney(price.vatCents)}</dd>
      </div>
      <div className="prices__row prices__row--total">
        <dt>{treatment === 'reverse_charge' ? t('team.order.totalNet') : t('team.order.total')}</dt>
        <dd data-testid="team-total">{formatMoney(price.grossCents)}</dd>
      </div>
    </dl>
  );
}

export function TeamOrderSide({ order }: { order: TeamOrder }) {
  const { t } = useI18n();
  const { errors, submitting } = order;
  const termsLink = linkTarget('agb');
  return (
    <aside className="summary__side" aria-labelledby="team-price-title">
      <h2 id="team-price-title" className="summary__heading">
        {t('team.order.priceTitle')}
      </h2>
      <PriceList order={order} />
      <div className="legal">
        <p className="legal__line">{t('team.order.serverDecides')}</p>
        <p className="legal__line">{t('order.summary.paymentMethods')}</p>
        <p className="legal__line">
          {t('team.order.termsBefore')} {termsLink ? <Link to={`${termsLink}#terms-s14`}>{t('team.order.terms')}</Link> : t('team.order.terms')}
          {t('team.order.termsAfter')}
        </p>
        <CheckboxField
          id={FIELD_IDS.businessConfirmed}
          checked={order.business}
          onChange={order.confirmBusiness}
          error={errors.businessConfirmed ? { id: `${FIELD_IDS.businessConfirmed}-error`, text: order.errorOf('businessConfirmed') } : null}
          testId="team-business"
        >
          {t('team.order.business')}
        </CheckboxField>
        {Object.keys(errors).length > 0 && (
          <p className="alert alert--error" data-testid="team-fix-fields">
            {t('team.order.fixFields')}
          </p>
        )}
        <SubmitButton error={order.formError} errorTestId="team-checkout-error" submitting={submitting} testId="team-order-button">
          {submitting ? t('team.order.submitting') : t('team.order.submit')}
        </SubmitButton>
      </div>
      <p className="team-form__consumer">
        {t('team.order.consumer')} <PageLink to="orderStart">{t('team.order.consumerLink')}</PageLink>
      </p>
    </aside>
  );
}
