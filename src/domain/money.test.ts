import { expect, test } from 'vitest';
import { formatDate, formatMoney, percentOf, roundDiv } from './money.js';

test('money is formatted the German way', () => {
  expect(formatMoney(3490)).toBe('34,90\u00a0€');
  expect(formatMoney(123456)).toBe('1.234,56\u00a0€');
  expect(formatMoney(0)).toBe('0,00\u00a0€');
});

test('rounding is half up on whole cents', () => {
  expect(roundDiv(5, 2)).toBe(3);
  expect(roundDiv(4, 3)).toBe(1);
  expect(percentOf(3490, 20)).toBe(698);
  expect(percentOf(1, 50)).toBe(1);
  expect(() => roundDiv(1.5, 2)).toThrow(RangeError);
});

test('dates are shown in the shop time zone', () => {
  // One millisecond before midnight in Berlin is still the 31st there, while UTC says the 31st too.
  expect(formatDate('2026-12-31T22:59:59.999Z', 'de')).toBe('31. Dezember 2026');
  expect(formatDate('2026-12-31T23:00:00.000Z', 'de')).toBe('1. Januar 2027');
  expect(formatDate('2026-12-31T22:00:00.000Z', 'en')).toBe('31 December 2026');
  expect(formatDate('2026-12-31T22:00:00.000Z', 'es')).toBe('31 de diciembre de 2026');
});
