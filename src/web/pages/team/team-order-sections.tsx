// The numbered steps of the team order's form: the package, the seats, the team's look and the billing data.
import { BASE_STYLES, OUTFITS, PACKAGE_KEYS } from '../../../domain/catalog.js';
import { formatMoney } from '../../../domain/money.js';
import { BILLING_LIMITS } from '../../../domain/selection.js';
import { TEAM_LIMITS } from '../../../domain/team-rules.js';
import { useAppData } from '../../app-data.js';
import { FormField } from '../../components/form-fields.js';
import { useI18n } from '../../lib/i18n.js';
import { ChoiceButton } from '../order/choice-button.js';
import { FIELD_IDS, countryName, type Field } from './team-order-form.js';
import { NumberedHeading, TextField, useTeamErrorText, type TextFieldProps } from './team-parts.js';
import type { TeamOrder } from './use-team-order.js';

/** A choice's error under its group (the group takes the focus for it). */
function ChoiceError({ order, field }: { order: TeamOrder; field: Field }) {
  const text = order.errorOf(field);
  return text ? (
    <p id={`${FIELD_IDS[field]}-error`} className="field__error" role="alert">
      {text}
    </p>
  ) : null;
}

export function PackageSection({ order }: { order: TeamOrder }) {
  const { t } = useI18n();
  const { catalog } = useAppData();
  return (
    <section className="team-form__section" aria-labelledby="team-package-title">
      <NumberedHeading id="team-package-title" number={1}>{t('team.order.packageTitle')}</NumberedHeading>
      <div id={FIELD_IDS.package} className="choices choices--three" role="group" aria-labelledby="team-package-title" tabIndex={-1}>
        {PACKAGE_KEYS.map((key) => {
          const view = catalog.packages.find((p) => p.key === key)!;
          return (
            <ChoiceButton
              key={key}
              testId={`team-package-${key}`}
              selected={order.form.package === key}
              badge={view.popular ? t('home.pricing.popular') : undefined}
              title={t(`catalog.packages.${key}.name`)}
              description={t(`catalog.packages.${key}.description`)}
              extra={
                <span className="choice__price">
                  <strong>{formatMoney(view.priceCents)}</strong>
                  {view.priceCents < view.listPriceCents && <s>{formatMoney(view.listPriceCents)}</s>}
                  <span className="team-form__per-person">{t('team.order.perPerson')}</span>
                  <span className="choice__meta">
                    {t('home.pricing.photos', { n: view.imageCount })} · {t('home.pricing.delivery', { hours: view.deliveryHours })}
                  </span>
                </span>
              }
              onClick={() => order.change({ package: key }, 'package', 'location', 'outfit')}
            />
          );
        })}
      </div>
      <ChoiceError order={order} field="package" />
    </section>
  );
}

export function SeatsSection({ order }: { order: TeamOrder }) {
  const { t } = useI18n();
  const { seats, seatsValid, change } = order;
  return (
    <section className="team-form__section" aria-labelledby="team-seats-title">
      <NumberedHeading id="team-seats-title" number={2}>{t('team.order.seatsTitle')}</NumberedHeading>
      <FormField
        id={FIELD_IDS.seats}
        label={t('team.order.seatsLabel')}
        error={order.errorOf('seats')}
        hint={t('team.order.seatsHint', { min: TEAM_LIMITS.minSeats, max: TEAM_LIMITS.maxSeats })}
      >
        {(aria) => (
          <div className="stepper">
            <button
              type="button"
              className="button button--secondary stepper__button"
              aria-label={t('team.order.fewer')}
              disabled={seatsValid && seats <= TEAM_LIMITS.minSeats}
              onClick={() => change({ seats: String(Math.max(TEAM_LIMITS.minSeats, (seatsValid ? seats : TEAM_LIMITS.minSeats + 1) - 1)) }, 'seats')}
            >
              −
            </button>
            <input
              id={FIELD_IDS.seats}
              className="stepper__input"
              type="number"
              inputMode="numeric"
              min={TEAM_LIMITS.minSeats}
              max={TEAM_LIMITS.maxSeats}
              step={1}
              value={order.form.seats}
              onChange={(e) => change({ seats: e.target.value }, 'seats')}
              {...aria}
              data-testid="team-seats"
            />
            <button
              type="button"
              className="button button--secondary stepper__button"
              aria-label={t('team.order.more')}
              disabled={seatsValid && seats >= TEAM_LIMITS.maxSeats}
              onClick={() => change({ seats: String(Math.min(TEAM_LIMITS.maxSeats, (seatsValid ? seats : TEAM_LIMITS.minSeats - 1) + 1)) }, 'seats')}
            >
              +
            </button>
          </div>
        )}
      </FormField>
    </section>
  );
}

