import { useAppData } from '../app-data.js';
import { useI18n } from '../i18n/i18n.js';
import { linkTarget, type LinkKey } from '../routes.js';
import { PageLink } from './page-link.js';

const AUDIENCES = ['jobSeekers', 'graduates', 'careerStarters', 'professionals', 'executives', 'freelancers'] as const;
const LEGAL: LinkKey[] = ['impressum', 'datenschutz', 'agb', 'barrierefreiheit'];

export function Footer() {
  const { t } = useI18n();
  const { site, year } = useAppData();
  const audienceTarget = linkTarget('orderStart');
  const legal = LEGAL.filter((key) => linkTarget(key));

  return (
    <footer className="footer">
      <div className="footer__inner">
        <div className="footer__col footer__brand">
          <p className="footer__name">{site.name}</p>
          <p className="footer__tagline">{t('common.footer.tagline')}</p>
        </div>
        <div className="footer__col">
          <h2 className="footer__heading">{t('common.footer.audiences')}</h2>
          <ul className="footer__list">
            {AUDIENCES.map((key) => (
              <li key={key}>
                {audienceTarget ? (
                  <PageLink to="orderStart">{t(`common.footer.audience.${key}`)}</PageLink>
                ) : (
                  <span>{t(`common.footer.audience.${key}`)}</span>
                )}
              </li>
            ))}
          </ul>
        </div>
        <div className="footer__col">
          <h2 className="footer__heading">{t('common.footer.contact')}</h2>
          <ul className="footer__list">
            {linkTarget('kontakt') && (
              <li>
                <PageLink to="kontakt">{t('common.footer.contactForm')}</PageLink>
              </li>
            )}
            <li>
              <a href={`mailto:${site.supportEmail}`}>{site.supportEmail}</a>
            </li>
            {site.phone && (
              <li>
                <a href={`tel:${site.phone.replace(/[^+\d]/g, '')}`}>{site.phone}</a>
              </li>
            )}
            {site.address && <li>{site.address}</li>}
          </ul>
          <h3 className="footer__subheading">{t('common.footer.hours')}</h3>
          <ul className="footer__list footer__hours">
            <li>{t('common.footer.hoursWeekdays')}</li>
            <li>{t('common.footer.hoursSaturday')}</li>
            <li>{t('common.footer.hoursSunday')}</li>
          </ul>
        </div>
      </div>
      <div className="footer__bottom">
        <p>{t('common.footer.copyright', { year, company: site.legalName })}</p>
        {legal.length > 0 && (
          <ul className="footer__legal" aria-label={t('common.footer.legal')}>
            {legal.map((key) => (
              <li key={key}>
                <PageLink to={key}>{t(`common.footer.legalLinks.${key}`)}</PageLink>
              </li>
            ))}
          </ul>
        )}
      </div>
    </footer>
  );
}
