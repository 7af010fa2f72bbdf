// The buyer's team page (/team/:id, the link of the team order's mails): the join link to share, invitations
// and reminders, each member's progress (never their photos), the team's ZIPs, the order and its invoices.
// The link's token is kept for this browser session and taken out of the address bar, as on the status page.
import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router';
import { Link } from '../../components/link.js';
import { formatMoney } from '../../../domain/money.js';
import { formatShortDateTime } from '../../../domain/dates.js';
import { TEAM_LIMITS, type TeamView } from '../../../domain/team-rules.js';
import { ORDER_ID_SHAPE } from '../../../domain/validation-rules.js';
import { useAppData } from '../../app-data.js';
import { DetailRows } from '../../components/details.js';
import { FormField } from '../../components/form-fields.js';
import { useI18n, useNamespace } from '../../lib/i18n.js';
import { ApiError, api } from '../../lib/api.js';
import { checkForm, loadChecksOnUse } from '../../lib/form-checks.js';
import { orderAccessToken, rememberOrderAccess } from '../tracking/order-access.js';
import { DownloadLink } from '../tracking/order-view.js';
import { useTeamErrorText } from './team-parts.js';

/** While the payment's confirmation is on its way (the provider's webhook may come after the redirect). */
const POLL_MS = 3000;
/** How long the page waits for it before it asks the buyer to come back later. */
const POLL_LIMIT_MS = 3 * 60 * 1000;

type Member = TeamView['members'][number];
type Notice = { tone: 'info' | 'error'; text: string } | null;

