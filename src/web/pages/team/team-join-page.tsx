// The join page of a team's link (/team/join/:token): who invites, what is paid for, the team's fixed look,
// and the member's own e-mail and own consent to the processing of their face photos. Joining takes a seat
// (counted on the server) and opens the member's own page with their draft.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router';
import { RETENTION, UPLOAD_LIMITS, type PackageKey } from '../../../domain/catalog.js';
import { TEAM_PHOTO_CONSENT_VERSION } from '../../../domain/team-rules.js';
import { useAppData } from '../../app-data.js';
import { SubmitButton } from '../../components/form-fields.js';
import { useI18n, useNamespace } from '../../lib/i18n.js';
import { ApiError, api } from '../../lib/api.js';
import { checkForm, loadChecksOnUse } from '../../lib/form-checks.js';
import { PhotoConsent } from '../order/photo-uploader.js';
import { ProblemPage } from '../../components/problem-page.js';
import { rememberMember } from './member-access.js';
import { LookRows, TextField, useTeamErrorText, type TeamLook } from './team-parts.js';

interface JoinInfo {
  company: string;
  package: PackageKey;
  look: TeamLook;
  seatsLeft: number;
  language: string;
}

export function TeamJoinPage() {
  useNamespace('team');
  const { t, language } = useI18n();
  const { catalog } = useAppData();
  const errorText = useTeamErrorText();
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const [info, setInfo] = useState<JoinInfo | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [email, setEmail] = useState('');
  const [emailError, setEmailError] = useState<string | null>(null);
  const [consent, setConsent] = useState(false);
  const [consentError, setConsentError] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  // The checks are loading for a press of the join button: a second press does nothing.
  const sending = useRef(false);

  useEffect(() => {
    if (!token) return;
    api<JoinInfo>(`/api/team-join/${encodeURIComponent(token)}`)
      .then(setInfo)
      .catch((caught: unknown) => setProblem(caught instanceof ApiError && caught.status !== 0 && caught.status < 500 ? errorText(caught.code) : t('team.join.loadError')));
    // Once per link; the texts of a language switch do not fetch it again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [token]);

  if (!token || problem) {
    return (
      <ProblemPage heading={t('team.join.heading')} testId="join-problem" home={t('team.join.home')}>
        {token ? problem : t('team.join.noToken')}
      </ProblemPage>
    );
  }
  if (!info) return <div className="page page-loading" aria-busy="true" />;

  const view = catalog.packages.find((p) => p.key === info.package);
  const company = info.company;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (submitting || sending.current) return;
    setError(null);
    sending.current = true;
    const checked = await checkForm((schemas) => schemas.emailSchema, email);
    sending.current = false;
    if (checked.status === 'unavailable') {
      setError(errorText('network'));
      return;
    }
    if (checked.status === 'invalid') {
      // A schema of one value: its problem stands under _form.
      setEmailError(errorText(checked.fields._form ?? 'invalidEmail'));
      document.getElementById('join-email')?.focus();
      return;
    }
    if (!consent) {
      setConsentError(true);
      document.querySelector<HTMLInputElement>('[data-testid="photo-consent"]')?.focus();
      return;
    }
    setSubmitting(true);
    try {
      const joined = await api<{ orderId: string; orderNumber: string; draftToken: string }>(`/api/team-join/${encodeURIComponent(token)}`, {
        method: 'POST',
        body: { email: checked.data, language, photoConsent: true, photoConsentVersion: TEAM_PHOTO_CONSENT_VERSION },
      });
      rememberMember(joined.orderId, { draftToken: joined.draftToken, orderNumber: joined.orderNumber, company });
      navigate(`/team/member/${joined.orderId}`);
    } catch (caught) {
      setError(errorText(caught instanceof ApiError ? caught.code : 'unknown'));
      setSubmitting(false);
    }
  };

  return (
    <div className="page team-join" data-testid="team-join">
      <header className="team-hero">
        <p className="team-hero__eyebrow">{t('team.join.eyebrow', { company })}</p>
        <h1>{t('team.join.title', { company })}</h1>
        <p className="page__lead">{t('team.join.lead', { company, package: t(`catalog.packages.${info.package}.name`) })}</p>
      </header>
      <div className="team-join__grid">
        <div className="team-join__main">
          <section className="card" aria-labelledby="join-look-title">
            <h2 id="join-look-title">{t('team.join.lookTitle')}</h2>
            <p className="field__hint">{t('team.join.lookText', { company })}</p>
            <LookRows look={info.look} packageKey={info.package} />
          </section>
          {view && (
            <section className="card" aria-labelledby="join-included-title">
              <h2 id="join-included-title">{t('team.join.includedTitle')}</h2>
              <ul className="check-list">
                <li>{t('home.pricing.photos', { n: view.imageCount })}</li>
                <li>{t('home.pricing.hd')}</li>
                <li>{t('home.pricing.delivery', { hours: view.deliveryHours })}</li>
              </ul>
            </section>
          )}
          <section className="card team-join__privacy" aria-labelledby="join-privacy-title">
            <h2 id="join-privacy-title">{t('team.join.privacyTitle', { company })}</h2>
            <p>{t('team.join.privacy', { company, days: RETENTION.daysAfterCompletion })}</p>
          </section>
          <section className="card" aria-labelledby="join-licence-title" data-testid="join-licence">
            <h2 id="join-licence-title">{t('team.join.licenceTitle', { company })}</h2>
            <p>{t('team.join.licence', { company })}</p>
          </section>
        </div>
        <aside className="team-join__side">
          <form className="card team-join__form" onSubmit={submit} noValidate aria-labelledby="join-form-title" {...loadChecksOnUse}>
            <h2 id="join-form-title">{t('team.join.formTitle')}</h2>
            <ol className="team-steps">
              <li>{t('team.join.steps.join')}</li>
              <li>{t('team.join.steps.gender')}</li>
              <li>{t('team.join.steps.upload', { min: UPLOAD_LIMITS.minPhotos })}</li>
            </ol>
            {info.seatsLeft > 0 ? (
              <p className="badge badge--info team-join__seats" data-testid="join-seats">
                {t('team.join.seatsLeft', { n: info.seatsLeft })}
              </p>
            ) : (
              <p className="alert alert--info" data-testid="join-full">
                {t('team.join.full')}
              </p>
            )}
            <TextField
              id="join-email"
              label={t('team.join.email')}
              error={emailError}
              hint={t('team.join.emailHint')}
              type="email"
              autoComplete="email"
              inputMode="email"
              value={email}
              onChange={(value) => {
                setEmail(value);
                setEmailError(null);
              }}
              testId="join-email"
            />
            <PhotoConsent
              checked={consent}
              onChange={(checked) => {
                setConsent(checked);
                setConsentError(false);
              }}
              error={consentError && !consent ? { id: 'join-consent-error', text: t('team.join.consentRequired') } : null}
              text={t('team.join.consent', { company, days: RETENTION.daysAfterCompletion })}
            />
            <SubmitButton error={error} errorTestId="join-error" submitting={submitting} testId="join-submit">
              {submitting ? t('team.join.submitting') : t('team.join.submit')}
            </SubmitButton>
          </form>
        </aside>
      </div>
    </div>
  );
}
