// The legal pages (docs/rules.md §4): Impressum, Datenschutzerklärung, AGB with Widerrufsbelehrung
// and Muster-Widerrufsformular, and the Erklärung zur Barrierefreiheit. Every fact about the operator comes
// from the site configuration and is shown only when it is set; every price, count and period comes from
// the catalogue, so the texts cannot drift from what the software sells and enforces.
import { Fragment, type ReactNode } from 'react';
import { Link } from '../../components/link.js';
import {
  EXTRAS,
  MAX_UPLOAD_MB,
  OUTPUT_DPI,
  PACKAGE_KEYS,
  PACKAGES,
  RETENTION,
  UPLOAD_LIMITS,
  VAT_RATE_PERCENT,
  type PackageKey,
} from '../../../domain/catalog.js';
import { formatMoney } from '../../../domain/money.js';
import { formatDate } from '../../../domain/dates.js';
import { CONSENT_KINDS, type SiteInfo } from '../../../domain/site.js';
import { useAppData } from '../../app-data.js';
import { useI18n, useNamespace } from '../../lib/i18n.js';

/** The version of the legal texts ("Stand"); change it whenever a text changes in substance. */
export const LEGAL_VERSION_DATE = '2026-11-25';

type Vars = Record<string, string | number>;
type Slots = Record<string, ReactNode>;

/** Replaces {slot} markers left in a translated text by React nodes (links, e-mail addresses). */
function fillSlots(text: string, slots: Slots): ReactNode {
  return text.split(/(\{\w+\})/).map((part, index) => {
    const name = /^\{(\w+)\}$/.exec(part)?.[1];
    return <Fragment key={index}>{name !== undefined && name in slots ? slots[name] : part}</Fragment>;
  });
}

/** One translated text; `slots` puts elements where the text has {name} markers. */
function Text(props: { k: string; vars?: Vars; slots?: Slots }) {
  const { t } = useI18n();
  const text = t(props.k, props.vars);
  return <>{props.slots ? fillSlots(text, props.slots) : text}</>;
}

function P(props: { k: string; vars?: Vars; slots?: Slots }) {
  return (
    <p>
      <Text {...props} />
    </p>
  );
}

/** Paragraphs `${base}.p1` … `${base}.p${count}`. */
function Paragraphs(props: { base: string; count: number; vars?: Vars; slots?: Slots }) {
  return (
    <>
      {Array.from({ length: props.count }, (_, i) => (
        <P key={i} k={`${props.base}.p${i + 1}`} vars={props.vars} slots={props.slots} />
      ))}
    </>
  );
}

/** A bulleted list of `${base}.${item}` texts. */
function List(props: { base: string; items: readonly string[]; vars?: Vars; slots?: Slots }) {
  return (
    <ul className="legal__list">
      {props.items.map((item) => (
        <li key={item}>
          <Text k={`${props.base}.${item}`} vars={props.vars} slots={props.slots} />
        </li>
      ))}
    </ul>
  );
}

function Section(props: { id: string; title: string; children: ReactNode }) {
  return (
    <section className="legal__section" aria-labelledby={props.id}>
      <h2 id={props.id}>{props.title}</h2>
      {props.children}
    </section>
  );
}

function Sub(props: { title: string; children: ReactNode }) {
  return (
    <>
      <h3>{props.title}</h3>
      {props.children}
    </>
  );
}

function Mail({ address }: { address: string }) {
  return <a href={`mailto:${address}`}>{address}</a>;
}

function Phone({ number }: { number: string }) {
  return <a href={`tel:${number.replace(/[^+\d]/g, '')}`}>{number}</a>;
}

/** The one-line configured address, one part per line ("Musterstraße 1, 10115 Berlin, Deutschland"). */
function AddressLines({ address }: { address: string }) {
  return (
    <>
      {address.split(/,\s*/).map((line, index) => (
        <Fragment key={index}>
          <br />
          {line}
        </Fragment>
      ))}
    </>
  );
}

/** Name, address and (optionally) e-mail and phone of the operator. */
function Operator(props: { email?: string; phone?: boolean }) {
  const { t } = useI18n();
  const { site } = useAppData();
  return (
    <address className="legal__address">
      <strong>{site.legalName}</strong>
      {site.address && <AddressLines address={site.address} />}
      {props.email && (
        <>
          <br />
          {t('legal.common.email')} <Mail address={props.email} />
        </>
      )}
      {props.phone && site.phone && (
        <>
          <br />
          {t('legal.common.phone')} <Phone number={site.phone} />
        </>
      )}
    </address>
  );
}

/** Name, address and e-mail as one line of text, for the withdrawal notice and form. */
function operatorLine(site: SiteInfo): string {
  return [site.legalName, site.address, site.supportEmail].filter(Boolean).join(', ');
}

