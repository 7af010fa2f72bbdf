import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Link } from '../../components/link.js';
import { EXTRAS, PACKAGES, UPLOAD_LIMITS, offeredExtras, type ExtraKey } from '../../../domain/catalog.js';
import { BILLING_LIMITS, completeSelection, WAIVER_TEXT_VERSION } from '../../../domain/selection.js';
import { formatMoney } from '../../../domain/money.js';
import { priceOrder } from '../../../domain/pricing.js';
import { useAppData } from '../../app-data.js';
import { DetailRows, packageFeatures } from '../../components/details.js';
import { CheckboxField, FormField, SubmitButton } from '../../components/form-fields.js';
import { PageLink } from '../../components/page-link.js';
import { linkTarget } from '../../routes.js';
import { ApiError, api } from '../../lib/api.js';
import { checkForm, loadChecksOnUse } from '../../lib/form-checks.js';
import { useI18n } from '../../lib/i18n.js';
import { StepHeader } from './order-layout.js';
import type { UploadView } from '../../../domain/order-views.js';
import { useWizard } from './wizard-state.js';
import { trackEvent } from '../../lib/metrics.js';

const THUMBNAILS_SHOWN = 8;

function campaignFromCatalog(catalog: ReturnType<typeof useAppData>['catalog']) {
  const c = catalog.campaign;
  return c ? { id: c.id, percent: c.percent, packages: c.packages, startsAt: new Date(c.startsAt), endsAt: new Date(c.endsAt) } : null;
}

type BillingField = 'billingName' | 'billingAddress';

