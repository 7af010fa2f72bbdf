// The three guide pages (spec: hero, benefits, how it works, examples on the first, price cards, FAQ or the
// comparison with traditional photographers, calls to action to the wizard). Their texts are the "guides"
// catalogue; every number in them comes from the catalogue through copyVars.
import type { ReactNode } from 'react';
import type { CatalogView } from '../../../domain/catalog-view.js';
import { useAppData } from '../../app-data.js';
import { BeforeAfter } from '../../components/before-after.js';
import { GuideLinks } from '../../components/guide-links.js';
import { PageLink } from '../../components/page-link.js';
import { PricingCards } from '../../components/pricing-cards.js';
import { copyVars, type CopyVars } from '../../copy/copy-vars.js';
import { useI18n, useNamespace } from '../../lib/i18n.js';
import type { GuideKey } from '../../routes.js';
import { useCatalog } from '../../lib/use-catalog.js';

interface GuideText {
  t: (key: string) => string;
  keys: (key: string) => string[];
}

/** Texts of one guide with the catalogue's numbers filled in. */
function useGuide(guide: GuideKey): GuideText & { vars: CopyVars; catalog: CatalogView } {
  useNamespace('guides');
  const { t, keys } = useI18n();
  const { site } = useAppData();
  const catalog = useCatalog();
  const vars = copyVars(catalog, site);
  return { vars, catalog, t: (key) => t(`guides.${guide}.${key}`, vars), keys: (key) => keys(`guides.${guide}.${key}`) };
}

function Cta(props: { guide: GuideKey; place: string; large?: boolean; children: ReactNode }) {
  return (
    <PageLink
      to="orderStart"
      className={`button button--primary${props.large ? ' button--large' : ''}`}
      event="cta_click"
      eventDetail={`${props.guide}_${props.place}`}
    >
      {props.children}
    </PageLink>
  );
}

function Hero({ guide, text }: { guide: GuideKey; text: GuideText }) {
  const { t } = useI18n();
  return (
    <section className="hero hero--guide" aria-labelledby={`${guide}-title`}>
      <div className="hero__inner">
        <p className="hero__eyebrow">{text.t('hero.eyebrow')}</p>
        <h1 id={`${guide}-title`} className="hero__title">
          {text.t('hero.title')}
        </h1>
        <p className="hero__subtitle">{text.t('hero.subtitle')}</p>
        <Cta guide={guide} place="hero" large>
          {t('guides.common.ctaButton')}
        </Cta>
      </div>
    </section>
  );
}

