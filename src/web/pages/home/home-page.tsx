import type { CatalogView } from '../../../domain/catalog-view.js';
import { formatMoney } from '../../../domain/money.js';
import { formatDate } from '../../../domain/dates.js';
import { BeforeAfter } from '../../components/before-after.js';
import { GuideLinks } from '../../components/guide-links.js';
import { PageLink, eventAttributes } from '../../components/page-link.js';
import { CardGrid, StepList, TitledSection, titledItems } from '../../components/page-sections.js';
import { PricingCards } from '../../components/pricing-cards.js';
import { useI18n } from '../../lib/i18n.js';
import { trackEvent } from '../../lib/metrics.js';
import { useCatalog } from '../../lib/use-catalog.js';

function CampaignBanner({ catalog }: { catalog: CatalogView }) {
  const { t, language } = useI18n();
  if (!catalog.campaign) return null;
  // The campaign ends at endsAt (exclusive): the last valid day is the millisecond before.
  const lastDay = new Date(new Date(catalog.campaign.endsAt).getTime() - 1);
  return (
    <div className="banner" role="note" data-testid="campaign-banner">
      <p>{t('home.banner.text', { percent: catalog.campaign.percent, date: formatDate(lastDay, language) })}</p>
    </div>
  );
}

function Hero({ catalog }: { catalog: CatalogView }) {
  const { t } = useI18n();
  return (
    <section className="hero" aria-labelledby="hero-title">
      <div className="hero__inner">
        <p className="hero__eyebrow">{t('home.hero.eyebrow')}</p>
        <h1 id="hero-title" className="hero__title">
          {t('home.hero.title')}
        </h1>
        <p className="hero__subtitle">{t('home.hero.subtitle')}</p>
        <div className="hero__actions">
          <div className="hero__buttons">
            <PageLink to="orderStart" className="button button--primary button--large" event="upload_start_cta">
              {t('home.hero.cta')}
            </PageLink>
            <a href="#pricing" className="button button--secondary button--large" onClick={() => trackEvent('main_pricing_cta')} {...eventAttributes('main_pricing_cta')}>
              {t('home.hero.pricesLink')}
            </a>
          </div>
          <p className="hero__price">{t('home.hero.fromPrice', { price: formatMoney(catalog.fromPriceCents) })}</p>
        </div>
        <ul className="hero__points">
          <li>{t('home.hero.points.human')}</li>
          <li>{t('home.hero.points.deletion')}</li>
          <li>{t('home.hero.points.retouch')}</li>
        </ul>
      </div>
    </section>
  );
}

function Steps() {
  const { t } = useI18n();
  const steps = ['upload', 'choose', 'result'] as const;
  return (
    <TitledSection className="section steps" id="steps-title" title={t('home.steps.title')}>
      <StepList steps={titledItems(steps, (step) => t(`home.steps.${step}`))} />
    </TitledSection>
  );
}

function Pricing({ catalog }: { catalog: CatalogView }) {
  const { t } = useI18n();
  return (
    <TitledSection className="section pricing" anchor="pricing" id="pricing-title" title={t('home.pricing.title')} subtitle={t('home.pricing.subtitle')}>
      <PricingCards catalog={catalog} />
      <p className="pricing__note" data-testid="business-hours">
        {t('common.businessHoursRule')}
      </p>
      <p className="pricing__teams" data-testid="pricing-teams">
        <PageLink to="team" className="pricing__teams-link">
          {t('home.pricing.teams')}
        </PageLink>{' '}
        {t('home.pricing.teamsText')}
      </p>
    </TitledSection>
  );
}

function Features() {
  const { t } = useI18n();
  const cards = ['human', 'quality', 'privacy', 'retouch'] as const;
  return (
    <TitledSection className="section features" id="features-title" title={t('home.features.title')}>
      <CardGrid className="features__grid" cards={titledItems(cards, (card) => t(`home.features.${card}`))} />
    </TitledSection>
  );
}

function FinalCta({ catalog }: { catalog: CatalogView }) {
  const { t } = useI18n();
  return (
    <section className="final-cta" aria-labelledby="final-cta-title">
      <h2 id="final-cta-title">{t('home.finalCta.title')}</h2>
      <p>{t('home.finalCta.text', { price: formatMoney(catalog.fromPriceCents) })}</p>
      <PageLink to="orderStart" className="button button--primary button--large" event="final_cta">
        {t('home.finalCta.button')}
      </PageLink>
    </section>
  );
}

function HomeExamples() {
  const { t } = useI18n();
  return (
    <BeforeAfter
      id="before-after"
      title={t('home.examples.title')}
      text={t('home.examples.subtitle')}
      cta={
        <PageLink to="orderStart" className="button button--primary" event="transform_images_cta">
          {t('home.examples.cta')}
        </PageLink>
      }
    />
  );
}

export function HomePage() {
  const catalog = useCatalog();
  return (
    <>
      <CampaignBanner catalog={catalog} />
      <Hero catalog={catalog} />
      <Steps />
      <HomeExamples />
      <Pricing catalog={catalog} />
      <Features />
      <FinalCta catalog={catalog} />
      <GuideLinks headingId="home-guides-title" />
    </>
  );
}
