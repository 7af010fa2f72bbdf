// A team member's own page (/team/member/:id): the team's look (fixed, not theirs to change), their gender,
// their photos through the same upload, gate and crop as the wizard, then sending them. No payment: the team
// has paid. The draft token from joining stays in this browser session, as the wizard keeps its draft.
import { useCallback, useEffect, useState } from 'react';
import { useParams } from 'react-router';
import { Link } from '../../components/link.js';
import { GENDERS, PACKAGES, UPLOAD_LIMITS, type Gender, type PackageKey } from '../../../domain/catalog.js';
import { ORDER_ID_SHAPE } from '../../../domain/validation-rules.js';
import { useAppData } from '../../app-data.js';
import { useI18n, useNamespace } from '../../lib/i18n.js';
import { ApiError, api } from '../../lib/api.js';
import { ChoiceButton } from '../order/choice-button.js';
import type { DraftResponse } from '../order/draft-uploads.js';
import { PhotoExamples, PhotoUploader } from '../order/photo-uploader.js';
import { usePhotoUploads } from '../order/use-photo-uploads.js';
import { rememberOrderAccess } from '../tracking/order-access.js';
import { ProblemPage } from '../../components/problem-page.js';
import { memberAccess, rememberMember, type MemberAccess } from './member-access.js';
import { LookRows, NumberedHeading, useTeamErrorText } from './team-parts.js';

export function TeamMemberPage() {
  useNamespace('team');
  const { t } = useI18n();
  const errorText = useTeamErrorText();
  const { id = '' } = useParams();
  const validId = ORDER_ID_SHAPE.test(id);
  const [access, setAccess] = useState<MemberAccess | null>(null);
  const [ready, setReady] = useState(false);
  const [draft, setDraft] = useState<DraftResponse | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  useEffect(() => {
    // Session storage exists only in the browser: read after hydration.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setAccess(validId ? memberAccess(id) : null);
    setReady(true);
  }, [id, validId]);

  const update = (change: Partial<MemberAccess>) => {
    if (!access) return;
    const next = { ...access, ...change };
    setAccess(next);
    rememberMember(id, next);
  };

  const photos = usePhotoUploads({
    ready,
    draft: access ? { orderId: id, token: access.draftToken } : null,
    // The member's draft exists from joining.
    ensureDraft: useCallback(async () => ({ orderId: id, token: access?.draftToken ?? '' }), [id, access?.draftToken]),
    blockedMessage: useCallback(() => null, []),
    onRestored: setDraft,
    onRestoreFailed: useCallback(
      (caught: unknown) => setProblem(caught instanceof ApiError && caught.status === 404 ? t('team.member.noAccess') : t('team.member.loadError')),
      [t],
    ),
  });

  // Removed by the buyer before sending anything: their seat went to someone else.
  const removed = draft?.status === 'cancelled' && draft.paymentStatus !== 'paid';
  if (!validId || (ready && !access) || problem || removed) {
    return (
      <ProblemPage heading={t('team.member.heading')} testId="member-problem" home={t('team.join.home')}>
        {problem ?? (removed ? errorText('memberRemoved') : t('team.member.noAccess'))}
      </ProblemPage>
    );
  }
  if (!access || !draft) return <div className="page page-loading" aria-busy="true" />;

  const company = access.company || t('team.member.yourCompany');
  const packageKey = (draft.selection.package ?? 'basic') as PackageKey;
  if (draft.paymentStatus === 'paid') return <MemberDone company={company} packageKey={packageKey} statusUrl={access.statusUrl ?? null} />;

  const gender = access.gender && (GENDERS as readonly string[]).includes(access.gender) ? (access.gender as Gender) : null;
  const { uploads, busy } = photos;

  const submit = async () => {
    setError(null);
    if (!gender) return setError(errorText('genderRequired'));
    if (busy) return;
    if (uploads.length < UPLOAD_LIMITS.minPhotos) return setError(t('order.upload.minPhotos', { min: UPLOAD_LIMITS.minPhotos }));
    setSubmitting(true);
    try {
      const sent = await api<{ orderId: string; status: string; statusUrl?: string }>(`/api/team-members/${id}/submit`, {
        method: 'POST',
        headers: { 'x-draft-token': access.draftToken },
        body: { gender },
      });
      if (sent.statusUrl) {
        // The member's own status link: this session opens their status page without asking again.
        const proof = new URL(sent.statusUrl, window.location.origin).searchParams.get('token');
        if (proof) rememberOrderAccess(id, proof);
      }
      update({ statusUrl: sent.statusUrl });
      setDraft({ ...draft, paymentStatus: 'paid', status: sent.status });
      window.scrollTo(0, 0);
    } catch (caught) {
      setError(errorText(caught instanceof ApiError ? caught.code : 'unknown', { min: UPLOAD_LIMITS.minPhotos }));
      setSubmitting(false);
    }
  };

  return (
    <div className="page team-member-page" data-testid="team-member-page">
      <header className="team-hero">
        <h1>{t('team.member.title', { company })}</h1>
        <p className="page__lead">{t('team.member.lead', { min: UPLOAD_LIMITS.minPhotos, max: UPLOAD_LIMITS.maxPhotos })}</p>
      </header>

      <section className="card team-look" aria-labelledby="member-look-title" data-testid="member-look">
        <h2 id="member-look-title">{t('team.member.lookTitle')}</h2>
        <p className="field__hint">{t('team.member.lookFixed', { company })}</p>
        <LookRows look={draft.selection} packageKey={packageKey} />
      </section>

      <section className="team-member-page__section" aria-labelledby="member-gender-title">
        <NumberedHeading id="member-gender-title" number={1}>{t('team.member.genderTitle')}</NumberedHeading>
        <div className="choices team-genders" role="group" aria-labelledby="member-gender-title">
          {GENDERS.map((key) => (
            <ChoiceButton
              key={key}
              testId={`gender-${key}`}
              selected={gender === key}
              title={t(`catalog.genders.${key}`)}
              onClick={() => {
                update({ gender: key });
                setError(null);
              }}
            />
          ))}
        </div>
      </section>

      <section className="team-member-page__section" aria-labelledby="member-upload-title">
        <NumberedHeading id="member-upload-title" number={2}>{t('team.member.uploadTitle')}</NumberedHeading>
        <p className="field__hint">{t('order.upload.subtitle', { min: UPLOAD_LIMITS.minPhotos, max: UPLOAD_LIMITS.maxPhotos })}</p>
        <PhotoExamples />
        <PhotoUploader photos={photos} />
      </section>

      <section className="team-member-page__section team-member-page__submit" aria-labelledby="member-submit-title">
        <NumberedHeading id="member-submit-title" number={3}>{t('team.member.submitTitle')}</NumberedHeading>
        <p className="field__hint">{t('team.member.submitText')}</p>
        {error && (
          <p className="alert alert--error" role="alert" data-testid="member-error">
            {error}
          </p>
        )}
        <button
          type="button"
          className={`button button--primary button--large team-member-page__send${!gender || busy || uploads.length < UPLOAD_LIMITS.minPhotos ? ' button--muted' : ''}`}
          onClick={() => void submit()}
          disabled={submitting}
          data-testid="member-submit"
        >
          {submitting ? t('team.member.submitting') : t('team.member.submit')}
        </button>
      </section>
    </div>
  );
}

