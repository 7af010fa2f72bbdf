// The company's order (issue 17): seats of one package, the team's look, the billing data and the VAT ID, and a
// price that follows every change. The checks here are for comfort; the server validates with the same schema,
// prices from its catalogue and decides the VAT treatment.
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Link } from '../../components/link.js';
import { offeredLocations } from '../../../domain/capabilities.js';
import { BASE_STYLES, OUTFITS, PACKAGES, PACKAGE_KEYS, type BaseStyle, type Location, type Outfit, type PackageKey } from '../../../domain/catalog.js';
import { formatMoney, localeFor } from '../../../domain/money.js';
import { priceTeamOrder, type VatTreatment } from '../../../domain/pricing.js';
import { BILLING_LIMITS } from '../../../domain/selection.js';
import { TEAM_LIMITS } from '../../../domain/team-rules.js';
import { checkVatId, vatTreatmentFor } from '../../../domain/vat-id.js';
import { useAppData } from '../../app-data.js';
import { CheckboxField, FormField, SubmitButton } from '../../components/form-fields.js';
import { PageLink } from '../../components/page-link.js';
import { useI18n, useNamespace } from '../../lib/i18n.js';
import { ApiError, api } from '../../lib/api.js';
import { checkForm, loadChecksOnUse } from '../../lib/form-checks.js';
import { trackEvent } from '../../lib/metrics.js';
import { linkTarget } from '../../routes.js';
import { ChoiceButton } from '../order/choice-button.js';
import { NumberedHeading, useTeamErrorText } from './team-parts.js';

const FORM_STORAGE_KEY = 'team-order';

interface TeamForm {
  package: PackageKey;
  seats: string;
  style: BaseStyle | null;
  location: Location | null;
  outfit: Outfit | null;
  companyName: string;
  companyAddress: string;
  vatId: string;
  email: string;
}

const INITIAL: TeamForm = { package: 'pro', seats: '5', style: 'professional', location: 'studio', outfit: null, companyName: '', companyAddress: '', vatId: '', email: '' };

/** The form's fields in the order they appear: the first one with an error takes the focus. */
const FIELD_ORDER = ['package', 'seats', 'style', 'location', 'outfit', 'companyName', 'companyAddress', 'vatId', 'email', 'businessConfirmed'] as const;
type Field = (typeof FIELD_ORDER)[number];
const FIELD_IDS: Record<Field, string> = {
  package: 'team-package',
  seats: 'team-seats',
  style: 'team-style',
  location: 'team-location',
  outfit: 'team-outfit',
  companyName: 'team-company',
  companyAddress: 'team-address',
  vatId: 'team-vat-id',
  email: 'team-email',
  businessConfirmed: 'team-business',
};

function campaignFromCatalog(catalog: ReturnType<typeof useAppData>['catalog']) {
  const c = catalog.campaign;
  return c ? { id: c.id, percent: c.percent, packages: c.packages, startsAt: new Date(c.startsAt), endsAt: new Date(c.endsAt) } : null;
}

/** The country of a VAT ID's prefix, in the page's language (VIES writes Greece EL). */
function countryName(prefix: string, language: 'de' | 'en' | 'es'): string {
  try {
    return new Intl.DisplayNames([localeFor(language)], { type: 'region' }).of(prefix === 'EL' ? 'GR' : prefix) ?? prefix;
  } catch {
    return prefix;
  }
}

/** The parts of the team's look, each a choice from its catalogue list. */
type LookField = 'style' | 'location' | 'outfit';
const LOOK_CATALOG: Record<LookField, string> = { style: 'styles', location: 'locations', outfit: 'outfits' };

/** One part of the look: its heading, a button per option, and its error (the group takes the focus for it). */
function LookChoices<K extends string>(props: {
  field: LookField;
  options: readonly K[];
  columns?: 'two' | 'three';
  selected: K | null;
  onSelect: (key: K) => void;
  error: ReactNode;
}) {
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
      {props.error}
    </>
  );
}

