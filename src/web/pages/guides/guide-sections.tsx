// The sections of the guide pages (guide-pages.tsx): each reads its texts from its guide's catalogue.
import type { ReactNode } from 'react';
import type { CatalogView } from '../../../domain/catalog-view.js';
import { CardGrid, StepList, TitledSection, titledItems } from '../../components/page-sections.js';
import { PageLink } from '../../components/page-link.js';
import { PricingCards } from '../../components/pricing-cards.js';
import { useI18n } from '../../lib/i18n.js';
import type { GuideKey } from '../../routes.js';

export interface GuideText {
  t: (key: string) => string;
  keys: (key: string) => string[];
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

export function Hero({ guide, text }: { guide: GuideKey; text: GuideText }) {
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
export function Cards({ guide, text, group }: { guide: GuideKey; text: GuideText; group: string }) {
  const cards = titledItems(text.keys(`${group}.items`), (item) => text.t(`${group}.items.${item}`));
  return (
    <TitledSection className="section" id={`${guide}-${group}-title`} title={text.t(`${group}.title`)}>
      <CardGrid className="features__grid features__grid--wide" cards={cards} />
    </TitledSection>
  );
}

export function HowItWorks({ guide, text }: { guide: GuideKey; text: GuideText }) {
  const steps = titledItems(text.keys('howItWorks.steps'), (step) => text.t(`howItWorks.steps.${step}`));
  return (
    <TitledSection className="section steps" id={`${guide}-how-title`} title={text.t('howItWorks.title')}>
      <StepList steps={steps} />
    </TitledSection>
  );
}

export function Tips({ guide, text }: { guide: GuideKey; text: GuideText }) {
  return (
    <TitledSection className="section guide-tips" id={`${guide}-tips-title`} title={text.t('tips.title')} subtitle={text.t('tips.intro')}>
      <ul className="guide-tips__list">
        {text.keys('tips.items').map((item) => (
          <li key={item}>{text.t(`tips.items.${item}`)}</li>
        ))}
      </ul>
    </TitledSection>
  );
}

export function Pricing({ guide, catalog }: { guide: GuideKey; catalog: CatalogView }) {
  const { t } = useI18n();
  return (
    <TitledSection className="section pricing" id={`${guide}-pricing-title`} title={t('guides.common.pricingTitle')} subtitle={t('guides.common.pricingSubtitle')}>
      <PricingCards catalog={catalog} />
    </TitledSection>
  );
}

export function Faq({ guide, text }: { guide: GuideKey; text: GuideText }) {
  const { t } = useI18n();
  return (
    <TitledSection className="section faq" id={`${guide}-faq-title`} title={t('guides.common.faqTitle')}>
      <div className="faq__list">
        {text.keys('faq.items').map((item) => (
          <details key={item} className="faq__item">
            <summary className="faq__question">{text.t(`faq.items.${item}.q`)}</summary>
            <p className="faq__answer">{text.t(`faq.items.${item}.a`)}</p>
          </details>
        ))}
      </div>
    </TitledSection>
  );
}

export function FinalCta({ guide, text }: { guide: GuideKey; text: GuideText }) {
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

export function Comparison({ text }: { text: GuideText }) {
  const rows = text.keys('comparison.rows');
  const columns = { ai: text.t('comparison.columns.ai'), traditional: text.t('comparison.columns.traditional') };
  return (
    <TitledSection className="section comparison" id="aiTest-comparison-title" title={text.t('comparison.title')} subtitle={text.t('comparison.intro')}>
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
    </TitledSection>
  );
}

export function Verdict({ text }: { text: GuideText }) {
  return (
    <TitledSection className="section verdict" id="aiTest-verdict-title" title={text.t('verdict.title')}>
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
    </TitledSection>
  );
}
