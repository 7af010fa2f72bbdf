// The AGB with the Widerrufsbelehrung and the Muster-Widerrufsformular: the packages, extras, prices and
// periods all come from the catalogue.
import { Link } from '../../components/link.js';
import { EXTRAS, OUTPUT_DPI, PACKAGE_KEYS, PACKAGES, RETENTION, UPLOAD_LIMITS, VAT_RATE_PERCENT, type PackageKey } from '../../../domain/catalog.js';
import { formatMoney } from '../../../domain/money.js';
import { useAppData } from '../../app-data.js';
import { useI18n, useNamespace } from '../../lib/i18n.js';
import { LegalDocument } from './legal-document.js';
import { List, P, ParagraphSection, Paragraphs, Section, Sub } from './legal-text.js';
import { Mail, Operator, operatorLine } from './operator-details.js';

/** "a, b and c" */
function joinList(items: string[], and: string): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')}${and}${items[items.length - 1]}`;
}

function PackageList() {
  const { t } = useI18n();
  const name = (key: PackageKey) => t(`catalog.packages.${key}.name`);
  return (
    <ul className="legal__list">
      {PACKAGE_KEYS.map((key) => {
        const pkg = PACKAGES[key];
        const outfits = t('legal.terms.s4.outfits', { n: pkg.outfits });
        const backgrounds = t('legal.terms.s4.backgrounds', { n: pkg.backgrounds });
        const features = [
          pkg.hasRefinement && t('legal.terms.s4.features.refinement'),
          pkg.colourAdjustment && t('legal.terms.s4.features.colourAdjustment'),
          pkg.includesExpress && t('legal.terms.s4.features.express'),
          pkg.commercialLicense && t('legal.terms.s4.features.commercialLicence'),
        ].filter((feature): feature is string => Boolean(feature));
        return (
          <li key={key}>
            <strong>
              {name(key)} – {formatMoney(pkg.priceCents)}
            </strong>
            {': '}
            {t('legal.terms.s4.packageLine', { photos: pkg.imageCount, dpi: OUTPUT_DPI, outfits, backgrounds, hours: pkg.deliveryHours })}
            {features.length > 0 && t('legal.terms.s4.includes', { list: joinList(features, t('legal.common.and')) })}
            {'.'}
          </li>
        );
      })}
    </ul>
  );
}

function ExtraList() {
  const { t } = useI18n();
  const packagesWithExpress = PACKAGE_KEYS.filter((key) => PACKAGES[key].includesExpress)
    .map((key) => t(`catalog.packages.${key}.name`));
  const variants = EXTRAS.extra_variants;
  const express = EXTRAS.express_delivery;
  return (
    <ul className="legal__list">
      <li>
        <strong>
          {t('catalog.extras.extra_variants.name')} – {formatMoney(variants.priceCents)}
        </strong>
        {': '}
        {t('legal.terms.s4.extraVariants', { n: variants.addsImages })}
      </li>
      <li>
        <strong>
          {t('catalog.extras.express_delivery.name')} – {formatMoney(express.priceCents)}
        </strong>
        {': '}
        {t('legal.terms.s4.expressDelivery', { hours: express.deliveryHours ?? 0, packages: joinList(packagesWithExpress, t('legal.common.and')) })}
      </li>
    </ul>
  );
}

function WithdrawalForm() {
  const { t } = useI18n();
  const { site } = useAppData();
  return (
    <section className="legal__form card" aria-labelledby="terms-withdrawal-form">
      <h3 id="terms-withdrawal-form">{t('legal.terms.form.heading')}</h3>
      <P k="legal.terms.form.intro" />
      <ul className="legal__form-lines">
        <li>{t('legal.terms.form.to', { recipient: operatorLine(site) })}</li>
        <li>{t('legal.terms.form.statement')}</li>
        <li>{t('legal.terms.form.ordered')}</li>
        <li>{t('legal.terms.form.name')}</li>
        <li>{t('legal.terms.form.address')}</li>
        <li>{t('legal.terms.form.signature')}</li>
        <li>{t('legal.terms.form.date')}</li>
      </ul>
      <P k="legal.terms.form.footnote" />
    </section>
  );
}

