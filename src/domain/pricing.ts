import { campaignPercentFor, type Campaign } from './campaign.js';
import { EXTRAS, PACKAGES, VAT_RATE_PERCENT, isExtraOffered, type ExtraKey, type PackageKey } from './catalog.js';
import { percentOf, roundDiv } from './money.js';

export interface PackagePrice {
  listCents: number;
  discountPercent: number;
  discountCents: number;
  priceCents: number;
}

/** The package price with an active campaign applied; extras are never discounted. */
export function packagePrice(pkg: PackageKey, campaign: Campaign | null, now: Date): PackagePrice {
  const listCents = PACKAGES[pkg].priceCents;
  const discountPercent = campaignPercentFor(campaign, pkg, now);
  const discountCents = percentOf(listCents, discountPercent);
  return { listCents, discountPercent, discountCents, priceCents: listCents - discountCents };
}

export interface PriceLine {
  kind: 'package' | 'extra';
  key: PackageKey | ExtraKey;
  listCents: number;
  discountCents: number;
  cents: number;
}

export interface PriceBreakdown {
  package: PackageKey;
  extras: ExtraKey[];
  lines: PriceLine[];
  packageListCents: number;
  discountPercent: number;
  discountCents: number;
  packageCents: number;
  extrasCents: number;
  grossCents: number;
  netCents: number;
  vatCents: number;
  vatRatePercent: number;
}

export class PricingError extends Error {
  constructor(
    readonly code: 'extraNotOffered' | 'duplicateExtra',
    message: string,
  ) {
    super(message);
    this.name = 'PricingError';
  }
}

/** VAT contained in a gross amount (prices include VAT). */
export function vatFromGross(grossCents: number, ratePercent = VAT_RATE_PERCENT): number {
  return roundDiv(grossCents * ratePercent, 100 + ratePercent);
}

/**
 * The whole price of an order, computed from the catalogue only.
 * Throws PricingError for an extra the package does not offer.
 */
export function priceOrder(input: {
  package: PackageKey;
  extras: readonly ExtraKey[];
  campaign: Campaign | null;
  now: Date;
}): PriceBreakdown {
  const seen = new Set<ExtraKey>();
  for (const extra of input.extras) {
    if (seen.has(extra)) throw new PricingError('duplicateExtra', `extra ${extra} given twice`);
    seen.add(extra);
    if (!isExtraOffered(input.package, extra)) {
      throw new PricingError('extraNotOffered', `extra ${extra} is not offered with ${input.package}`);
    }
  }
  // Catalogue order, so equal selections give equal line lists.
  const extras = (Object.keys(EXTRAS) as ExtraKey[]).filter((key) => seen.has(key));
  const pkg = packagePrice(input.package, input.campaign, input.now);
  const lines: PriceLine[] = [
    { kind: 'package', key: input.package, listCents: pkg.listCents, discountCents: pkg.discountCents, cents: pkg.priceCents },
    ...extras.map((key): PriceLine => {
      const cents = EXTRAS[key].priceCents;
      return { kind: 'extra', key, listCents: cents, discountCents: 0, cents };
    }),
  ];
  const extrasCents = extras.reduce((sum, key) => sum + EXTRAS[key].priceCents, 0);
  const grossCents = pkg.priceCents + extrasCents;
  const vatCents = vatFromGross(grossCents);
  return {
    package: input.package,
    extras,
    lines,
    packageListCents: pkg.listCents,
    discountPercent: pkg.discountPercent,
    discountCents: pkg.discountCents,
    packageCents: pkg.priceCents,
    extrasCents,
    grossCents,
    netCents: grossCents - vatCents,
    vatCents,
    vatRatePercent: VAT_RATE_PERCENT,
  };
}
