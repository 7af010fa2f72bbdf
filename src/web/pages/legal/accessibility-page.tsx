// The Erklärung zur Barrierefreiheit: the standard, the state of the shop and its known limits, and where to
// report a barrier.
import { UPLOAD_LIMITS } from '../../../domain/catalog.js';
import { useAppData } from '../../app-data.js';
import { useI18n, useNamespace } from '../../lib/i18n.js';
import { LegalDocument } from './legal-document.js';
import { List, P, ParagraphSection, Section, Sub } from './legal-text.js';
import { Mail, Phone } from './operator-details.js';

export function AccessibilityPage() {
  useNamespace('legal');
  const { t } = useI18n();
  const { site } = useAppData();
  return (
    <LegalDocument id="accessibility" titleKey="legal.accessibility.title" dated>
      <P k="legal.accessibility.intro" vars={{ name: site.name }} />

      <Section id="accessibility-standard" title={t('legal.accessibility.standard.heading')}>
        <P k="legal.accessibility.standard.text" />
      </Section>

      <Section id="accessibility-service" title={t('legal.accessibility.service.heading')}>
        <P k="legal.accessibility.service.text" vars={{ min: UPLOAD_LIMITS.minPhotos, max: UPLOAD_LIMITS.maxPhotos }} />
      </Section>

      <Section id="accessibility-state" title={t('legal.accessibility.state.heading')}>
        <P k="legal.accessibility.state.p1" />
        <List base="legal.accessibility.state.items" items={['keyboard', 'text', 'contrast', 'structure', 'languages']} />
        <Sub title={t('legal.accessibility.limits.heading')}>
          <List base="legal.accessibility.limits.items" items={['uploads', 'payment', 'images', 'legalTexts', 'staff']} />
          <P k="legal.accessibility.limits.text" />
        </Sub>
      </Section>

      <Section id="accessibility-feedback" title={t('legal.accessibility.feedback.heading')}>
        <P k="legal.accessibility.feedback.text" slots={{ email: <Mail address={site.supportEmail} /> }} />
        {site.phone && (
          <p>
            {t('legal.common.phone')} <Phone number={site.phone} />
          </p>
        )}
      </Section>

      <ParagraphSection id="accessibility-enforcement" base="legal.accessibility.enforcement" count={2} />
    </LegalDocument>
  );
}
