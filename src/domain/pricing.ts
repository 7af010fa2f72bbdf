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
  /** How many of it, when more than one person's worth ("5 × Pro Paket" of a team order); absent means one. */
  quantity?: number;
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
    readonly code: 'extraNotOffered' | 'duplicateExtra' | 'seatsInvalid',
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

export type VatTreatment = 'standard' | 'reverse_charge';

/**
 * A team order (issue 17): seats of one package, each at the package price with any campaign applied per
 * seat exactly as packagePrice does; no extras. 'standard': prices include 19 % VAT as everywhere, VAT taken
 * from the gross total as vatFromGross does. 'reverse_charge' (a buyer with a VAT ID of another EU member
 * state, see vat-id.ts): the buyer owes the VAT in its own country and pays us the standard net only, so VAT
 * is 0 at 0 % and gross equals net. Then every amount of the breakdown (list, discount, line, package) is a
 * net amount too, so the line still adds up to the total: list and discount are the net of their standard
 * totals, the way the net total is the net of the gross total.
 */
export function priceTeamOrder(input: {
  package: PackageKey;
  seats: number;
  campaign: Campaign | null;
  now: Date;
  treatment: VatTreatment;
}): PriceBreakdown {
  if (!Number.isSafeInteger(input.seats) || input.seats < 1) throw new PricingError('seatsInvalid', `seats must be a whole number of at least 1, not ${input.seats}`);
  const seat = packagePrice(input.package, input.campaign, input.now);
  const standardListCents = seat.listCents * input.seats;
  const standardGrossCents = seat.priceCents * input.seats;
  const standardVatCents = vatFromGross(standardGrossCents);
  const reverseCharge = input.treatment === 'reverse_charge';
  const listCents = reverseCharge ? standardListCents - vatFromGross(standardListCents) : standardListCents;
  const grossCents = reverseCharge ? standardGrossCents - standardVatCents : standardGrossCents;
  const vatCents = reverseCharge ? 0 : standardVatCents;
  const discountCents = listCents - grossCents;
  return {
    package: input.package,
    extras: [],
    lines: [{ kind: 'package', key: input.package, quantity: input.seats, listCents, discountCents, cents: grossCents }],
    packageListCents: listCents,
    discountPercent: seat.discountPercent,
    discountCents,
    packageCents: grossCents,
    extrasCents: 0,
    grossCents,
    netCents: grossCents - vatCents,
    vatCents,
    vatRatePercent: reverseCharge ? 0 : VAT_RATE_PERCENT,
  };
}

/**
 * What giving back `seats` of a team order repays: their share of the amount paid for all seats bought at the
 * order (every seat cost the same). The back office shows it; the refund service charges it back.
 */
export function seatRefundCents(input: { totalCents: number; seatsBought: number; seats: number }): number {
  const { totalCents, seatsBought, seats } = input;
  if (!Number.isSafeInteger(seats) || seats < 1 || !Number.isSafeInteger(seatsBought) || seats > seatsBought) {
    throw new PricingError('seatsInvalid', `cannot give back ${seats} of ${seatsBought} seats`);
  }
  return Math.round((totalCents * seats) / seatsBought);
}