export function TermsPage() {
  useNamespace('legal');
  const { t } = useI18n();
  const { site } = useAppData();
  const commercialPackages = joinList(
    PACKAGE_KEYS.filter((key) => PACKAGES[key].commercialLicense).map((key) => t(`catalog.packages.${key}.name`)),
    t('legal.common.and'),
  );
  const supportMail = <Mail address={site.supportEmail} />;
  const section = (n: number) => t(`legal.terms.s${n}.heading`);
  return (
    <LegalDocument id="terms" titleKey="legal.terms.title" dated>
      <ParagraphSection id="terms-s1" base="legal.terms.s1" count={3} />

      <Section id="terms-s2" title={section(2)}>
        <P k="legal.terms.s2.p1" />
        <Operator email={site.supportEmail} phone />
        <P k="legal.terms.s2.p2" slots={{ impressum: <Link to="/impressum">{t('legal.common.impressumLink')}</Link> }} />
      </Section>

      <ParagraphSection id="terms-s3" base="legal.terms.s3" count={5} />

      <Section id="terms-s4" title={section(4)}>
        <P k="legal.terms.s4.p1" vars={{ min: UPLOAD_LIMITS.minPhotos, max: UPLOAD_LIMITS.maxPhotos, dpi: OUTPUT_DPI }} />
        <P k="legal.terms.s4.p2" />
        <PackageList />
        <P k="legal.terms.s4.p3" />
        <ExtraList />
        {/* What "hours" means in the delivery times above (domain/business-hours.ts). */}
        <p>{t('common.businessHoursRule')}</p>
        <Paragraphs base="legal.terms.s4.more" count={2} />
      </Section>

      <ParagraphSection id="terms-s5" base="legal.terms.s5" count={4} vars={{ vat: VAT_RATE_PERCENT }} />
      <ParagraphSection id="terms-s6" base="legal.terms.s6" count={3} vars={{ days: RETENTION.daysAfterCompletion }} />
      <ParagraphSection id="terms-s7" base="legal.terms.s7" count={2} vars={{ days: RETENTION.revisionDays, basic: PACKAGES.basic.redoPictures, pro: PACKAGES.pro.redoPictures, premium: PACKAGES.premium.redoPictures }} />

      <Section id="terms-s8" title={section(8)}>
        <P k="legal.terms.s8.p1" />
        <List base="legal.terms.s8.items" items={['ownPhotos', 'others', 'minors', 'lawful', 'email']} />
        <Paragraphs base="legal.terms.s8.more" count={2} />
      </Section>

      <ParagraphSection id="terms-s9" base="legal.terms.s9" count={4} vars={{ packages: commercialPackages }} />
      <ParagraphSection id="terms-s10" base="legal.terms.s10" count={2} slots={{ email: supportMail }} />
      <ParagraphSection id="terms-s11" base="legal.terms.s11" count={3} />

      <Section id="terms-s12" title={section(12)}>
        <P k="legal.terms.s12.intro" />
        <div className="legal__withdrawal">
          <Sub title={t('legal.terms.s12.right.heading')}>
            <Paragraphs
              base="legal.terms.s12.right"
              count={4}
              vars={{ contact: operatorLine(site) }}
              slots={{ email: supportMail, online: <Link to="/widerruf">{t('withdrawal.footerLink')}</Link> }}
            />
          </Sub>
          <Sub title={t('legal.terms.s12.consequences.heading')}>
            <Paragraphs base="legal.terms.s12.consequences" count={2} />
          </Sub>
          <Sub title={t('legal.terms.s12.expiry.heading')}>
            <P k="legal.terms.s12.expiry.text" />
          </Sub>
          <p className="legal__end">{t('legal.terms.s12.end')}</p>
        </div>
        <WithdrawalForm />
      </Section>

      <Section id="terms-s13" title={section(13)}>
        <P k="legal.terms.s13.text" slots={{ privacy: <Link to="/datenschutz">{t('legal.common.privacyLink')}</Link> }} />
      </Section>

      {/* Team orders (issue 17): businesses only, so none of the consumer sections above changes for them. */}
      <Section id="terms-s14" title={section(14)}>
        <Paragraphs base="legal.terms.s14" count={4} vars={{ vat: VAT_RATE_PERCENT }} />
        <P k="legal.terms.s14.p5" />
        <List base="legal.terms.s14.members" items={['consent', 'delete', 'buyerView', 'deletion']} vars={{ days: RETENTION.daysAfterCompletion }} />
        <P k="legal.terms.s14.p6" />
        <P k="legal.terms.s14.p7" slots={{ email: supportMail }} />
      </Section>

      <ParagraphSection id="terms-s15" base="legal.terms.s15" count={4} />
    </LegalDocument>
  );
}
