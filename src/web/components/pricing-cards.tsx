// The package price cards (home and guide pages): price, campaign price, features, delivery time; every
// card leads to the wizard.
import type { CatalogPackageView, CatalogView } from '../../domain/catalog-view.js';
import { formatMoney } from '../../domain/money.js';
import { useAppData } from '../app-data.js';
import { useI18n } from '../lib/i18n.js';
import { packageFeatures } from './details.js';
import { PageLink } from './page-link.js';

function PricingCard({ pkg, headingLevel }: { pkg: CatalogPackageView; headingLevel: 'h2' | 'h3' }) {
  const { t } = useI18n();
  const { capabilities } = useAppData();
  const name = t(`catalog.packages.${pkg.key}.name`);
  const discounted = pkg.priceCents < pkg.listPriceCents;
  const Heading = headingLevel;
  return (
    <article className={`price-card${pkg.popular ? ' price-card--popular' : ''}`} data-testid={`price-card-${pkg.key}`} aria-labelledby={`price-${pkg.key}`}>
      {pkg.popular && <p className="price-card__badge">{t('home.pricing.popular')}</p>}
      <Heading id={`price-${pkg.key}`} className="price-card__name">
        {name}
      </Heading>
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
        {packageFeatures(pkg, t, { newOutfits: capabilities.newOutfits }).map((feature) => (
          <li key={feature}>{feature}</li>
        ))}
      </ul>
      <PageLink
        to="orderStart"
        className={`button ${pkg.popular ? 'button--primary' : 'button--secondary'} price-card__cta`}
        event={`pricing_${pkg.key}_cta`}
      >
        {t('home.pricing.cta', { name })}
      </PageLink>
    </article>
  );
}

export function PricingCards(props: { catalog: CatalogView; headingLevel?: 'h2' | 'h3' }) {
  const { t } = useI18n();
  const variants = props.catalog.extras.find((e) => e.key === 'extra_variants');
  const express = props.catalog.extras.find((e) => e.key === 'express_delivery');
  return (
    <>
      <div className="pricing__grid">
        {props.catalog.packages.map((pkg) => (
          <PricingCard key={pkg.key} pkg={pkg} headingLevel={props.headingLevel ?? 'h3'} />
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
    </>
  );
}
