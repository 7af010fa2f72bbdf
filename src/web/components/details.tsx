import { RETENTION } from '../../domain/catalog.js';
import type { CatalogPackageView } from '../../domain/catalog-view.js';

type Translate = (key: string, vars?: Record<string, string | number>) => string;

/** Label/value rows (order number, package, ...) as a description list. */
export function DetailRows({ rows }: { rows: [string, string][] }) {
  return (
    <dl className="summary__details">
      {rows.map(([label, value]) => (
        <div key={label} className="summary__row">
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** What a package contains, as the pricing grid and the order summary list it. */
export function packageFeatures(pkg: CatalogPackageView, t: Translate, options: { refinement?: boolean; newOutfits: boolean }): string[] {
  return [
    t('home.pricing.photos', { n: pkg.imageCount }),
    // Outfits are counted only where the pictures can show a chosen one (a generator makes them).
    ...(options.newOutfits ? [t('home.pricing.outfits', { n: pkg.outfits })] : []),
    t('home.pricing.backgrounds', { n: pkg.backgrounds }),
    t('home.pricing.hd'),
    ...(pkg.hasRefinement && options.refinement !== false ? [t('home.pricing.refinement')] : []),
    ...(pkg.colourAdjustment ? [t('home.pricing.colourAdjustment')] : []),
    ...(pkg.includesExpress ? [t('home.pricing.expressIncluded')] : []),
    ...(pkg.commercialLicense ? [t('home.pricing.commercialLicense')] : []),
    t('home.pricing.redo', { n: pkg.redoPictures, days: RETENTION.revisionDays }),
    t('home.pricing.delivery', { hours: pkg.deliveryHours }),
  ];
}