/** A titled grid of cards from `${group}.items` (title and text each). */
function Cards({ guide, text, group }: { guide: GuideKey; text: GuideText; group: string }) {
  const id = `${guide}-${group}-title`;
  return (
    <section className="section" aria-labelledby={id}>
      <h2 id={id} className="section__title">
        {text.t(`${group}.title`)}
      </h2>
      <ul className="features__grid features__grid--wide">
        {text.keys(`${group}.items`).map((item) => (
          <li key={item} className="features__card">
            <h3>{text.t(`${group}.items.${item}.title`)}</h3>
            <p>{text.t(`${group}.items.${item}.text`)}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}

function HowItWorks({ guide, text }: { guide: GuideKey; text: GuideText }) {
  const id = `${guide}-how-title`;
  return (
    <section className="section steps" aria-labelledby={id}>
      <h2 id={id} className="section__title">
        {text.t('howItWorks.title')}
      </h2>
      <ol className="steps__list">
        {text.keys('howItWorks.steps').map((step, index) => (
          <li key={step} className="steps__item">
            <span className="steps__number" aria-hidden="true">
              {index + 1}
            </span>
            <h3 className="steps__title">{text.t(`howItWorks.steps.${step}.title`)}</h3>
            <p>{text.t(`howItWorks.steps.${step}.text`)}</p>
          </li>
        ))}
      </ol>
    </section>
  );
}

function Tips({ guide, text }: { guide: GuideKey; text: GuideText }) {
  const id = `${guide}-tips-title`;
  return (
    <section className="section guide-tips" aria-labelledby={id}>
      <h2 id={id} className="section__title">
        {text.t('tips.title')}
      </h2>
      <p className="section__subtitle">{text.t('tips.intro')}</p>
      <ul className="guide-tips__list">
        {text.keys('tips.items').map((item) => (
          <li key={item}>{text.t(`tips.items.${item}`)}</li>
        ))}
      </ul>
    </section>
  );
}

function Pricing({ guide, catalog }: { guide: GuideKey; catalog: CatalogView }) {
  const { t } = useI18n();
  const id = `${guide}-pricing-title`;
  return (
    <section className="section pricing" aria-labelledby={id}>
      <h2 id={id} className="section__title">
        {t('guides.common.pricingTitle')}
      </h2>
      <p className="section__subtitle">{t('guides.common.pricingSubtitle')}</p>
      <PricingCards catalog={catalog} />
    </section>
  );
}

function Faq({ guide, text }: { guide: GuideKey; text: GuideText }) {
  const { t } = useI18n();
  const id = `${guide}-faq-title`;
  return (
    <section className="section faq" aria-labelledby={id}>
      <h2 id={id} className="section__title">
        {t('guides.common.faqTitle')}
      </h2>
      <div className="faq__list">
        {text.keys('faq.items').map((item) => (
          <details key={item} className="faq__item">
            <summary className="faq__question">{text.t(`faq.items.${item}.q`)}</summary>
            <p className="faq__answer">{text.t(`faq.items.${item}.a`)}</p>
          </details>
        ))}
      </div>
    </section>
  );
}

function FinalCta({ guide, text }: { guide: GuideKey; text: GuideText }) {
  const { t } = useI18n();
  return (
    <section className="final-cta" aria-labelledby={`${guide}-final-title`}>
      <h2 id={`${guide}-final-title`}>{text.t('finalCta.title')}</h2>
      <p>{text.t('finalCta.text')}</p>
      <Cta guide={guide} place="final" large>
        {t('guides.common.ctaButton')}
      </Cta>
    </section>
  );
}

function Comparison({ text }: { text: GuideText }) {
  const rows = text.keys('comparison.rows');
  const columns = { ai: text.t('comparison.columns.ai'), traditional: text.t('comparison.columns.traditional') };
  return (
    <section className="section comparison" aria-labelledby="aiTest-comparison-title">
      <h2 id="aiTest-comparison-title" className="section__title">
        {text.t('comparison.title')}
      </h2>
      <p className="section__subtitle">{text.t('comparison.intro')}</p>
      <div className="comparison__wrap">
        <table className="comparison__table">
          <thead>
            <tr>
              <th scope="col">{text.t('comparison.columns.aspect')}</th>
              <th scope="col">{text.t('comparison.columns.ai')}</th>
              <th scope="col">{text.t('comparison.columns.traditional')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row}>
                <th scope="row">{text.t(`comparison.rows.${row}.aspect`)}</th>
                {/* data-label: on a phone the rows stack and each cell names its column. */}
                <td data-label={columns.ai}>{text.t(`comparison.rows.${row}.ai`)}</td>
                <td data-label={columns.traditional}>{text.t(`comparison.rows.${row}.traditional`)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="comparison__note">{text.t('comparison.note')}</p>
    </section>
  );
}

function Verdict({ text }: { text: GuideText }) {
  return (
    <section className="section verdict" aria-labelledby="aiTest-verdict-title">
      <h2 id="aiTest-verdict-title" className="section__title">
        {text.t('verdict.title')}
      </h2>
      <div className="verdict__columns">
        {(['fit', 'photographer'] as const).map((side) => (
          <div key={side} className={`verdict__card verdict__card--${side}`}>
            <h3>{text.t(`verdict.${side}Title`)}</h3>
            <ul>
              {text.keys(`verdict.${side}`).map((item) => (
                <li key={item}>{text.t(`verdict.${side}.${item}`)}</li>
              ))}
            </ul>
          </div>
        ))}
      </div>
      <p className="verdict__summary">{text.t('verdict.summary')}</p>
    </section>
  );
}

export function ApplicationPhotosGuide() {
  const text = useGuide('applicationPhotos');
  return (
    <article className="guide" data-testid="guide-applicationPhotos">
      <Hero guide="applicationPhotos" text={text} />
      <Cards guide="applicationPhotos" text={text} group="benefits" />
      <HowItWorks guide="applicationPhotos" text={text} />
      <BeforeAfter id="beispiele" title={text.t('examples.title')} text={text.t('examples.text')} />
      <Tips guide="applicationPhotos" text={text} />
      <Pricing guide="applicationPhotos" catalog={text.catalog} />
      <Faq guide="applicationPhotos" text={text} />
      <FinalCta guide="applicationPhotos" text={text} />
      <GuideLinks except="applicationPhotos" headingId="applicationPhotos-guides-title" />
    </article>
  );
}

export function LinkedinGuide() {
  const text = useGuide('linkedin');
  return (
    <article className="guide" data-testid="guide-linkedin">
      <Hero guide="linkedin" text={text} />
      <Cards guide="linkedin" text={text} group="benefits" />
      <HowItWorks guide="linkedin" text={text} />
      <Tips guide="linkedin" text={text} />
      <Pricing guide="linkedin" catalog={text.catalog} />
      <Faq guide="linkedin" text={text} />
      <FinalCta guide="linkedin" text={text} />
      <GuideLinks except="linkedin" headingId="linkedin-guides-title" />
    </article>
  );
}

export function AiTestGuide() {
  const text = useGuide('aiTest');
  return (
    <article className="guide" data-testid="guide-aiTest">
      <Hero guide="aiTest" text={text} />
      <Cards guide="aiTest" text={text} group="benefits" />
      <Cards guide="aiTest" text={text} group="limits" />
      <Comparison text={text} />
      <Verdict text={text} />
      <HowItWorks guide="aiTest" text={text} />
      <Pricing guide="aiTest" catalog={text.catalog} />
      <Faq guide="aiTest" text={text} />
      <FinalCta guide="aiTest" text={text} />
      <GuideLinks except="aiTest" headingId="aiTest-guides-title" />
    </article>
  );
}
