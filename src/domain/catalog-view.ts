// The catalogue as the browser needs it: keys, numbers and the active campaign. Texts come
// from the i18n catalogues; prices are computed here, once, from the domain catalogue.
import { isCampaignActive, type Campaign } from './campaign.js';
import {
  BASE_STYLES,
  CURRENCY,
  EXTRAS,
  GENDERS,
  LOCATIONS,
  OUTFITS,
  OUTPUT_DPI,
  PACKAGES,
  PACKAGE_KEYS,
  UPLOAD_LIMITS,
  VAT_RATE_PERCENT,
  offeredExtras,
  type ExtraKey,
  type PackageKey,
} from './catalog.js';
import { packagePrice } from './pricing.js';

export interface CatalogPackageView {
  key: PackageKey;
  listPriceCents: number;
  priceCents: number;
  discountPercent: number;
  imageCount: number;
  outfits: number;
  backgrounds: number;
  deliveryHours: number;
  /** Pictures made again free on request within the revision days. */
  redoPictures: number;
  hasRefinement: boolean;
  popular: boolean;
  includesExpress: boolean;
  commercialLicense: boolean;
  colourAdjustment: boolean;
  offeredExtras: ExtraKey[];
}

export interface CatalogView {
  currency: string;
  vatRatePercent: number;
  dpi: number;
  fromPriceCents: number;
  packages: CatalogPackageView[];
  extras: { key: ExtraKey; priceCents: number; addsImages: number; deliveryHours: number | null }[];
  genders: string[];
  styles: string[];
  locations: string[];
  outfits: string[];
  uploads: { minPhotos: number; maxPhotos: number; maxFileBytes: number; minShortSidePx: number };
  campaign: { id: string; percent: number; packages: PackageKey[]; startsAt: string; endsAt: string } | null;
}

export function buildCatalogView(campaign: Campaign | null, now: Date): CatalogView {
  const packages = PACKAGE_KEYS.map((key): CatalogPackageView => {
    const def = PACKAGES[key];
    const price = packagePrice(key, campaign, now);
    return {
      key,
      listPriceCents: price.listCents,
      priceCents: price.priceCents,
      discountPercent: price.discountPercent,
      imageCount: def.imageCount,
      outfits: def.outfits,
      backgrounds: def.backgrounds,
      deliveryHours: def.deliveryHours,
      hasRefinement: def.hasRefinement,
      popular: def.popular,
      includesExpress: def.includesExpress,
      commercialLicense: def.commercialLicense,
      colourAdjustment: def.colourAdjustment,
      redoPictures: def.redoPictures,
      offeredExtras: offeredExtras(key),
    };
  });
  const active = isCampaignActive(campaign, now) ? campaign : null;
  return {
    currency: CURRENCY,
    vatRatePercent: VAT_RATE_PERCENT,
    dpi: OUTPUT_DPI,
    // "ab 14,90 €" is the only price-start claim: the cheapest list price, never a discounted one.
    fromPriceCents: Math.min(...PACKAGE_KEYS.map((k) => PACKAGES[k].priceCents)),
    packages,
    extras: Object.values(EXTRAS).map((e) => ({ key: e.key, priceCents: e.priceCents, addsImages: e.addsImages, deliveryHours: e.deliveryHours })),
    genders: [...GENDERS],
    styles: [...BASE_STYLES],
    locations: [...LOCATIONS],
    outfits: [...OUTFITS],
    uploads: {
      minPhotos: UPLOAD_LIMITS.minPhotos,
      maxPhotos: UPLOAD_LIMITS.maxPhotos,
      maxFileBytes: UPLOAD_LIMITS.maxFileBytes,
      minShortSidePx: UPLOAD_LIMITS.minShortSidePx,
    },
    campaign: active
      ? { id: active.id, percent: active.percent, packages: [...active.packages], startsAt: active.startsAt.toISOString(), endsAt: active.endsAt.toISOString() }
      : null,
  };
}