function LegalDocument(props: { id: string; titleKey: string; dated: boolean; binding?: boolean; children: ReactNode }) {
  const { t, language } = useI18n();
  return (
    <div className="page page--narrow legal" data-testid={`legal-${props.id}`}>
      <article aria-labelledby={`${props.id}-title`}>
        <h1 id={`${props.id}-title`}>{t(props.titleKey)}</h1>
        {language !== 'de' && props.binding !== false && (
          <p className="alert alert--info" lang={language}>
            {t('legal.common.bindingNotice')}
          </p>
        )}
        {props.children}
        {props.dated && (
          <p className="legal__version">
            {t('legal.common.version', { date: formatDate(LEGAL_VERSION_DATE, language) })}
          </p>
        )}
      </article>
    </div>
  );
}

/* ------------------------------------------------------------------ Impressum */

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

      <Section id="impressum-content" title={t('legal.impressum.content.heading')}>
        <Paragraphs base="legal.impressum.content" count={2} />
      </Section>

      <Section id="impressum-links" title={t('legal.impressum.links.heading')}>
        <Paragraphs base="legal.impressum.links" count={2} />
      </Section>

      <Section id="impressum-copyright" title={t('legal.impressum.copyright.heading')}>
        <Paragraphs base="legal.impressum.copyright" count={2} slots={{ terms: <Link to="/agb">{t('legal.common.termsLink')}</Link> }} />
      </Section>
    </LegalDocument>
  );
}

/* ------------------------------------------------------------------ Datenschutz */

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

      <Section id="privacy-website" title={t('legal.privacy.website.heading')}>
        <Paragraphs base="legal.privacy.website" count={4} />
      </Section>

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

      <Section id="privacy-payment" title={t('legal.privacy.payment.heading')}>
        <Paragraphs base="legal.privacy.payment" count={4} />
      </Section>

      <Section id="privacy-email" title={t('legal.privacy.email.heading')}>
        <Paragraphs base="legal.privacy.email" count={2} />
      </Section>

      <Section id="privacy-contact" title={t('legal.privacy.contact.heading')}>
        <Paragraphs base="legal.privacy.contact" count={2} />
      </Section>

      <Section id="privacy-hosting" title={t('legal.privacy.hosting.heading')}>
        <Paragraphs base="legal.privacy.hosting" count={2} />
      </Section>

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

      <Section id="privacy-recipients" title={t('legal.privacy.recipients.heading')}>
        <Paragraphs base="legal.privacy.recipients" count={2} />
      </Section>

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

      <Section id="privacy-required" title={t('legal.privacy.required.heading')}>
        <Paragraphs base="legal.privacy.required" count={2} />
      </Section>

      <Section id="privacy-changes" title={t('legal.privacy.changes.heading')}>
        <P k="legal.privacy.changes.text" />
      </Section>
    </LegalDocument>
  );
}

/* ------------------------------------------------------------------ AGB */

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
      <Section id="terms-s1" title={section(1)}>
        <Paragraphs base="legal.terms.s1" count={3} />
      </Section>

      <Section id="terms-s2" title={section(2)}>
        <P k="legal.terms.s2.p1" />
        <Operator email={site.supportEmail} phone />
        <P k="legal.terms.s2.p2" slots={{ impressum: <Link to="/impressum">{t('legal.common.impressumLink')}</Link> }} />
      </Section>

      <Section id="terms-s3" title={section(3)}>
        <Paragraphs base="legal.terms.s3" count={5} />
      </Section>

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

      <Section id="terms-s5" title={section(5)}>
        <Paragraphs base="legal.terms.s5" count={4} vars={{ vat: VAT_RATE_PERCENT }} />
      </Section>

      <Section id="terms-s6" title={section(6)}>
        <Paragraphs base="legal.terms.s6" count={3} vars={{ days: RETENTION.daysAfterCompletion }} />
      </Section>

      <Section id="terms-s7" title={section(7)}>
        <Paragraphs base="legal.terms.s7" count={2} vars={{ days: RETENTION.revisionDays, basic: PACKAGES.basic.redoPictures, pro: PACKAGES.pro.redoPictures, premium: PACKAGES.premium.redoPictures }} />
      </Section>

      <Section id="terms-s8" title={section(8)}>
        <P k="legal.terms.s8.p1" />
        <List base="legal.terms.s8.items" items={['ownPhotos', 'others', 'minors', 'lawful', 'email']} />
        <Paragraphs base="legal.terms.s8.more" count={2} />
      </Section>

      <Section id="terms-s9" title={section(9)}>
        <Paragraphs base="legal.terms.s9" count={4} vars={{ packages: commercialPackages }} />
      </Section>

      <Section id="terms-s10" title={section(10)}>
        <Paragraphs base="legal.terms.s10" count={2} slots={{ email: supportMail }} />
      </Section>

      <Section id="terms-s11" title={section(11)}>
        <Paragraphs base="legal.terms.s11" count={3} />
      </Section>

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

      <Section id="terms-s15" title={section(15)}>
        <Paragraphs base="legal.terms.s15" count={4} />
      </Section>
    </LegalDocument>
  );
}

/* ------------------------------------------------------------------ Barrierefreiheit */

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

      <Section id="accessibility-enforcement" title={t('legal.accessibility.enforcement.heading')}>
        <Paragraphs base="legal.accessibility.enforcement" count={2} />
      </Section>
    </LegalDocument>
  );
}

/* ------------------------------------------------------------------ About us */

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
