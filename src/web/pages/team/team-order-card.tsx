// What the buyer's team page shows of the order itself: its details and invoices, and the team's ZIPs.
import { formatMoney } from '../../../domain/money.js';
import type { TeamView } from '../../../domain/team-rules.js';
import { DetailRows } from '../../components/details.js';
import { useI18n } from '../../lib/i18n.js';
import { InvoiceList } from '../tracking/invoice-list.js';
import { DownloadLink } from '../tracking/order-view.js';
import { lookRows } from './team-parts.js';

export function DownloadsCard({ view, renew }: { view: TeamView; renew: () => Promise<TeamView | null> }) {
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

export function OrderCard({ view }: { view: TeamView }) {
  const { t } = useI18n();
  const reverse = view.vatTreatment === 'reverse_charge';
  const rows: [string, string][] = [
    [t('team.look.package'), t(`catalog.packages.${view.package}.name`)],
    [t('team.status.seatsRow'), String(view.seats)],
    ...lookRows(t, view.look),
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
          <InvoiceList invoices={view.invoices} testId="team-invoices" itemTestId="team-invoice" meta={(invoice) => formatMoney(invoice.grossCents)} />
        </>
      )}
    </section>
  );
}
