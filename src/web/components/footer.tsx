import { useAppData } from '../app-data.js';
import { useI18n } from '../lib/i18n.js';
import { GUIDE_KEYS, GUIDE_PAGES, type LinkKey } from '../routes.js';
import { useConsent } from './consent.js';
import { PageLink } from './page-link.js';

const AUDIENCES = ['jobSeekers', 'graduates', 'careerStarters', 'professionals', 'executives', 'freelancers'] as const;
const LEGAL: LinkKey[] = ['impressum', 'datenschutz', 'agb', 'barrierefreiheit'];

export function Footer() {
  const { t } = useI18n();
  const { site, year, examples } = useAppData();
  const consent = useConsent();

  return (
    <footer className="footer">
      <div className="footer__inner">
        <div className="footer__col footer__brand">
          <p className="footer__name">{site.name}</p>
          <p className="footer__tagline">{t('common.footer.tagline')}</p>
          {site.socialLinks.length > 0 && (
            <ul className="footer__social" aria-label={t('common.footer.social')}>
              {site.socialLinks.map((link) => (
                <li key={link.key}>
                  <a href={link.url} rel="noopener me">
                    {link.label}
                  </a>
                </li>
              ))}
            </ul>
          )}
        </div>
        <div className="footer__col">
          <h2 className="footer__heading">{t('common.footer.audiences')}</h2>
          <ul className="footer__list">
            {AUDIENCES.map((key) => (
              <li key={key}>
                <PageLink to="orderStart">{t(`common.footer.audience.${key}`)}</PageLink>
              </li>
            ))}
          </ul>
        </div>
        <div className="footer__col">
          <h2 className="footer__heading">{t('common.footer.company')}</h2>
          <ul className="footer__list">
            <li>
              <PageLink to="ueberUns">{t('common.nav.about')}</PageLink>
            </li>
            {examples.length > 0 && (
              <li>
                <PageLink to="beforeAfter">{t('common.nav.beforeAfter')}</PageLink>
              </li>
            )}
            <li>
              <PageLink to="tracking">{t('common.nav.tracking')}</PageLink>
            </li>
          </ul>
          <h2 className="footer__heading footer__heading--next">{t('common.footer.guides')}</h2>
          <ul className="footer__list">
            {GUIDE_KEYS.map((key) => (
              <li key={key}>
                <PageLink to={GUIDE_PAGES[key]}>{t(`common.guides.links.${key}.title`)}</PageLink>
              </li>
            ))}
          </ul>
        </div>
        <div className="footer__col">
          <h2 className="footer__heading">{t('common.footer.contact')}</h2>
          <ul className="footer__list">
            <li>
              <PageLink to="kontakt">{t('common.footer.contactForm')}</PageLink>
            </li>
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
      {site.sisterSites.length > 0 && (
        <div className="footer__sites">
          <h2 className="footer__heading">{t('common.footer.sisterSites')}</h2>
          <ul className="footer__legal">
            {site.sisterSites.map((link) => (
              <li key={link.key}>
                <a href={link.url} hrefLang={link.key} lang={link.key}>
                  {link.label}
                </a>
              </li>
            ))}
          </ul>
        </div>
      )}
      <div className="footer__bottom">
        <p>{t('common.footer.copyright', { year, company: site.legalName })}</p>
        <ul className="footer__legal" aria-label={t('common.footer.legal')}>
          {LEGAL.map((key) => (
            <li key={key}>
              <PageLink to={key}>{t(`common.footer.legalLinks.${key}`)}</PageLink>
            </li>
          ))}
          <li>
            <PageLink to="widerruf">{t('withdrawal.footerLink')}</PageLink>
          </li>
          {consent.needed && (
            <li>
              <button type="button" className="footer__link-button" onClick={consent.openSettings} data-testid="cookie-settings">
                {t('common.footer.cookieSettings')}
              </button>
            </li>
          )}
        </ul>
      </div>
    </footer>
  );
}
