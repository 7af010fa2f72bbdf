// "Über uns": who runs the shop, from the same parts and site configuration as the legal texts.
import { Link } from '../../components/link.js';
import { RETENTION, UPLOAD_LIMITS } from '../../../domain/catalog.js';
import { useAppData } from '../../app-data.js';
import { useI18n, useNamespace } from '../../lib/i18n.js';
import { LegalDocument } from './legal-document.js';
import { List, P, Section } from './legal-text.js';
import { Operator } from './operator-details.js';

/** Who runs the shop and how it works: only what the software and the team really do (claims follow capability). */
export function AboutPage() {
  useNamespace('legal');
  const { t } = useI18n();
  const { site } = useAppData();
  return (
    <LegalDocument id="about" titleKey="legal.about.title" dated={false} binding={false}>
      <P k="legal.about.intro" vars={{ name: site.name }} />

      <Section id="about-work" title={t('legal.about.work.heading')}>
        <List base="legal.about.work.items" items={['ownPhotos', 'checked', 'people', 'prices']} vars={{ min: UPLOAD_LIMITS.minPhotos, max: UPLOAD_LIMITS.maxPhotos }} />
      </Section>

      <Section id="about-privacy" title={t('legal.about.privacy.heading')}>
        <P k="legal.about.privacy.text" vars={{ days: RETENTION.daysAfterCompletion }} />
        <p>
          <Link to="/datenschutz">{t('legal.about.privacy.link')}</Link>
        </p>
      </Section>

      <Section id="about-company" title={t('legal.about.company.heading')}>
        <Operator email={site.supportEmail} phone />
        <p>
          <Link to="/impressum">{t('legal.about.company.link')}</Link>
          {' · '}
          <Link to="/kontakt">{t('legal.about.company.contact')}</Link>
        </p>
      </Section>
    </LegalDocument>
  );
}
