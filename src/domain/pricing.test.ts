import { expect, test } from 'vitest';
import type { Campaign } from './campaign.js';
import { PricingError, packagePrice, priceOrder, vatFromGross } from './pricing.js';

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
