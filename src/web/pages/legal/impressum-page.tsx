// The Impressum (§ 5 DDG): who runs the shop and how to reach them, from the site configuration.
import { Link } from '../../components/link.js';
import { useAppData } from '../../app-data.js';
import { useI18n, useNamespace } from '../../lib/i18n.js';
import { LegalDocument } from './legal-document.js';
import { P, ParagraphSection, Section } from './legal-text.js';
import { AddressLines, Mail, Operator, Phone } from './operator-details.js';

export function ImpressumPage() {
  useNamespace('legal');
  const { t } = useI18n();
  const { site } = useAppData();
  return (
    <LegalDocument id="impressum" titleKey="legal.impressum.title" dated={false}>
      <Section id="impressum-provider" title={t('legal.impressum.provider.heading')}>
        {site.name !== site.legalName && <P k="legal.impressum.provider.operatedBy" vars={{ name: site.name }} />}
        <Operator />
      </Section>

      <Section id="impressum-contact" title={t('legal.impressum.contact.heading')}>
        <p>
          {t('legal.common.email')} <Mail address={site.supportEmail} />
          {site.phone && (
            <>
              <br />
              {t('legal.common.phone')} <Phone number={site.phone} />
            </>
          )}
        </p>
      </Section>

      {site.registerEntry && (
        <Section id="impressum-register" title={t('legal.impressum.register.heading')}>
          <p>{site.registerEntry}</p>
        </Section>
      )}

      {site.vatId && (
        <Section id="impressum-vat" title={t('legal.impressum.vat.heading')}>
          <P k="legal.impressum.vat.text" vars={{ vatId: site.vatId }} />
        </Section>
      )}

      {site.responsiblePerson && (
        <Section id="impressum-responsible" title={t('legal.impressum.responsible.heading')}>
          <address className="legal__address">
            {site.responsiblePerson}
            {site.address && <AddressLines address={site.address} />}
          </address>
        </Section>
      )}

      <Section id="impressum-dispute" title={t('legal.impressum.dispute.heading')}>
        <P k="legal.impressum.dispute.text" />
      </Section>

      <ParagraphSection id="impressum-content" base="legal.impressum.content" count={2} />
      <ParagraphSection id="impressum-links" base="legal.impressum.links" count={2} />
      <ParagraphSection id="impressum-copyright" base="legal.impressum.copyright" count={2} slots={{ terms: <Link to="/agb">{t('legal.common.termsLink')}</Link> }} />
    </LegalDocument>
  );
}