export function TeamPage() {
  useNamespace('team');
  const { t } = useI18n();
  const { site } = useAppData();
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const validId = ORDER_ID_SHAPE.test(id);
  const [token, setToken] = useState<string | null>(null);
  const [view, setView] = useState<TeamView | null>(null);
  const [problem, setProblem] = useState<'noAccess' | 'expired' | 'loadError' | null>(null);
  const [arrival, setArrival] = useState<{ paid: boolean; cancelled: boolean }>({ paid: false, cancelled: false });
  const [loading, setLoading] = useState(false);
  const pollStarted = useRef<number | null>(null);

  const load = useCallback(
    async (proof: string) => {
      setLoading(true);
      try {
        setView(await api<TeamView>(`/api/teams/${id}`, { headers: { 'x-status-token': proof } }));
        setProblem(null);
      } catch (caught) {
        if (caught instanceof ApiError && caught.code === 'linkExpired') setProblem('expired');
        else if (caught instanceof ApiError && caught.status === 404) setProblem('noAccess');
        else setProblem('loadError');
      } finally {
        setLoading(false);
      }
    },
    [id],
  );

  useEffect(() => {
    if (!validId) return;
    const params = new URLSearchParams(window.location.search);
    const fromLink = params.get('token');
    if (fromLink) {
      // Remembered for this session, then out of the address bar (and the history): the link is a key.
      rememberOrderAccess(id, fromLink);
      // eslint-disable-next-line react-hooks/set-state-in-effect
      setArrival({ paid: params.get('paid') === '1', cancelled: params.get('checkout') === 'cancelled' });
      navigate(`/team/${id}`, { replace: true });
    }
    const proof = fromLink ?? orderAccessToken(id);
    if (!proof) {
      setProblem('noAccess');
      return;
    }
    setToken(proof);
    void load(proof);
  }, [id, validId, navigate, load]);

  // Back from the payment page before the payment's confirmation: ask again every few seconds, for a while.
  const waiting = Boolean(view && view.paymentStatus !== 'paid' && arrival.paid && !arrival.cancelled);
  useEffect(() => {
    if (!waiting || !token) return;
    pollStarted.current ??= Date.now();
    if (Date.now() - pollStarted.current > POLL_LIMIT_MS) return;
    const timer = setTimeout(() => void load(token), POLL_MS);
    return () => clearTimeout(timer);
  }, [waiting, token, view, load]);

  if (!validId || problem) {
    const text = !validId ? t('team.status.noId') : problem === 'expired' ? t('team.status.expired', { email: site.supportEmail }) : t(`team.status.${problem}`);
    return (
      <div className="page page--narrow">
        <h1>{t('team.status.heading')}</h1>
        <p className="alert alert--error" role="alert" data-testid="team-problem">
          {text}
        </p>
        <Link to="/" className="button button--secondary">
          {t('team.status.home')}
        </Link>
      </div>
    );
  }
  if (!view || !token) return <div className="page page-loading" aria-busy="true" />;

  const paid = view.paymentStatus === 'paid';
  const renew = async () => {
    try {
      const fresh = await api<TeamView>(`/api/teams/${id}`, { headers: { 'x-status-token': token } });
      setView(fresh);
      return fresh;
    } catch {
      return null;
    }
  };

  return (
    <div className="page team-page" data-testid="team-page">
      <header className="status-header">
        <div>
          <h1>{t('team.status.title', { number: view.orderNumber })}</h1>
          <p className="page__lead team-page__company">{t('team.status.for', { company: view.company.name })}</p>
        </div>
        <div className="status-header__actions">
          <button type="button" className="button button--secondary" onClick={() => void load(token)} disabled={loading} data-testid="team-refresh">
            {t('team.status.refresh')}
          </button>
        </div>
      </header>

      {!paid && arrival.cancelled && (
        <div className="status-banner status-banner--grey" role="status" data-testid="team-cancelled">
          <div>
            <p className="status-banner__label">{t('team.status.cancelled')}</p>
            <p className="status-banner__text">{t('team.status.payLater')}</p>
          </div>
          <PayButton teamId={view.orderId} token={token} />
        </div>
      )}
      {!paid && !arrival.cancelled && (
        <div className="status-banner status-banner--yellow" role="status" data-testid="team-confirming">
          {waiting && <span className="spinner" aria-hidden="true" />}
          <div>
            <p className="status-banner__label">{arrival.paid ? t('team.status.confirming') : t('errors.teamNotPaid')}</p>
            <p className="status-banner__text">{arrival.paid ? t('team.status.confirmingText') : t('team.status.payLater')}</p>
          </div>
          {!waiting && view.paymentStatus !== 'refunded' && <PayButton teamId={view.orderId} token={token} />}
        </div>
      )}
      {paid && (
        <div className="status-banner status-banner--green" data-testid="team-paid">
          <div>
            <p className="status-banner__label">{t('team.status.paid')}</p>
            <p className="status-banner__text">
              <span className="team-seats__text" data-testid="team-seats-used">
                {t('team.status.seats', { used: view.seatsUsed, seats: view.seats })}
              </span>
            </p>
          </div>
          <meter className="team-seats__meter" min={0} max={view.seats} value={view.seatsUsed} aria-label={t('team.status.seatsLabel')} />
        </div>
      )}

      <div className="team-page__grid">
        <div className="team-page__main">
          {paid && view.joinUrl && <JoinLinkCard view={view} token={token} onChange={setView} />}
          {/* Once pictures are ready, fetching them is what the buyer comes for. */}
          {paid && view.zips.length > 0 && <DownloadsCard view={view} renew={renew} />}
          {paid && <MembersCard view={view} token={token} onChange={setView} />}
          {paid && view.zips.length === 0 && <DownloadsCard view={view} renew={renew} />}
        </div>
        <aside className="team-page__side">
          <OrderCard view={view} />
          <p className="team-page__privacy" data-testid="team-privacy">
            {t('team.status.privacy')}
          </p>
        </aside>
      </div>
    </div>
  );
}

/** The payment page again for an order not paid yet (the server reuses an open session or opens a new one). */
function PayButton({ teamId, token }: { teamId: string; token: string }) {
  const { t } = useI18n();
  const errorText = useTeamErrorText();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const pay = async () => {
    setBusy(true);
    setError(null);
    try {
      const { url } = await api<{ url: string }>(`/api/teams/${teamId}/pay`, { method: 'POST', headers: { 'x-status-token': token } });
      window.location.assign(url);
    } catch (caught) {
      setError(errorText(caught instanceof ApiError ? caught.code : 'unknown'));
      setBusy(false);
    }
  };
  return (
    <div className="team-pay">
      <button type="button" className="button button--primary" onClick={() => void pay()} disabled={busy} data-testid="team-pay">
        {busy ? t('team.status.paying') : t('team.status.pay')}
      </button>
      {error && (
        <p className="field__error" role="alert" data-testid="team-pay-error">
          {error}
        </p>
      )}
    </div>
  );
}

