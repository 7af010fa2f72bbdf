// The Datenschutzerklärung: what the shop processes, why and for how long, with the retention periods and
// upload limits from the catalogue and the consent services the operator configured.
import { MAX_UPLOAD_MB, RETENTION, UPLOAD_LIMITS } from '../../../domain/catalog.js';
import { CONSENT_KINDS } from '../../../domain/site.js';
import { useAppData } from '../../app-data.js';
import { useI18n, useNamespace } from '../../lib/i18n.js';
import { LegalDocument } from './legal-document.js';
import { List, P, ParagraphSection, Paragraphs, Section, Sub } from './legal-text.js';
import { Mail, Operator } from './operator-details.js';

export function PrivacyPage() {
  useNamespace('legal');
  const { t } = useI18n();
  const { site, consent } = useAppData();
  const consentServices = CONSENT_KINDS.filter((kind) => consent[kind]);
  const privacyMail = <Mail address={site.privacyEmail} />;
  const retention = { days: RETENTION.daysAfterCompletion, hours: RETENTION.unpaidDraftHours };
  const upload = {
    min: UPLOAD_LIMITS.minPhotos,
    max: UPLOAD_LIMITS.maxPhotos,
    maxMb: MAX_UPLOAD_MB,
    minPx: UPLOAD_LIMITS.minShortSidePx,
  };
  return (
    <LegalDocument id="privacy" titleKey="legal.privacy.title" dated>
      <P k="legal.privacy.intro" />

      <section className="legal__summary card" aria-labelledby="privacy-summary">
        <h2 id="privacy-summary">{t('legal.privacy.summary.heading')}</h2>
        <List base="legal.privacy.summary" items={['photos', 'deletion', 'payment', consentServices.length ? 'trackingConsent' : 'tracking']} vars={retention} />
      </section>

      <Section id="privacy-controller" title={t('legal.privacy.controller.heading')}>
        <P k="legal.privacy.controller.p1" />
        <Operator email={site.privacyEmail} phone />
        <P k="legal.privacy.controller.p2" slots={{ email: privacyMail }} />
      </Section>

      <ParagraphSection id="privacy-website" base="legal.privacy.website" count={4} />

      <Section id="privacy-order" title={t('legal.privacy.order.heading')}>
        <Paragraphs base="legal.privacy.order" count={3} />
        <Sub title={t('legal.privacy.order.team.heading')}>
          <Paragraphs base="legal.privacy.order.team" count={4} vars={retention} />
        </Sub>
      </Section>

      <Section id="privacy-photos" title={t('legal.privacy.photos.heading')}>
        <Paragraphs base="legal.privacy.photos" count={2} vars={upload} />
        {site.generatorName && <P k="legal.privacy.photos.generator" vars={{ name: site.generatorName }} />}
        <Sub title={t('legal.privacy.photos.processing.heading')}>
          <Paragraphs base="legal.privacy.photos.processing" count={3} vars={upload} />
        </Sub>
        <Sub title={t('legal.privacy.photos.deletion.heading')}>
          <Paragraphs base="legal.privacy.photos.deletion" count={2} vars={retention} />
        </Sub>
        <Sub title={t('legal.privacy.photos.withdrawal.heading')}>
          <Paragraphs base="legal.privacy.photos.withdrawal" count={2} slots={{ email: privacyMail }} />
        </Sub>
      </Section>

      <ParagraphSection id="privacy-payment" base="legal.privacy.payment" count={4} />
      <ParagraphSection id="privacy-email" base="legal.privacy.email" count={2} />
      <ParagraphSection id="privacy-contact" base="legal.privacy.contact" count={2} />
      <ParagraphSection id="privacy-hosting" base="legal.privacy.hosting" count={2} />

      <Section id="privacy-cookies" title={t('legal.privacy.cookies.heading')}>
        <P k="legal.privacy.cookies.p1" />
        <List base="legal.privacy.cookies.items" items={['lang', 'session', 'tracking', 'staff']} />
        <P k={consentServices.length ? 'legal.privacy.cookies.more.p1Consent' : 'legal.privacy.cookies.more.p1'} />
        <P k="legal.privacy.cookies.more.p2" />
        {consentServices.length > 0 && (
          <Sub title={t('legal.privacy.cookies.consent.heading')}>
            <P k="legal.privacy.cookies.consent.p1" />
            <ul className="legal__list">
              {consentServices.map((kind) => (
                <li key={kind}>{t(`legal.privacy.cookies.consent.${kind}`, { name: consent[kind]!.name })}</li>
              ))}
            </ul>
            <P k="legal.privacy.cookies.consent.p2" />
          </Sub>
        )}
      </Section>

      <Section id="privacy-security" title={t('legal.privacy.security.heading')}>
        <P k="legal.privacy.security.intro" />
        <List
          base="legal.privacy.security.items"
          items={['https', 'uploads', 'storage', 'access', 'deletion', 'staff', 'payment']}
          vars={retention}
        />
      </Section>

      <ParagraphSection id="privacy-recipients" base="legal.privacy.recipients" count={2} />

      <Section id="privacy-retention" title={t('legal.privacy.retention.heading')}>
        <List base="legal.privacy.retention.items" items={['photos', 'invoices', 'orders', 'contact', 'logs', 'counters']} vars={retention} />
      </Section>

      <Section id="privacy-rights" title={t('legal.privacy.rights.heading')}>
        <P k="legal.privacy.rights.intro" />
        <List base="legal.privacy.rights.items" items={['access', 'rectification', 'erasure', 'restriction', 'portability', 'consent']} />
        <Sub title={t('legal.privacy.rights.objection.heading')}>
          <P k="legal.privacy.rights.objection.text" />
        </Sub>
        <P k="legal.privacy.rights.contact" slots={{ email: privacyMail }} />
        <P k="legal.privacy.rights.complaint" />
      </Section>

      <ParagraphSection id="privacy-required" base="legal.privacy.required" count={2} />

      <Section id="privacy-changes" title={t('legal.privacy.changes.heading')}>
        <P k="legal.privacy.changes.text" />
      </Section>
    </LegalDocument>
  );
}
