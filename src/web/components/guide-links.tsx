// Links to the three guide pages (home page and the guides themselves, each leaving out its own page).
import { useI18n } from '../lib/i18n.js';
import { GUIDE_KEYS, GUIDE_PAGES, type GuideKey } from '../routes.js';
import { PageLink } from './page-link.js';

export function GuideLinks(props: { except?: GuideKey; headingId: string }) {
  const { t } = useI18n();
  const guides = GUIDE_KEYS.filter((key) => key !== props.except);
  return (
    <section className="section guide-links" aria-labelledby={props.headingId}>
      <h2 id={props.headingId} className="section__title">
        {t('common.guides.title')}
      </h2>
      <p className="section__subtitle">{t('common.guides.intro')}</p>
      <ul className="guide-links__list">
        {guides.map((key) => (
          <li key={key} className="guide-links__card">
            <h3 className="guide-links__title">
              <PageLink to={GUIDE_PAGES[key]}>{t(`common.guides.links.${key}.title`)}</PageLink>
            </h3>
            <p>{t(`common.guides.links.${key}.text`)}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}