function JoinLinkCard({ view, token, onChange }: { view: TeamView; token: string; onChange: (view: TeamView) => void }) {
  const { t } = useI18n();
  const errorText = useTeamErrorText();
  const [notice, setNotice] = useState<Notice>(null);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const url = view.joinUrl!;

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      setNotice({ tone: 'info', text: t('team.status.copied') });
    } catch {
      input.current?.select();
      setNotice({ tone: 'error', text: t('team.status.copyFailed') });
    }
  };
  const renewLink = async () => {
    setBusy(true);
    try {
      onChange(await api<TeamView>(`/api/teams/${view.orderId}/link`, { method: 'POST', headers: { 'x-status-token': token } }));
      setConfirming(false);
      setNotice({ tone: 'info', text: t('team.status.renewed') });
    } catch (caught) {
      setNotice({ tone: 'error', text: errorText(caught instanceof ApiError ? caught.code : 'unknown') });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card team-link" aria-labelledby="team-link-title">
      <h2 id="team-link-title">{t('team.status.linkTitle')}</h2>
      <p>{t('team.status.linkText', { seats: view.seats })}</p>
      <div className="team-link__row">
        <label htmlFor="team-join-url" className="visually-hidden">
          {t('team.status.linkLabel')}
        </label>
        <input ref={input} id="team-join-url" className="team-link__url" readOnly value={url} onFocus={(e) => e.target.select()} data-testid="team-join-url" />
        <button type="button" className="button button--primary" onClick={() => void copy()} data-testid="team-copy-link">
          {t('team.status.copy')}
        </button>
      </div>
      {notice && (
        <p className={notice.tone === 'error' ? 'field__error' : 'team-link__status'} role={notice.tone === 'error' ? 'alert' : 'status'} data-testid="team-link-notice">
          {notice.text}
        </p>
      )}
      {confirming ? (
        <div className="confirm team-link__confirm" role="alertdialog" aria-labelledby="team-renew-text">
          <p id="team-renew-text">{t('team.status.renewConfirm')}</p>
          <div className="confirm__actions">
            <button type="button" className="button button--danger" onClick={() => void renewLink()} disabled={busy} data-testid="team-renew-confirm">
              {t('team.status.renew')}
            </button>
            <button type="button" className="button button--secondary" onClick={() => setConfirming(false)}>
              {t('team.status.cancel')}
            </button>
          </div>
        </div>
      ) : (
        <button type="button" className="button button--link" onClick={() => setConfirming(true)} data-testid="team-renew">
          {t('team.status.renew')}
        </button>
      )}
    </section>
  );
}