/** The parts of the team's look, each a choice from its catalogue list. */
type LookField = 'style' | 'location' | 'outfit';
const LOOK_CATALOG: Record<LookField, string> = { style: 'styles', location: 'locations', outfit: 'outfits' };

/** One part of the look: its heading, a button per option, and its error (the group takes the focus for it). */
function LookChoices<K extends string>(props: { order: TeamOrder; field: LookField; options: readonly K[]; columns?: 'two' | 'three'; selected: K | null; onSelect: (key: K) => void }) {
  const { t } = useI18n();
  const { field } = props;
  const list = LOOK_CATALOG[field];
  return (
    <>
      <h3 className="team-form__subheading" id={`team-${field}-title`}>
        {t(`team.look.${field}`)}
      </h3>
      <div id={FIELD_IDS[field]} className={`choices choices--${props.columns ?? 'three'}`} role="group" aria-labelledby={`team-${field}-title`} tabIndex={-1}>
        {props.options.map((key) => (
          <ChoiceButton
            key={key}
            testId={`team-${field}-${key}`}
            selected={props.selected === key}
            title={t(`catalog.${list}.${key}.name`)}
            description={t(`catalog.${list}.${key}.description`)}
            onClick={() => props.onSelect(key)}
          />
        ))}
      </div>
      <ChoiceError order={props.order} field={field} />
    </>
  );
}

export function LookSection({ order }: { order: TeamOrder }) {
  const { t } = useI18n();
  const { capabilities } = useAppData();
  const { pkg, locations, change } = order;
  return (
    <section className="team-form__section" aria-labelledby="team-look-title">
      <NumberedHeading id="team-look-title" number={3}>{t('team.order.lookTitle')}</NumberedHeading>
      <p className="field__hint">{t('team.order.lookHint')}</p>
      <LookChoices order={order} field="style" options={BASE_STYLES} selected={order.form.style} onSelect={(style) => change({ style }, 'style')} />
      {pkg.hasRefinement && (
        <LookChoices
          order={order}
          field="location"
          options={locations}
          columns={locations.length === 3 ? 'three' : 'two'}
          selected={order.location}
          onSelect={(key) => change({ location: key }, 'location')}
        />
      )}
      {pkg.hasRefinement && capabilities.newOutfits && (
        <LookChoices order={order} field="outfit" options={OUTFITS} selected={order.outfit} onSelect={(key) => change({ outfit: key }, 'outfit')} />
      )}
    </section>
  );
}

type BillingKey = 'companyName' | 'companyAddress' | 'vatId' | 'email';

/** A billing field: its label, error, value and test id follow from the field's name. */
function BillingField({ order, field, ...rest }: { order: TeamOrder; field: BillingKey } & Omit<TextFieldProps, 'id' | 'label' | 'error' | 'value' | 'onChange' | 'testId'>) {
  const { t } = useI18n();
  const id = FIELD_IDS[field];
  const change = (value: string) => order.change({ [field]: value }, field);
  return <TextField id={id} label={t(`team.order.${field}`)} error={order.errorOf(field)} {...rest} value={order.form[field]} onChange={change} testId={id} />;
}

export function BillingSection({ order }: { order: TeamOrder }) {
  const { t, language } = useI18n();
  const errorText = useTeamErrorText();
  const { vatCheck } = order;
  const vatHint = !vatCheck?.ok
    ? t('team.order.vatIdHint')
    : order.reverseUnavailable
      ? errorText('reverseChargeUnavailable')
      : t(order.treatment === 'reverse_charge' ? 'team.order.vatIdReverse' : 'team.order.vatIdDomestic', { country: countryName(vatCheck.country, language) });
  return (
    <section className="team-form__section" aria-labelledby="team-billing-title">
      <NumberedHeading id="team-billing-title" number={4}>{t('team.order.billingTitle')}</NumberedHeading>
      <BillingField order={order} field="companyName" autoComplete="organization" maxLength={BILLING_LIMITS.name} />
      <BillingField order={order} field="companyAddress" hint={t('team.order.companyAddressHint')} multiline autoComplete="street-address" rows={3} maxLength={BILLING_LIMITS.address} />
      <BillingField order={order} field="vatId" hint={vatHint} hintTestId="team-vat-hint" autoComplete="off" autoCapitalize="characters" spellCheck={false} maxLength={20} />
      <BillingField order={order} field="email" hint={t('team.order.emailHint')} type="email" autoComplete="email" inputMode="email" />
    </section>
  );
}
