import { expect, test } from 'vitest';
import { invoiceNumber, invoiceYear, retentionAfterPhotos, splitGross, statutoryRetentionEnd } from './invoice.js';
import { vatFromGross } from './pricing.js';

test('invoice numbers are one padded sequence per year', () => {
  expect(invoiceNumber(2026, 1)).toBe('RE-2026-000001');
  expect(invoiceNumber(2027, 123456)).toBe('RE-2027-123456');
});

test('net and VAT always add up to the gross amount, also for refunds', () => {
  expect(splitGross(3490, 19)).toEqual({ netCents: 2933, vatCents: 557, grossCents: 3490 });
  expect(splitGross(1490, 19)).toEqual({ netCents: 1252, vatCents: 238, grossCents: 1490 });
  expect(splitGross(-999, 19)).toEqual({ netCents: -839, vatCents: -160, grossCents: -999 });
  for (let gross = 1; gross < 20000; gross += 37) {
    const split = splitGross(gross, 19);
    expect(split.netCents + split.vatCents).toBe(gross);
    // The same VAT as the order's price, and a refund of the same amount mirrors it exactly.
    expect(split.vatCents).toBe(vatFromGross(gross, 19));
    expect(splitGross(-gross, 19)).toEqual({ netCents: -split.netCents, vatCents: -split.vatCents, grossCents: -gross });
  }
});

test('an invoice is kept to the end of the 8th calendar year after issue, counted in German time', () => {
  expect(statutoryRetentionEnd(new Date('2026-02-10T12:00:00Z'))).toEqual(new Date('2034-12-31T23:00:00Z'));
  // 00:30 on 1 January 2027 in Germany is an invoice of 2027.
  expect(invoiceYear(new Date('2026-12-31T23:30:00Z'))).toBe(2027);
  expect(statutoryRetentionEnd(new Date('2026-12-31T23:30:00Z'))).toEqual(new Date('2035-12-31T23:00:00Z'));
  expect(retentionAfterPhotos(new Date('2026-03-01T00:00:00Z'))).toEqual(new Date('2034-03-01T00:00:00Z'));
});