function MembersCard({ view, token, onChange }: { view: TeamView; token: string; onChange: (view: TeamView) => void }) {
  const { t, language } = useI18n();
  const errorText = useTeamErrorText();
  const [addresses, setAddresses] = useState('');
  const [inviteError, setInviteError] = useState<string | null>(null);
  const [notice, setNotice] = useState<Notice>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [removing, setRemoving] = useState<string | null>(null);
  // The checks are loading for a press of the invite button: a second press does nothing.
  const sending = useRef(false);
  const headers = { 'x-status-token': token };

  const act = async (key: string, path: string, done: string) => {
    setBusy(key);
    setNotice(null);
    try {
      onChange(await api<TeamView>(path, { method: 'POST', headers }));
      setNotice({ tone: 'info', text: done });
      setRemoving(null);
    } catch (caught) {
      setNotice({ tone: 'error', text: errorText(caught instanceof ApiError ? caught.code : 'unknown') });
    } finally {
      setBusy(null);
    }
  };

  const invite = async (event: FormEvent) => {
    event.preventDefault();
    setNotice(null);
    const emails = addresses.split(/[\s,;]+/).filter(Boolean);
    if (!emails.length) return setInviteError(t('team.status.inviteEmpty'));
    if (sending.current) return;
    sending.current = true;
    // Every address with the e-mail rule; a field error's key is the index of an address in the list.
    const checked = await checkForm((schemas) => schemas.emailSchema.array(), emails);
    sending.current = false;
    if (checked.status === 'unavailable') return setInviteError(errorText('network'));
    const bad = checked.status === 'invalid' ? emails.find((_, index) => checked.fields[index] !== undefined) : undefined;
    if (bad) return setInviteError(t('team.status.inviteInvalid', { email: bad }));
    if (emails.length > TEAM_LIMITS.maxInvites) return setInviteError(errorText('tooManyInvites'));
    setBusy('invite');
    try {
      onChange(await api<TeamView>(`/api/teams/${view.orderId}/invites`, { method: 'POST', headers, body: { emails } }));
      setAddresses('');
      setNotice({ tone: 'info', text: t('team.status.invited') });
    } catch (caught) {
      setInviteError(errorText(caught instanceof ApiError ? caught.code : 'unknown'));
    } finally {
      setBusy(null);
    }
  };

  const canRemind = (member: Member) => member.inviteId !== null && (member.progress === 'invited' || member.progress === 'joined');

  return (
    <section className="card" aria-labelledby="team-members-title">
      <div className="card__head">
        <h2 id="team-members-title">{t('team.status.membersTitle')}</h2>
        <span className="badge badge--info">{t('team.status.seats', { used: view.seatsUsed, seats: view.seats })}</span>
      </div>
      {notice && (
        <p className={`alert ${notice.tone === 'error' ? 'alert--error' : 'alert--info'}`} role={notice.tone === 'error' ? 'alert' : 'status'} data-testid="team-members-notice">
          {notice.text}
        </p>
      )}
      {view.members.length === 0 ? (
        <p className="field__hint" data-testid="team-members-empty">
          {t('team.status.membersEmpty')}
        </p>
      ) : (
        <ul className="team-members" data-testid="team-members">
          {view.members.map((member) => (
            <li key={member.id} className={`team-member team-member--${member.progress}`} data-testid="team-member" data-progress={member.progress}>
              <div className="team-member__main">
                <span className="team-member__email">{member.email}</span>
                <span className={`team-pill team-pill--${member.progress}`}>{t(`team.status.progress.${member.progress}`)}</span>
              </div>
              <p className="team-member__meta">
                {[
                  member.joinedAt ? t('team.status.joinedAt', { date: formatShortDateTime(member.joinedAt, language) }) : null,
                  member.deliveredPictures > 0 ? t('team.status.delivered', { n: member.deliveredPictures }) : null,
                  member.remindedAt ? t('team.status.remindedAt', { date: formatShortDateTime(member.remindedAt, language) }) : null,
                ]
                  .filter(Boolean)
                  .join(' · ')}
              </p>
              {removing === member.id ? (
                <div className="confirm" role="alertdialog" aria-labelledby={`remove-${member.id}`}>
                  <p id={`remove-${member.id}`}>{t('team.status.removeConfirm', { email: member.email })}</p>
                  <div className="confirm__actions">
                    <button
                      type="button"
                      className="button button--danger button--small"
                      disabled={busy !== null}
                      onClick={() => void act(member.id, `/api/teams/${view.orderId}/members/${member.id}/remove`, t('team.status.removed', { email: member.email }))}
                      data-testid="team-remove-confirm"
                    >
                      {t('team.status.remove')}
                    </button>
                    <button type="button" className="button button--secondary button--small" onClick={() => setRemoving(null)}>
                      {t('team.status.cancel')}
                    </button>
                  </div>
                </div>
              ) : (
                (canRemind(member) || member.progress === 'joined') && (
                  <div className="team-member__actions">
                    {canRemind(member) && (
                      <button
                        type="button"
                        className="button button--secondary button--small"
                        disabled={busy !== null}
                        aria-label={t('team.status.remindLabel', { email: member.email })}
                        onClick={() => void act(member.id, `/api/teams/${view.orderId}/invites/${member.inviteId}/remind`, t('team.status.reminded', { email: member.email }))}
                        data-testid="team-remind"
                      >
                        {t('team.status.remind')}
                      </button>
                    )}
                    {member.progress === 'joined' && (
                      <button
                        type="button"
                        className="button button--link"
                        aria-label={t('team.status.removeLabel', { email: member.email })}
                        onClick={() => setRemoving(member.id)}
                        data-testid="team-remove"
                      >
                        {t('team.status.remove')}
                      </button>
                    )}
                  </div>
                )
              )}
            </li>
          ))}
        </ul>
      )}
      <form className="team-invite" onSubmit={invite} noValidate {...loadChecksOnUse}>
        <h3 className="team-invite__title">{t('team.status.inviteTitle')}</h3>
        <FormField id="team-invite-emails" noteId="team-invite" label={t('team.status.inviteLabel')} error={inviteError} hint={t('team.status.inviteHint')}>
          {(aria) => (
            <textarea
              id="team-invite-emails"
              rows={3}
              value={addresses}
              onChange={(e) => {
                setAddresses(e.target.value);
                setInviteError(null);
              }}
              {...aria}
              data-testid="team-invite-emails"
            />
          )}
        </FormField>
        <button type="submit" className="button button--secondary" disabled={busy !== null} data-testid="team-invite-submit">
          {t('team.status.inviteSubmit')}
        </button>
      </form>
    </section>
  );
}