export function SummaryStep() {
  const { t, language } = useI18n();
  const { catalog, capabilities } = useAppData();
  // outfitNotOffered and locationNotOffered are this page's own messages (the shared error catalogue has no
  // wording for the choices).
  const errorText = (code: string) =>
    code === 'outfitNotOffered' || code === 'locationNotOffered' ? t(`order.summary.${code}`) : t(`errors.${code}`, { min: UPLOAD_LIMITS.minPhotos });
  const { state, ready, update, select, draftHeaders } = useWizard();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [uploads, setUploads] = useState<UploadView[] | null>(null);
  const [emailError, setEmailError] = useState<string | null>(null);
  const [waiver, setWaiver] = useState(false);
  const [waiverError, setWaiverError] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [billingErrors, setBillingErrors] = useState<{ billingName?: string; billingAddress?: string }>({});
  const billingError = (field: BillingField) => (billingErrors[field] ? t(`errors.${billingErrors[field]}`) : null);
  /** A billing field's value and change handler: typing clears the field's error. */
  const billingInput = (field: BillingField, id: string) => ({
    id,
    value: state[field],
    onChange: (e: { target: { value: string } }) => {
      update({ [field]: e.target.value });
      setBillingErrors((b) => ({ ...b, [field]: undefined }));
    },
    'data-testid': id,
  });
  const billingBox = useRef<HTMLDetailsElement>(null);
  const [submitting, setSubmitting] = useState(false);
  // The checks are loading for a press of the order button: a second press does nothing.
  const sending = useRef(false);
  const emailInput = useRef<HTMLInputElement>(null);
  const waiverInput = useRef<HTMLInputElement>(null);
  const selection = state.selection;

  useEffect(() => {
    if (!ready) return;
    if (!state.orderId || !state.draftToken) {
      // eslint-disable-next-line react-hooks/set-state-in-effect
      setUploads([]);
      return;
    }
    api<{ uploads: UploadView[] }>(`/api/orders/${state.orderId}/draft`, { headers: { 'x-draft-token': state.draftToken } })
      .then((draft) => setUploads(draft.uploads))
      .catch(() => setUploads([]));
  }, [ready, state.orderId, state.draftToken]);

  const pkg = selection.package;
  if (!pkg) {
    // Until the browser has read the wizard's state (and on the server) the same box says it is loading, so
    // the page paints its content at once and a new visitor's notice replaces the text in place.
    return (
      <section className="step" aria-busy={!ready}>
        <StepHeader title={t('order.summary.title')} />
        <p className="alert alert--info">
          {ready ? (
            <>
              {t('order.summary.noPackage')} <Link to="/order/package">{t('order.summary.toPackage')}</Link>
            </>
          ) : (
            t('order.summary.loading')
          )}
        </p>
      </section>
    );
  }

  const extrasOffered = offeredExtras(pkg);
  const extras = selection.extras.filter((e) => extrasOffered.includes(e));
  // The same calculation the server makes; the server's result is the one that is charged.
  const price = priceOrder({ package: pkg, extras, campaign: campaignFromCatalog(catalog), now: new Date() });
  const view = catalog.packages.find((p) => p.key === pkg)!;
  const cancelled = params.get('checkout') === 'cancelled';
  const failed = params.get('payment') === 'failed';

  const toggleExtra = (extra: ExtraKey, on: boolean) => select({ extras: on ? [...extras, extra] : extras.filter((e) => e !== extra) });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (submitting || sending.current) return;
    setError(null);
    sending.current = true;
    const checked = await checkForm((schemas) => schemas.summaryFieldsSchema, {
      email: state.email,
      billingName: state.billingName,
      billingAddress: state.billingAddress,
    });
    sending.current = false;
    if (checked.status === 'unavailable') {
      setError(`${t('order.summary.checkoutError', { message: t('errors.network') })} ${t('order.summary.retry')}`);
      return;
    }
    // Each field's first problem, in the order the form shows them: the e-mail, the waiver, then billing.
    const problems = checked.status === 'invalid' ? checked.fields : {};
    if (problems.email) {
      const code = problems.email;
      setEmailError(code === 'invalidText' ? t('errors.invalidText') : state.email.trim() ? t('order.summary.emailInvalid') : t('order.summary.emailRequired'));
      emailInput.current?.focus();
      return;
    }
    if (!waiver) {
      setWaiverError(true);
      waiverInput.current?.focus();
      return;
    }
    const billingProblems = { billingName: problems.billingName, billingAddress: problems.billingAddress };
    setBillingErrors(billingProblems);
    // The e-mail's problem returned above: a form still in error has one in its billing fields.
    if (checked.status === 'invalid') {
      if (billingBox.current) billingBox.current.open = true;
      document.getElementById(billingProblems.billingName ? 'billing-name' : 'billing-address')?.focus();
      return;
    }
    const complete = completeSelection({ ...selection, extras }, capabilities);
    if (!complete.ok) {
      setError(errorText(complete.code));
      return;
    }
    // A comfort check only, once the photos are known: a click before they have loaded goes to the server,
    // which counts them itself (and answers notEnoughPhotos).
    if (!state.orderId || (uploads !== null && uploads.length < UPLOAD_LIMITS.minPhotos)) {
      setError(t('errors.notEnoughPhotos', { min: UPLOAD_LIMITS.minPhotos }));
      return;
    }
    setSubmitting(true);
    trackEvent('begin_checkout');
    try {
      const session = await api<{ url: string }>(`/api/orders/${state.orderId}/checkout`, {
        method: 'POST',
        headers: draftHeaders(),
        body: {
          language,
          selection: { ...selection, extras },
          email: checked.data.email,
          waiverAccepted: true,
          waiverTextVersion: WAIVER_TEXT_VERSION,
          ...(state.billingName.trim() ? { billingName: state.billingName } : {}),
          ...(state.billingAddress.trim() ? { billingAddress: state.billingAddress } : {}),
        },
      });
      window.location.assign(session.url);
    } catch (caught) {
      const code = caught instanceof ApiError ? caught.code : 'unknown';
      trackEvent('error_occurred', code);
      setError(`${t('order.summary.checkoutError', { message: errorText(code) })} ${t('order.summary.retry')}`);
      setSubmitting(false);
    }
  };

  const rows: [string, string][] = [
    [t('order.summary.package'), t(`catalog.packages.${pkg}.name`)],
    ...(selection.gender ? ([[t('order.summary.gender'), t(`catalog.genders.${selection.gender}`)]] as [string, string][]) : []),
    ...(selection.style ? ([[t('order.summary.style'), t(`catalog.styles.${selection.style}.name`)]] as [string, string][]) : []),
    ...(PACKAGES[pkg].hasRefinement && selection.location ? ([[t('order.summary.location'), t(`catalog.locations.${selection.location}.name`)]] as [string, string][]) : []),
    ...(PACKAGES[pkg].hasRefinement && capabilities.newOutfits && selection.outfit ? ([[t('order.summary.outfit'), t(`catalog.outfits.${selection.outfit}.name`)]] as [string, string][]) : []),
  ];
  const shown = (uploads ?? []).slice(0, THUMBNAILS_SHOWN);
  const more = (uploads?.length ?? 0) - shown.length;
  const features = packageFeatures(view, t, { refinement: false, newOutfits: capabilities.newOutfits });
  const termsLink = linkTarget('agb');
  const privacyLink = linkTarget('datenschutz');

  return (
    <section className="step step--summary">
      <StepHeader title={t('order.summary.title')} />
      {cancelled && !failed && (
        <p className="alert alert--info" role="status">
          {t('order.summary.cancelled')}
        </p>
      )}
      {failed && (
        <p className="alert alert--error" role="alert">
          {t('order.summary.failed')}
        </p>
      )}
      <form className="summary" onSubmit={submit} noValidate {...loadChecksOnUse}>
        <div className="summary__main">
          <FormField id="email" label={t('order.summary.emailLabel')} error={emailError} hint={t('order.summary.emailHint')}>
            {(aria) => (
              <input
                ref={emailInput}
                id="email"
                type="email"
                autoComplete="email"
                inputMode="email"
                value={state.email}
                {...aria}
                onChange={(e) => {
                  update({ email: e.target.value });
                  setEmailError(null);
                }}
                data-testid="email"
              />
            )}
          </FormField>

          <details ref={billingBox} className="billing" open={Boolean(state.billingName || state.billingAddress)}>
            <summary className="billing__summary">{t('order.summary.billing.title')}</summary>
            <p className="field__hint">{t('order.summary.billing.hint')}</p>
            <FormField id="billing-name" label={t('order.summary.billing.name')} error={billingError('billingName')}>
              {(aria) => <input autoComplete="name" maxLength={BILLING_LIMITS.name} {...billingInput('billingName', 'billing-name')} {...aria} />}
            </FormField>
            <FormField id="billing-address" label={t('order.summary.billing.address')} error={billingError('billingAddress')}>
              {(aria) => <textarea autoComplete="street-address" rows={3} maxLength={BILLING_LIMITS.address} {...billingInput('billingAddress', 'billing-address')} {...aria} />}
            </FormField>
          </details>

          <h2 className="summary__heading">{t('order.summary.yourOrder')}</h2>
          <DetailRows rows={rows} />

          <h2 className="summary__heading">{t('order.summary.photos', { count: uploads?.length ?? 0 })}</h2>
          {uploads && uploads.length === 0 ? (
            <p className="alert alert--info">
              {t('order.summary.noPhotos')} <Link to="/order/upload">{t('order.summary.toUpload')}</Link>
            </p>
          ) : (
            <ul className="thumbs thumbs--small">
              {shown.map((u) => (
                <li key={u.id} className="thumb">
                  <img src={u.thumbnailUrl} alt={u.fileName} width={96} height={96} loading="lazy" />
                </li>
              ))}
              {more > 0 && <li className="thumb thumb--more">{t('order.summary.more', { n: more })}</li>}
            </ul>
          )}

          <h2 className="summary__heading">{t('order.summary.features')}</h2>
          <ul className="summary__features">
            {features.map((f) => (
              <li key={f}>{f}</li>
            ))}
          </ul>

          {extrasOffered.length > 0 && (
            <fieldset className="summary__extras">
              <legend className="summary__heading">{t('order.summary.extras')}</legend>
              {extrasOffered.map((extra) => (
                <label key={extra} className="extra">
                  <input type="checkbox" checked={extras.includes(extra)} onChange={(e) => toggleExtra(extra, e.target.checked)} data-testid={`extra-${extra}`} />
                  <span className="extra__text">
                    <strong>{t(`catalog.extras.${extra}.name`)}</strong> {t(`catalog.extras.${extra}.description`)}
                  </span>
                  <span className="extra__price">+ {formatMoney(EXTRAS[extra].priceCents)}</span>
                </label>
              ))}
            </fieldset>
          )}
        </div>

        <aside className="summary__side" aria-labelledby="price-heading">
          <h2 id="price-heading" className="summary__heading">
            {t('order.summary.priceTitle')}
          </h2>
          <dl className="prices" data-testid="price-breakdown">
            <div className="prices__row">
              <dt>{t(`catalog.packages.${pkg}.name`)}</dt>
              <dd>{formatMoney(price.packageListCents)}</dd>
            </div>
            {price.discountCents > 0 && (
              <div className="prices__row prices__row--discount">
                <dt>{t('order.summary.discount', { percent: price.discountPercent })}</dt>
                <dd>−{formatMoney(price.discountCents)}</dd>
              </div>
            )}
            {price.lines
              .filter((l) => l.kind === 'extra')
              .map((l) => (
                <div key={l.key} className="prices__row">
                  <dt>{t(`catalog.extras.${l.key}.name`)}</dt>
                  <dd>{formatMoney(l.cents)}</dd>
                </div>
              ))}
            <div className="prices__row prices__row--minor">
              <dt>{t('order.summary.net')}</dt>
              <dd>{formatMoney(price.netCents)}</dd>
            </div>
            <div className="prices__row prices__row--minor">
              <dt>{t('order.summary.vat', { rate: price.vatRatePercent })}</dt>
              <dd>{formatMoney(price.vatCents)}</dd>
            </div>
            <div className="prices__row prices__row--total">
              <dt>{t('order.summary.total')}</dt>
              <dd data-testid="total">{formatMoney(price.grossCents)}</dd>
            </div>
          </dl>

          <div className="legal">
            <p className="legal__line">
              <strong>{t(`catalog.packages.${pkg}.name`)}</strong>
              {extras.length > 0 && ` + ${extras.map((e) => t(`catalog.extras.${e}.name`)).join(', ')}`} · {t('order.summary.totalShort')}{' '}
              <strong>{formatMoney(price.grossCents)}</strong>
            </p>
            <p className="legal__line">{t('order.summary.paymentMethods')}</p>
            <p className="legal__line">
              {t('order.summary.termsBefore')}{' '}
              {termsLink ? <PageLink to="agb">{t('order.summary.terms')}</PageLink> : t('order.summary.terms')} {t('order.summary.termsAnd')}{' '}
              {privacyLink ? <PageLink to="datenschutz">{t('order.summary.privacy')}</PageLink> : t('order.summary.privacy')}
              {t('order.summary.termsAfter')}
            </p>
            <CheckboxField
              ref={waiverInput}
              checked={waiver}
              onChange={(checked) => {
                setWaiver(checked);
                setWaiverError(false);
              }}
              error={waiverError && !waiver ? { id: 'waiver-error', text: t('order.summary.waiverRequired') } : null}
              testId="waiver"
            >
              {t('order.summary.waiver')}
            </CheckboxField>
            <SubmitButton error={error} errorTestId="checkout-error" submitting={submitting} testId="order-button">
              {submitting ? t('order.summary.submitting') : t('order.summary.submit')}
            </SubmitButton>
          </div>
          <button type="button" className="button button--link" onClick={() => navigate(-1)}>
            {t('order.back')}
          </button>
        </aside>
      </form>
    </section>
  );
}