export function TeamOrderPage() {
  useNamespace('team');
  const { t, language } = useI18n();
  const { catalog, capabilities, site } = useAppData();
  const errorText = useTeamErrorText();
  const [form, setForm] = useState<TeamForm>(INITIAL);
  const [ready, setReady] = useState(false);
  const [business, setBusiness] = useState(false);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  // The checks are loading for a press of the order button: a second press does nothing.
  const sending = useRef(false);

  useEffect(() => {
    // Kept for this browser session, so a cancelled payment or a reload does not empty the form.
    try {
      const stored = JSON.parse(sessionStorage.getItem(FORM_STORAGE_KEY) ?? 'null') as Partial<TeamForm> | null;
      // eslint-disable-next-line react-hooks/set-state-in-effect
      if (stored) setForm((f) => ({ ...f, ...stored }));
    } catch {
      // nothing kept
    }
    setReady(true);
  }, []);
  useEffect(() => {
    if (!ready) return;
    try {
      sessionStorage.setItem(FORM_STORAGE_KEY, JSON.stringify(form));
    } catch {
      // storage full or disabled: the form still works
    }
  }, [form, ready]);

  const change = (patch: Partial<TeamForm>, ...fields: Field[]) => {
    setForm((f) => ({ ...f, ...patch }));
    setErrors((e) => {
      const next = { ...e };
      for (const field of fields) delete next[field];
      return next;
    });
    setFormError(null);
  };

  const pkg = PACKAGES[form.package];
  const locations = offeredLocations(capabilities);
  // Where the shop cannot draw a location or make an outfit (a tab opened under other settings), it is not sent.
  const location = pkg.hasRefinement && form.location && locations.includes(form.location) ? form.location : null;
  const outfit = pkg.hasRefinement && capabilities.newOutfits ? form.outfit : null;
  const seats = Number(form.seats);
  const seatsValid = form.seats.trim() !== '' && Number.isInteger(seats) && seats >= TEAM_LIMITS.minSeats && seats <= TEAM_LIMITS.maxSeats;

  // The VAT ID decides the VAT: another EU country's means reverse charge, where the shop can invoice so.
  const vatCheck = form.vatId.trim() ? checkVatId(form.vatId) : null;
  const wantsReverse = vatCheck?.ok === true && vatTreatmentFor(vatCheck.vatId) === 'reverse_charge';
  const reverseUnavailable = wantsReverse && !site.vatId;
  const treatment: VatTreatment = wantsReverse && !reverseUnavailable ? 'reverse_charge' : 'standard';
  const price = seatsValid ? priceTeamOrder({ package: form.package, seats, campaign: campaignFromCatalog(catalog), now: new Date(), treatment }) : null;
  const vatProblem = vatCheck && !vatCheck.ok ? 'vatIdInvalid' : reverseUnavailable ? 'reverseChargeUnavailable' : null;
  // Named when the order is sent, not when the field is left: a message appearing then would move the button
  // the visitor is about to press.
  const vatError = errors.vatId ?? null;

  const showErrors = (found: Partial<Record<Field, string>>) => {
    setErrors(found);
    const first = FIELD_ORDER.find((field) => found[field]);
    if (first) document.getElementById(FIELD_IDS[first])?.focus();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (submitting || sending.current) return;
    setFormError(null);
    sending.current = true;
    const body = {
      language,
      email: form.email,
      package: form.package,
      seats: form.seats.trim() === '' ? Number.NaN : seats,
      style: form.style,
      location,
      outfit,
      companyName: form.companyName,
      companyAddress: form.companyAddress,
      ...(form.vatId.trim() ? { vatId: form.vatId } : {}),
      businessConfirmed: business,
    };
    const checked = await checkForm((schemas) => schemas.teamCheckoutSchema, body);
    sending.current = false;
    if (checked.status === 'unavailable') {
      setFormError(t('team.order.checkoutError', { message: errorText('network') }));
      return;
    }
    const found: Partial<Record<Field, string>> = checked.status === 'invalid' ? (checked.fields as Partial<Record<Field, string>>) : {};
    if (pkg.hasRefinement && !location) found.location = 'locationRequired';
    if (pkg.hasRefinement && capabilities.newOutfits && !outfit) found.outfit = 'outfitRequired';
    if (vatProblem) found.vatId = vatProblem;
    if (Object.keys(found).length || checked.status !== 'valid') {
      showErrors(found);
      return;
    }
    setSubmitting(true);
    trackEvent('begin_checkout');
    try {
      const session = await api<{ orderId: string; url: string }>('/api/teams', { method: 'POST', body: checked.data });
      window.location.assign(session.url);
    } catch (caught) {
      setSubmitting(false);
      const error = caught instanceof ApiError ? caught : new ApiError(0, 'unknown');
      trackEvent('error_occurred', error.code);
      const field = typeof error.details.field === 'string' ? (error.details.field as Field) : null;
      if (Object.keys(error.fields).length) showErrors(error.fields as Partial<Record<Field, string>>);
      else if (field && FIELD_ORDER.includes(field)) showErrors({ [field]: error.code });
      else setFormError(t('team.order.checkoutError', { message: errorText(error.code, { min: TEAM_LIMITS.minSeats }) }));
    }
  };

  const errorOf = (field: Field) => (errors[field] ? errorText(errors[field]) : null);
  const fieldError = (field: Field) =>
    errors[field] ? (
      <p id={`${FIELD_IDS[field]}-error`} className="field__error" role="alert">
        {errorOf(field)}
      </p>
    ) : null;
  const packageView = (key: PackageKey) => catalog.packages.find((p) => p.key === key)!;
  const termsLink = linkTarget('agb');

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

      <form className="summary team-form" onSubmit={submit} noValidate {...loadChecksOnUse}>
        <div className="summary__main">
          <section className="team-form__section" aria-labelledby="team-package-title">
            <NumberedHeading id="team-package-title" number={1}>{t('team.order.packageTitle')}</NumberedHeading>
            <div id={FIELD_IDS.package} className="choices choices--three" role="group" aria-labelledby="team-package-title" tabIndex={-1}>
              {PACKAGE_KEYS.map((key) => {
                const view = packageView(key);
                return (
                  <ChoiceButton
                    key={key}
                    testId={`team-package-${key}`}
                    selected={form.package === key}
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
                    onClick={() => change({ package: key }, 'package', 'location', 'outfit')}
                  />
                );
              })}
            </div>
            {fieldError('package')}
          </section>

          <section className="team-form__section" aria-labelledby="team-seats-title">
            <NumberedHeading id="team-seats-title" number={2}>{t('team.order.seatsTitle')}</NumberedHeading>
            <FormField
              id={FIELD_IDS.seats}
              label={t('team.order.seatsLabel')}
              error={errorOf('seats')}
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
                    value={form.seats}
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

          <section className="team-form__section" aria-labelledby="team-look-title">
            <NumberedHeading id="team-look-title" number={3}>{t('team.order.lookTitle')}</NumberedHeading>
            <p className="field__hint">{t('team.order.lookHint')}</p>
            <LookChoices field="style" options={BASE_STYLES} selected={form.style} onSelect={(style) => change({ style }, 'style')} error={fieldError('style')} />
            {pkg.hasRefinement && (
              <LookChoices
                field="location"
                options={locations}
                columns={locations.length === 3 ? 'three' : 'two'}
                selected={location}
                onSelect={(key) => change({ location: key }, 'location')}
                error={fieldError('location')}
              />
            )}
            {pkg.hasRefinement && capabilities.newOutfits && (
              <LookChoices field="outfit" options={OUTFITS} selected={outfit} onSelect={(key) => change({ outfit: key }, 'outfit')} error={fieldError('outfit')} />
            )}
          </section>

          <section className="team-form__section" aria-labelledby="team-billing-title">
            <NumberedHeading id="team-billing-title" number={4}>{t('team.order.billingTitle')}</NumberedHeading>
            <FormField id={FIELD_IDS.companyName} label={t('team.order.companyName')} error={errorOf('companyName')}>
              {(aria) => (
                <input
                  id={FIELD_IDS.companyName}
                  autoComplete="organization"
                  maxLength={BILLING_LIMITS.name}
                  value={form.companyName}
                  onChange={(e) => change({ companyName: e.target.value }, 'companyName')}
                  {...aria}
                  data-testid="team-company"
                />
              )}
            </FormField>
            <FormField id={FIELD_IDS.companyAddress} label={t('team.order.companyAddress')} error={errorOf('companyAddress')} hint={t('team.order.companyAddressHint')}>
              {(aria) => (
                <textarea
                  id={FIELD_IDS.companyAddress}
                  autoComplete="street-address"
                  rows={3}
                  maxLength={BILLING_LIMITS.address}
                  value={form.companyAddress}
                  onChange={(e) => change({ companyAddress: e.target.value }, 'companyAddress')}
                  {...aria}
                  data-testid="team-address"
                />
              )}
            </FormField>
            <FormField
              id={FIELD_IDS.vatId}
              label={t('team.order.vatId')}
              error={vatError && errorText(vatError)}
              hint={
                !vatCheck?.ok
                  ? t('team.order.vatIdHint')
                  : reverseUnavailable
                    ? errorText('reverseChargeUnavailable')
                    : t(treatment === 'reverse_charge' ? 'team.order.vatIdReverse' : 'team.order.vatIdDomestic', { country: countryName(vatCheck.country, language) })
              }
              hintTestId="team-vat-hint"
            >
              {(aria) => (
                <input
                  id={FIELD_IDS.vatId}
                  autoComplete="off"
                  autoCapitalize="characters"
                  spellCheck={false}
                  maxLength={20}
                  value={form.vatId}
                  onChange={(e) => change({ vatId: e.target.value }, 'vatId')}
                  {...aria}
                  data-testid="team-vat-id"
                />
              )}
            </FormField>
            <FormField id={FIELD_IDS.email} label={t('team.order.email')} error={errorOf('email')} hint={t('team.order.emailHint')}>
              {(aria) => (
                <input
                  id={FIELD_IDS.email}
                  type="email"
                  autoComplete="email"
                  inputMode="email"
                  value={form.email}
                  onChange={(e) => change({ email: e.target.value }, 'email')}
                  {...aria}
                  data-testid="team-email"
                />
              )}
            </FormField>
          </section>
        </div>

        <aside className="summary__side" aria-labelledby="team-price-title">
          <h2 id="team-price-title" className="summary__heading">
            {t('team.order.priceTitle')}
          </h2>
          {price ? (
            <dl className="prices" data-testid="team-price">
              <div className="prices__row">
                <dt>{t('team.order.seatLine', { seats, package: t(`catalog.packages.${form.package}.name`) })}</dt>
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
          ) : (
            <p className="field__hint" data-testid="team-price">
              {t('team.order.seatsMissing')}
            </p>
          )}
          <div className="legal">
            <p className="legal__line">{t('team.order.serverDecides')}</p>
            <p className="legal__line">{t('order.summary.paymentMethods')}</p>
            <p className="legal__line">
              {t('team.order.termsBefore')} {termsLink ? <Link to={`${termsLink}#terms-s14`}>{t('team.order.terms')}</Link> : t('team.order.terms')}
              {t('team.order.termsAfter')}
            </p>
            <CheckboxField
              id={FIELD_IDS.businessConfirmed}
              checked={business}
              onChange={(checked) => {
                setBusiness(checked);
                setErrors((e) => {
                  const next = { ...e };
                  delete next.businessConfirmed;
                  return next;
                });
              }}
              error={errors.businessConfirmed ? { id: `${FIELD_IDS.businessConfirmed}-error`, text: errorOf('businessConfirmed') } : null}
              testId="team-business"
            >
              {t('team.order.business')}
            </CheckboxField>
            {Object.keys(errors).length > 0 && (
              <p className="alert alert--error" data-testid="team-fix-fields">
                {t('team.order.fixFields')}
              </p>
            )}
            <SubmitButton error={formError} errorTestId="team-checkout-error" submitting={submitting} testId="team-order-button">
              {submitting ? t('team.order.submitting') : t('team.order.submit')}
            </SubmitButton>
          </div>
          <p className="team-form__consumer">
            {t('team.order.consumer')} <PageLink to="orderStart">{t('team.order.consumerLink')}</PageLink>
          </p>
        </aside>
      </form>
    </div>
  );
}
