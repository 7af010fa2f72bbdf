import { expect, test } from 'vitest';
import { formatDate, formatMoney, formatShortDateTime, formatTime, percentOf, roundDiv } from './money.js';

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

test('dates are shown in the shop time zone', () => {
  // One millisecond before midnight in Berlin is still the 31st there, while UTC says the 31st too.
  expect(formatDate('2026-12-31T22:59:59.999Z', 'de')).toBe('31. Dezember 2026');
  expect(formatDate('2026-12-31T23:00:00.000Z', 'de')).toBe('1. Januar 2027');
  expect(formatDate('2026-12-31T22:00:00.000Z', 'en')).toBe('31 December 2026');
  expect(formatDate('2026-12-31T22:00:00.000Z', 'es')).toBe('31 de diciembre de 2026');
});

test('dates and times are written exactly as Intl writes them in Europe/Berlin, hour by hour and at every change of the clocks', () => {
  const intl = (locale: string, options: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat(locale, { timeZone: 'Europe/Berlin', ...options });
  const languages = [
    ['de', 'de-DE'],
    ['en', 'en-GB'],
    ['es', 'es-ES'],
  ] as const;
  const formats = languages.map(([language, locale]) => ({
    language,
    date: intl(locale, { day: 'numeric', month: 'long', year: 'numeric' }),
    time: intl(locale, { hour: '2-digit', minute: '2-digit' }),
    dateTime: intl(locale, { dateStyle: 'medium', timeStyle: 'short' }),
  }));
  const HOUR = 3_600_000;
  const moments: number[] = [];
  // Every 7 hours and 13 minutes from 1996 to 2060: every hour of the day, every day of the month, over the years.
  for (let t = Date.UTC(1996, 0, 1); t < Date.UTC(2060, 0, 1); t += 7 * HOUR + 13 * 60_000) moments.push(t);
  // Around each change of the clocks (01:00 UTC on the last Sunday of March and of October), to the minute.
  for (let year = 1996; year < 2060; year++) {
    for (const month of [2, 9]) {
      const lastDay = Date.UTC(year, month + 1, 0);
      const change = lastDay - new Date(lastDay).getUTCDay() * 24 * HOUR + HOUR;
      for (let minutes = -61; minutes <= 61; minutes++) moments.push(change + minutes * 60_000);
      moments.push(change - 1, change + 59_999);
    }
  }
  // Before 1996 (summer time then ended in September), and a string as the API sends it.
  moments.push(Date.UTC(1990, 8, 30, 0, 30), Date.UTC(1995, 8, 24, 0, 59), Date.UTC(1970, 0, 1));
  expect(moments.length).toBeGreaterThan(80_000);
  let compared = 0;
  for (const t of moments) {
    const date = new Date(t);
    for (const f of formats) {
      // Compared whole rather than with expect() per value, which would make the test slow.
      const ours = [formatDate(date, f.language), formatTime(date, f.language), formatShortDateTime(date, f.language)];
      const theirs = [f.date.format(date), f.time.format(date), f.dateTime.format(date)];
      if (ours.join('|') !== theirs.join('|')) expect({ at: date.toISOString(), language: f.language, ours }).toEqual({ at: date.toISOString(), language: f.language, ours: theirs });
      compared++;
    }
  }
  expect(compared).toBe(moments.length * 3);
  expect(formatShortDateTime('2026-09-05T07:05:00.000Z', 'de')).toBe('05.09.2026, 09:05');
  expect(formatShortDateTime('2026-09-05T07:05:00.000Z', 'en')).toBe('5 Sept 2026, 09:05');
  expect(formatShortDateTime('2026-09-05T07:05:00.000Z', 'es')).toBe('5 sept 2026, 9:05');
  expect(formatTime('2026-03-29T01:00:00.000Z', 'de')).toBe('03:00');
  expect(() => formatDate('no date', 'de')).toThrow(RangeError);
});
