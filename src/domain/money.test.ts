import { expect, test } from 'vitest';
import { formatMoney, percentOf, roundDiv } from './money.js';

test('money is formatted the German way', () => {
  expect(formatMoney(3490)).toBe('34,90\u00a0€');
  expect(formatMoney(123456)).toBe('1.234,56\u00a0€');
  expect(formatMoney(0)).toBe('0,00\u00a0€');
});

test('whole cents are written exactly as Intl writes euros in German, which the browser loads only when it must', () => {
  const intl = new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'EUR' });
  const amounts = [1, 9, 10, 99, 100, 101, 999, 1000, 99_999, 100_000, 123_456, 99_999_999, 100_000_000, 123_456_789_012, Number.MAX_SAFE_INTEGER];
  // And a spread of others: every number of digits, each with varied digits.
  for (let digits = 1; digits <= 15; digits++) for (let i = 0; i < 40; i++) amounts.push(Math.floor(10 ** (digits - 1) + ((10 ** digits - 10 ** (digits - 1)) * i) / 40));
  for (const cents of [0, ...amounts, ...amounts.map((amount) => -amount)]) {
    if (Math.abs(cents) < 1e15) expect(formatMoney(cents), String(cents)).toBe(intl.format(cents / 100));
  }
  // Beyond what a double's hundredths hold, the written-out form stays exact.
  expect(formatMoney(Number.MAX_SAFE_INTEGER)).toBe('90.071.992.547.409,91\u00a0€');
  // Fractions of a cent are Intl's to round.
  expect(formatMoney(12.5)).toBe(intl.format(0.125));
});

test('rounding is half up on whole cents', () => {
  expect(roundDiv(5, 2)).toBe(3);
  expect(roundDiv(4, 3)).toBe(1);
  expect(percentOf(3490, 20)).toBe(698);
  expect(percentOf(1, 50)).toBe(1);
  expect(() => roundDiv(1.5, 2)).toThrow(RangeError);
});
