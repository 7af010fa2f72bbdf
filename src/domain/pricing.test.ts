import { expect, test } from 'vitest';
import type { Campaign } from './campaign.js';
import { PricingError, packagePrice, priceOrder, priceTeamOrder, seatRefundCents, vatFromGross } from './pricing.js';

const campaign: Campaign = {
  id: 'test',
  percent: 20,
  packages: ['pro', 'premium'],
  startsAt: new Date('2026-11-01T00:00:00Z'),
  endsAt: new Date('2026-12-01T00:00:00Z'),
};
const during = new Date('2026-11-22T12:00:00Z');
const after = new Date('2026-12-01T00:00:00Z');

test('campaign takes 20 % off pro and premium, rounded to the cent', () => {
  expect(packagePrice('pro', campaign, during)).toEqual({ listCents: 3490, discountPercent: 20, discountCents: 698, priceCents: 2792 });
  expect(packagePrice('premium', campaign, during).priceCents).toBe(5592);
});

test('basic is never part of the campaign', () => {
  expect(packagePrice('basic', campaign, during)).toEqual({ listCents: 1490, discountPercent: 0, discountCents: 0, priceCents: 1490 });
});

test('campaign ends at its end date and not before its start', () => {
  expect(packagePrice('pro', campaign, after).priceCents).toBe(3490);
  expect(packagePrice('pro', campaign, new Date('2026-10-31T23:59:59Z')).priceCents).toBe(3490);
  expect(packagePrice('pro', null, during).priceCents).toBe(3490);
});

test('basic with both extras is 39,88 € of which 6,37 € VAT', () => {
  const price = priceOrder({ package: 'basic', extras: ['express_delivery', 'extra_variants'], campaign, now: during });
  expect(price.grossCents).toBe(3988);
  expect(price.vatCents).toBe(637);
  expect(price.netCents).toBe(3351);
  expect(price.vatRatePercent).toBe(19);
  expect(price.extras).toEqual(['extra_variants', 'express_delivery']);
});

test('extras are never discounted', () => {
  const price = priceOrder({ package: 'pro', extras: ['extra_variants', 'express_delivery'], campaign, now: during });
  expect(price.packageCents).toBe(2792);
  expect(price.discountCents).toBe(698);
  expect(price.extrasCents).toBe(999 + 1499);
  expect(price.grossCents).toBe(2792 + 999 + 1499);
  for (const line of price.lines.filter((l) => l.kind === 'extra')) {
    expect(line.discountCents).toBe(0);
    expect(line.cents).toBe(line.listCents);
  }
  expect(price.netCents + price.vatCents).toBe(price.grossCents);
});

test('express is not offered with premium', () => {
  expect(() => priceOrder({ package: 'premium', extras: ['express_delivery'], campaign, now: during })).toThrow(PricingError);
  expect(priceOrder({ package: 'premium', extras: ['extra_variants'], campaign, now: during }).grossCents).toBe(5592 + 999);
});

test('an extra given twice is refused', () => {
  expect(() => priceOrder({ package: 'basic', extras: ['extra_variants', 'extra_variants'], campaign: null, now: during })).toThrow(
    /twice/,
  );
});

test('VAT is contained in gross prices', () => {
  expect(vatFromGross(1490)).toBe(238); // 14,90 € = 12,52 € + 2,38 €
  expect(vatFromGross(3490)).toBe(557);
  expect(vatFromGross(0)).toBe(0);
});

