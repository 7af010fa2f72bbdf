// The team's join link to share: copied with one press, and renewed (the old link stops working) after a question.
import { useRef, useState } from 'react';
import type { TeamView } from '../../../domain/team-rules.js';
import { useI18n } from '../../lib/i18n.js';
import { ApiError, api } from '../../lib/api.js';
import { ConfirmedButton } from '../../components/confirm-box.js';
import { useTeamErrorText, type Notice } from './team-parts.js';

export function JoinLinkCard({ view, token, onChange }: { view: TeamView; token: string; onChange: (view: TeamView) => void }) {
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
      <ConfirmedButton
        open={confirming}
        onOpen={setConfirming}
        button={{ label: t('team.status.renew'), className: 'button button--link', testId: 'team-renew' }}
        className="team-link__confirm"
        question={{ id: 'team-renew-text', text: t('team.status.renewConfirm') }}
        confirm={{ label: t('team.status.renew'), testId: 'team-renew-confirm', onClick: () => void renewLink(), disabled: busy }}
        cancelLabel={t('team.status.cancel')}
      />
    </section>
  );
}
