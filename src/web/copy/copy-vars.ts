// The numbers marketing copy may quote, always from the catalogue: the texts cannot drift from what the
// shop sells (docs/rules.md §1). Guide texts use exactly these placeholders (see copy-vars.test.ts).
import type { CatalogView } from '../../domain/catalog-view.js';
import { deliveryHours, MAX_UPLOAD_MB, RETENTION, UPLOAD_LIMITS } from '../../domain/catalog.js';
import { formatMoney } from '../../domain/money.js';
import type { SiteInfo } from '../../domain/site.js';

export type CopyVars = Record<string, string | number>;

export function copyVars(catalog: CatalogView, site: SiteInfo): CopyVars {
  const pkg = (key: string) => catalog.packages.find((p) => p.key === key)!;
  const extra = (key: string) => catalog.extras.find((e) => e.key === key)!;
  return {
    site: site.name,
    price: formatMoney(catalog.fromPriceCents),
    fromPrice: formatMoney(catalog.fromPriceCents),
    // List prices: a campaign shows on the price cards, the prose stays true after it ends.
    basicPrice: formatMoney(pkg('basic').listPriceCents),
    proPrice: formatMoney(pkg('pro').listPriceCents),
    premiumPrice: formatMoney(pkg('premium').listPriceCents),
    variantsPrice: formatMoney(extra('extra_variants').priceCents),
    expressPrice: formatMoney(extra('express_delivery').priceCents),
    basicHours: pkg('basic').deliveryHours,
    proHours: pkg('pro').deliveryHours,
    premiumHours: pkg('premium').deliveryHours,
    expressHours: deliveryHours('basic', ['express_delivery']),
    minPhotos: UPLOAD_LIMITS.minPhotos,
    maxPhotos: UPLOAD_LIMITS.maxPhotos,
    maxMb: MAX_UPLOAD_MB,
    minPx: UPLOAD_LIMITS.minShortSidePx,
    dpi: catalog.dpi,
    retentionDays: RETENTION.daysAfterCompletion,
    retouchDays: RETENTION.revisionDays,
  };
}
