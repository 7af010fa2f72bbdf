import { useEffect, useState } from 'react';
import type { CatalogPackageView, CatalogView } from '../../../domain/catalog-view.js';
import { formatDate, formatMoney } from '../../../domain/money.js';
import { useAppData } from '../../app-data.js';
import { packageFeatures } from '../../components/details.js';
import { PageLink } from '../../components/page-link.js';
import { linkTarget } from '../../routes.js';
import { useI18n } from '../../i18n/i18n.js';

/** The catalogue from the page data; refreshed from /api/catalog so a campaign that starts or ends shows. */
function useCatalog(): CatalogView {
  const { catalog: initial } = useAppData();
  const [catalog, setCatalog] = useState(initial);
  useEffect(() => {
    const controller = new AbortController();
    fetch('/api/catalog', { signal: controller.signal })
      .then((response) => (response.ok ? (response.json() as Promise<CatalogView>) : null))
      .then((fresh) => {
        if (fresh) setCatalog(fresh);
      })
      .catch(() => {
        // Keep the prices the page was rendered with.
      });
    return () => controller.abort();
  }, []);
  return catalog;
}

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
            <PageLink to="orderStart" className="button button--primary button--large">
              {t('home.hero.cta')}
            </PageLink>
            <a href="#pricing" className="button button--secondary button--large">
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
    <section className="section steps" aria-labelledby="steps-title">
      <h2 id="steps-title" className="section__title">
        {t('home.steps.title')}
      </h2>
      <ol className="steps__list">
        {steps.map((step, index) => (
          <li key={step} className="steps__item">
            <span className="steps__number" aria-hidden="true">
              {index + 1}
            </span>
            <h3 className="steps__title">{t(`home.steps.${step}.title`)}</h3>
            <p>{t(`home.steps.${step}.text`)}</p>
          </li>
        ))}
      </ol>
    </section>
  );
}

function PricingCard({ pkg }: { pkg: CatalogPackageView }) {
  const { t } = useI18n();
  const name = t(`catalog.packages.${pkg.key}.name`);
  const discounted = pkg.priceCents < pkg.listPriceCents;
  return (
    <article className={`price-card${pkg.popular ? ' price-card--popular' : ''}`} data-testid={`price-card-${pkg.key}`} aria-labelledby={`price-${pkg.key}`}>
      {pkg.popular && <p className="price-card__badge">{t('home.pricing.popular')}</p>}
      <h3 id={`price-${pkg.key}`} className="price-card__name">
        {name}
      </h3>
      <p className="price-card__description">{t(`catalog.packages.${pkg.key}.description`)}</p>
      <div className="price-card__price">
        <span className="price-card__amount" data-testid={`price-${pkg.key}`}>
          {formatMoney(pkg.priceCents)}
        </span>
        {discounted && (
          <>
            <s className="price-card__list" data-testid={`list-price-${pkg.key}`}>
              <span className="visually-hidden">{t('home.pricing.listPrice', { price: '' })}</span>
              {formatMoney(pkg.listPriceCents)}
            </s>
            <span className="price-card__discount">{t('home.pricing.discount', { percent: pkg.discountPercent })}</span>
          </>
        )}
      </div>
      <ul className="price-card__features">
        {packageFeatures(pkg, t).map((feature) => (
          <li key={feature}>{feature}</li>
        ))}
      </ul>
      <PageLink to="orderStart" className={`button ${pkg.popular ? 'button--primary' : 'button--secondary'} price-card__cta`}>
        {t('home.pricing.cta', { name })}
      </PageLink>
    </article>
  );
}

function Pricing({ catalog }: { catalog: CatalogView }) {
  const { t } = useI18n();
  const variants = catalog.extras.find((e) => e.key === 'extra_variants');
  const express = catalog.extras.find((e) => e.key === 'express_delivery');
  return (
    <section className="section pricing" id="pricing" aria-labelledby="pricing-title">
      <h2 id="pricing-title" className="section__title">
        {t('home.pricing.title')}
      </h2>
      <p className="section__subtitle">{t('home.pricing.subtitle')}</p>
      <div className="pricing__grid">
        {catalog.packages.map((pkg) => (
          <PricingCard key={pkg.key} pkg={pkg} />
        ))}
      </div>
      {variants && express && (
        <p className="pricing__extras">
          {t('home.pricing.extrasNote', {
            variants: t('catalog.extras.extra_variants.name'),
            variantsPrice: formatMoney(variants.priceCents),
            express: t('catalog.extras.express_delivery.name'),
            expressPrice: formatMoney(express.priceCents),
          })}
        </p>
      )}
    </section>
  );
}

function Features() {
  const { t } = useI18n();
  const cards = ['human', 'quality', 'privacy', 'retouch'] as const;
  return (
    <section className="section features" aria-labelledby="features-title">
      <h2 id="features-title" className="section__title">
        {t('home.features.title')}
      </h2>
      <ul className="features__grid">
        {cards.map((card) => (
          <li key={card} className="features__card">
            <h3>{t(`home.features.${card}.title`)}</h3>
            <p>{t(`home.features.${card}.text`)}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}

function FinalCta({ catalog }: { catalog: CatalogView }) {
  const { t } = useI18n();
  if (!linkTarget('orderStart')) return null;
  return (
    <section className="final-cta" aria-labelledby="final-cta-title">
      <h2 id="final-cta-title">{t('home.finalCta.title')}</h2>
      <p>{t('home.finalCta.text', { price: formatMoney(catalog.fromPriceCents) })}</p>
      <PageLink to="orderStart" className="button button--primary button--large">
        {t('home.finalCta.button')}
      </PageLink>
    </section>
  );
}

export function HomePage() {
  const catalog = useCatalog();
  return (
    <>
      <CampaignBanner catalog={catalog} />
      <Hero catalog={catalog} />
      <Steps />
      <Pricing catalog={catalog} />
      <Features />
      <FinalCta catalog={catalog} />
    </>
  );
}