function DownloadsCard({ view, renew }: { view: TeamView; renew: () => Promise<TeamView | null> }) {
  const { t } = useI18n();
  return (
    <section className="card" aria-labelledby="team-downloads-title">
      <h2 id="team-downloads-title">{t('team.status.downloadsTitle')}</h2>
      {view.zips.length === 0 ? (
        <p className="field__hint" data-testid="team-downloads-empty">
          {t('team.status.downloadsEmpty')}
        </p>
      ) : (
        <>
          <p>{t('team.status.downloadsText')}</p>
          <div className="team-zips" data-testid="team-zips">
            {view.zips.map((zip, index) => (
              <DownloadLink
                key={zip.format}
                className={`button ${index === 0 ? 'button--primary' : 'button--secondary'}`}
                href={zip.url}
                renew={async () => (await renew())?.zips.find((fresh) => fresh.format === zip.format)?.url ?? null}
                testId={`team-zip-${zip.format}`}
              >
                {t('team.status.zip', { format: zip.format === 'profile' ? t('team.status.zipProfile') : t(`tracking.results.format.${zip.format}`), n: zip.count })}
              </DownloadLink>
            ))}
          </div>
        </>
      )}
    </section>
  );
}

function OrderCard({ view }: { view: TeamView }) {
  const { t } = useI18n();
  const reverse = view.vatTreatment === 'reverse_charge';
  const rows: [string, string][] = [
    [t('team.look.package'), t(`catalog.packages.${view.package}.name`)],
    [t('team.status.seatsRow'), String(view.seats)],
    ...(view.look.style ? ([[t('team.look.style'), t(`catalog.styles.${view.look.style}.name`)]] as [string, string][]) : []),
    ...(view.look.location ? ([[t('team.look.location'), t(`catalog.locations.${view.look.location}.name`)]] as [string, string][]) : []),
    ...(view.look.outfit ? ([[t('team.look.outfit'), t(`catalog.outfits.${view.look.outfit}.name`)]] as [string, string][]) : []),
    [t('team.status.company'), view.company.name],
    [t('team.status.address'), view.company.address],
    ...(view.company.vatId ? ([[t('team.status.vatId'), view.company.vatId]] as [string, string][]) : []),
    [t('team.status.vatTreatment'), reverse ? t('team.status.vatReverse') : t('team.status.vatStandard')],
    ...(view.netCents !== null ? ([[t('team.status.net'), formatMoney(view.netCents)]] as [string, string][]) : []),
    ...(view.totalCents !== null ? ([[t('team.status.total'), formatMoney(view.totalCents)]] as [string, string][]) : []),
  ];
  return (
    <section className="card team-order-card" aria-labelledby="team-order-title">
      <h2 id="team-order-title">{t('team.status.orderTitle')}</h2>
      <DetailRows rows={rows} />
      {view.invoices.length > 0 && (
        <>
          <h3 className="team-invite__title">{t('tracking.invoices.title')}</h3>
          <ul className="invoice-list" data-testid="team-invoices">
            {view.invoices.map((invoice) => (
              <li key={invoice.id}>
                <a href={invoice.url} download data-testid="team-invoice">
                  {t(`tracking.invoices.${invoice.kind}`, { number: invoice.number })}
                </a>
                <span className="invoice-list__meta">{formatMoney(invoice.grossCents)}</span>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
