// The team order's state: the form (kept for this browser session), its errors, the price and VAT treatment that
// follow every change, and sending it to the payment page.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { offeredLocations } from '../../../domain/capabilities.js';
import { PACKAGES } from '../../../domain/catalog.js';
import { priceTeamOrder, type VatTreatment } from '../../../domain/pricing.js';
import { TEAM_LIMITS } from '../../../domain/team-rules.js';
import { checkVatId, vatTreatmentFor } from '../../../domain/vat-id.js';
import { useAppData } from '../../app-data.js';
import { useI18n } from '../../lib/i18n.js';
import { ApiError, api } from '../../lib/api.js';
import { checkForm } from '../../lib/form-checks.js';
import { trackEvent } from '../../lib/metrics.js';
import { useSessionSave } from '../order/use-session-save.js';
import { FIELD_IDS, FIELD_ORDER, FORM_STORAGE_KEY, INITIAL, campaignFromCatalog, type Field, type TeamForm } from './team-order-form.js';
import { useTeamErrorText } from './team-parts.js';

type FieldErrors = Partial<Record<Field, string>>;

export type TeamOrder = ReturnType<typeof useTeamOrder>;

export function useTeamOrder() {
  const { t, language } = useI18n();
  const { catalog, capabilities, site } = useAppData();
  const errorText = useTeamErrorText();
  const [form, setForm] = useState<TeamForm>(INITIAL);
  const [ready, setReady] = useState(false);
  const [business, setBusiness] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>({});
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
  // Where storage is full or disabled, the form still works.
  useSessionSave(FORM_STORAGE_KEY, form, ready);

  const forget = (fields: Field[]) =>
    setErrors((e) => {
      const next = { ...e };
      for (const field of fields) delete next[field];
      return next;
    });

  const change = (patch: Partial<TeamForm>, ...fields: Field[]) => {
    setForm((f) => ({ ...f, ...patch }));
    forget(fields);
    setFormError(null);
  };

  const confirmBusiness = (checked: boolean) => {
    setBusiness(checked);
    forget(['businessConfirmed']);
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
  // Named when the order is sent, not when the field is left: a message appearing then would move the button
  // the visitor is about to press.
  const vatProblem = vatCheck && !vatCheck.ok ? 'vatIdInvalid' : reverseUnavailable ? 'reverseChargeUnavailable' : null;

  const showErrors = (found: FieldErrors) => {
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
    const found: FieldErrors = checked.status === 'invalid' ? (checked.fields as FieldErrors) : {};
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
      if (Object.keys(error.fields).length) showErrors(error.fields as FieldErrors);
      else if (field && FIELD_ORDER.includes(field)) showErrors({ [field]: error.code });
      else setFormError(t('team.order.checkoutError', { message: errorText(error.code, { min: TEAM_LIMITS.minSeats }) }));
    }
  };

  /** A field's error in words, or null. */
  const errorOf = (field: Field) => (errors[field] ? errorText(errors[field]) : null);

  return { form, change, business, confirmBusiness, errors, errorOf, formError, submitting, submit, pkg, locations, location, outfit, seats, seatsValid, vatCheck, reverseUnavailable, treatment, price };
}
