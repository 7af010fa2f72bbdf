// The team's members as the buyer sees them: each one's progress (never their photos), a reminder for an
// invitation not yet taken up, removing a member who joined but sent nothing, and inviting more by e-mail.
import { useRef, useState, type FormEvent } from 'react';
import { formatShortDateTime } from '../../../domain/dates.js';
import { TEAM_LIMITS, type TeamView } from '../../../domain/team-rules.js';
import { useI18n } from '../../lib/i18n.js';
import { ApiError, api } from '../../lib/api.js';
import { checkForm, loadChecksOnUse } from '../../lib/form-checks.js';
import { ConfirmBox } from '../../components/confirm-box.js';
import { TextField, useTeamErrorText, type Notice } from './team-parts.js';

type Member = TeamView['members'][number];

const canRemind = (member: Member) => member.inviteId !== null && (member.progress === 'invited' || member.progress === 'joined');

/** One member's line; `act` posts to `path` and says `done` once it went through. */
function MemberItem(props: {
  member: Member;
  teamId: string;
  busy: boolean;
  removing: boolean;
  onRemoving: (removing: boolean) => void;
  act: (path: string, done: string) => void;
}) {
  const { t, language } = useI18n();
  const { member, teamId, busy } = props;
  return (
    <li className={`team-member team-member--${member.progress}`} data-testid="team-member" data-progress={member.progress}>
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
      {props.removing ? (
        <ConfirmBox
          small
          question={{ id: `remove-${member.id}`, text: t('team.status.removeConfirm', { email: member.email }) }}
          confirm={{
            label: t('team.status.remove'),
            testId: 'team-remove-confirm',
            onClick: () => props.act(`/api/teams/${teamId}/members/${member.id}/remove`, t('team.status.removed', { email: member.email })),
            disabled: busy,
          }}
          cancel={{ label: t('team.status.cancel'), onClick: () => props.onRemoving(false) }}
        />
      ) : (
        (canRemind(member) || member.progress === 'joined') && (
          <div className="team-member__actions">
            {canRemind(member) && (
              <button
                type="button"
                className="button button--secondary button--small"
                disabled={busy}
                aria-label={t('team.status.remindLabel', { email: member.email })}
                onClick={() => props.act(`/api/teams/${teamId}/invites/${member.inviteId}/remind`, t('team.status.reminded', { email: member.email }))}
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
                onClick={() => props.onRemoving(true)}
                data-testid="team-remove"
              >
                {t('team.status.remove')}
              </button>
            )}
          </div>
        )
      )}
    </li>
  );
}

export function MembersCard({ view, token, onChange }: { view: TeamView; token: string; onChange: (view: TeamView) => void }) {
  const { t } = useI18n();
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
            <MemberItem
              key={member.id}
              member={member}
              teamId={view.orderId}
              busy={busy !== null}
              removing={removing === member.id}
              onRemoving={(on) => setRemoving(on ? member.id : null)}
              act={(path, done) => void act(member.id, path, done)}
            />
          ))}
        </ul>
      )}
      <form className="team-invite" onSubmit={invite} noValidate {...loadChecksOnUse}>
        <h3 className="team-invite__title">{t('team.status.inviteTitle')}</h3>
        <TextField
          id="team-invite-emails"
          noteId="team-invite"
          label={t('team.status.inviteLabel')}
          error={inviteError}
          hint={t('team.status.inviteHint')}
          multiline
          rows={3}
          value={addresses}
          onChange={(value) => {
            setAddresses(value);
            setInviteError(null);
          }}
          testId="team-invite-emails"
        />
        <button type="submit" className="button button--secondary" disabled={busy !== null} data-testid="team-invite-submit">
          {t('team.status.inviteSubmit')}
        </button>
      </form>
    </section>
  );
}