/** Sent: what happens next, and where the member finds their pictures and can delete their photos. */
function MemberDone({ company, packageKey, statusUrl }: { company: string; packageKey: PackageKey; statusUrl: string | null }) {
  const { t } = useI18n();
  const { site } = useAppData();
  const hours = PACKAGES[isPackage(packageKey) ? packageKey : 'basic'].deliveryHours;
  return (
    <div className="page page--narrow team-done" data-testid="member-done">
      <div className="status-banner status-banner--green">
        <span className="team-done__check" aria-hidden="true">
          ✓
        </span>
        <div>
          <h1 className="team-done__title">{t('team.member.done.title')}</h1>
          <p className="status-banner__text">{t('team.member.done.lead')}</p>
        </div>
      </div>
      <section className="card" aria-labelledby="member-next-title">
        <h2 id="member-next-title">{t('team.member.done.nextTitle')}</h2>
        <ul className="check-list">
          <li>{t('team.member.done.check')}</li>
          <li>
            {t('team.member.done.due', { hours })} <span className="field__hint">{t('common.businessHoursRule')}</span>
          </li>
          <li>{t('team.member.done.company', { company })}</li>
        </ul>
      </section>
      <section className="card" aria-labelledby="member-status-title">
        <h2 id="member-status-title">{t('team.member.done.statusTitle')}</h2>
        {statusUrl ? (
          <>
            <p>{t('team.member.done.statusLink')}</p>
            <Link to={statusUrl} className="button button--primary" data-testid="member-status-link">
              {t('team.member.done.statusButton')}
            </Link>
          </>
        ) : (
          <p>
            {t('team.member.done.noStatusLink', { company, email: site.supportEmail })}
          </p>
        )}
      </section>
    </div>
  );
}

function isPackage(key: string): key is PackageKey {
  return key in PACKAGES;
}
