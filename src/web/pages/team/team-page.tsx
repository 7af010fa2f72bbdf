// The buyer's team page (/team/:id, the link of the team order's mails): the join link to share, invitations
// and reminders, each member's progress (never their photos), the team's ZIPs, the order and its invoices.
// The link's token is kept for this browser session and taken out of the address bar, as on the status page.
import { useParams } from 'react-router';
import { ORDER_ID_SHAPE } from '../../../domain/validation-rules.js';
import { useAppData } from '../../app-data.js';
import { useI18n, useNamespace } from '../../lib/i18n.js';
import { ProblemPage } from '../../components/problem-page.js';
import { JoinLinkCard } from './team-link-card.js';
import { MembersCard } from './team-members-card.js';
import { DownloadsCard, OrderCard } from './team-order-card.js';
import { PaymentBanner } from './team-payment-banner.js';
import { useTeamView } from './use-team-view.js';

export function TeamPage() {
  useNamespace('team');
  const { t } = useI18n();
  const { site } = useAppData();
  const { id = '' } = useParams();
  const validId = ORDER_ID_SHAPE.test(id);
  const { token, view, setView, problem, arrival, loading, waiting, load, renew } = useTeamView(id, validId);

  if (!validId || problem) {
    const text = !validId ? t('team.status.noId') : problem === 'expired' ? t('team.status.expired', { email: site.supportEmail }) : t(`team.status.${problem}`);
    return (
      <ProblemPage heading={t('team.status.heading')} testId="team-problem" home={t('team.status.home')}>
        {text}
      </ProblemPage>
    );
  }
  if (!view || !token) return <div className="page page-loading" aria-busy="true" />;

  const paid = view.paymentStatus === 'paid';
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

      <PaymentBanner view={view} token={token} arrival={arrival} waiting={waiting} />

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