test('a team order is the seat price times the seats, the campaign applied per seat, VAT taken from the gross total', () => {
  const price = priceTeamOrder({ package: 'pro', seats: 5, campaign, now: during, treatment: 'standard' });
  // 5 × 27,92 € (34,90 € less 20 %): 139,60 €, of which 19/119 is VAT, rounded once on the total.
  expect(price).toMatchObject({
    package: 'pro',
    extras: [],
    packageListCents: 5 * 3490,
    discountPercent: 20,
    discountCents: 5 * 698,
    packageCents: 13960,
    extrasCents: 0,
    grossCents: 13960,
    vatCents: 2229,
    netCents: 11731,
    vatRatePercent: 19,
  });
  expect(price.lines).toEqual([{ kind: 'package', key: 'pro', quantity: 5, listCents: 17450, discountCents: 3490, cents: 13960 }]);
  // One seat costs what a single customer pays for the package.
  const one = priceTeamOrder({ package: 'premium', seats: 1, campaign, now: during, treatment: 'standard' });
  const single = priceOrder({ package: 'premium', extras: [], campaign, now: during });
  expect({ gross: one.grossCents, net: one.netCents, vat: one.vatCents }).toEqual({ gross: single.grossCents, net: single.netCents, vat: single.vatCents });
  // Basic is never discounted, after the campaign nothing is.
  expect(priceTeamOrder({ package: 'basic', seats: 3, campaign, now: during, treatment: 'standard' }).grossCents).toBe(3 * 1490);
  expect(priceTeamOrder({ package: 'pro', seats: 3, campaign, now: after, treatment: 'standard' })).toMatchObject({ grossCents: 3 * 3490, discountCents: 0, discountPercent: 0 });
});

test('reverse charge: the buyer pays the standard net, no VAT at 0 %, and the amounts are net amounts that add up', () => {
  const standard = priceTeamOrder({ package: 'pro', seats: 5, campaign, now: during, treatment: 'standard' });
  const price = priceTeamOrder({ package: 'pro', seats: 5, campaign, now: during, treatment: 'reverse_charge' });
  expect(price).toMatchObject({ grossCents: 11731, netCents: 11731, vatCents: 0, vatRatePercent: 0, packageCents: 11731, extrasCents: 0, discountPercent: 20 });
  expect(price.netCents).toBe(standard.netCents);
  // The list price as net (174,50 € less its 27,86 € VAT), the discount the difference to what is paid.
  expect(price.packageListCents).toBe(17450 - 2786);
  expect(price.discountCents).toBe(17450 - 2786 - 11731);
  const [line] = price.lines;
  expect(line).toEqual({ kind: 'package', key: 'pro', quantity: 5, listCents: 14664, discountCents: 2933, cents: 11731 });
  expect(line!.listCents - line!.discountCents).toBe(price.grossCents);
  // Without a campaign there is no discount, net or gross.
  expect(priceTeamOrder({ package: 'basic', seats: 7, campaign: null, now: during, treatment: 'reverse_charge' })).toMatchObject({
    discountCents: 0,
    grossCents: 7 * 1490 - vatFromGross(7 * 1490),
    vatCents: 0,
  });
});

test('a team order needs a whole number of seats', () => {
  for (const seats of [0, -1, 2.5, Number.NaN]) {
    expect(() => priceTeamOrder({ package: 'pro', seats, campaign: null, now: during, treatment: 'standard' }), String(seats)).toThrow(PricingError);
  }
});

test('seats given back repay their share of what all seats cost; the shares of every seat add up to the total', () => {
  expect(seatRefundCents({ totalCents: 17450, seatsBought: 5, seats: 1 })).toBe(3490);
  expect(seatRefundCents({ totalCents: 17450, seatsBought: 5, seats: 2 })).toBe(6980);
  // Reverse charge: 14 664 cents for five seats does not divide evenly; one seat is rounded, all five are the total.
  expect(seatRefundCents({ totalCents: 14664, seatsBought: 5, seats: 1 })).toBe(2933);
  expect(seatRefundCents({ totalCents: 14664, seatsBought: 5, seats: 5 })).toBe(14664);
  expect(() => seatRefundCents({ totalCents: 17450, seatsBought: 5, seats: 6 })).toThrow(PricingError);
  expect(() => seatRefundCents({ totalCents: 17450, seatsBought: 5, seats: 0 })).toThrow(PricingError);
});
