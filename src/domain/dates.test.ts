import { expect, test } from 'vitest';
import { formatDate, formatShortDateTime, formatTime } from './dates.js';

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
  // Before 1996 (summer time then ended in September): Intl's work.
  moments.push(Date.UTC(1990, 8, 30, 0, 30), Date.UTC(1995, 8, 24, 0, 59), Date.UTC(1970, 0, 1));
  expect(moments.length).toBeGreaterThan(80_000);
  for (const t of moments) {
    const date = new Date(t);
    for (const f of formats) {
      // Compared whole rather than with expect() per value, which would make the test slow.
      const ours = [formatDate(date, f.language), formatTime(date, f.language), formatShortDateTime(date, f.language)];
      const theirs = [f.date.format(date), f.time.format(date), f.dateTime.format(date)];
      if (ours.join('|') !== theirs.join('|')) expect({ at: date.toISOString(), language: f.language, ours }).toEqual({ at: date.toISOString(), language: f.language, ours: theirs });
    }
  }
  expect(formatShortDateTime('2026-09-05T07:05:00.000Z', 'de')).toBe('05.09.2026, 09:05');
  expect(formatShortDateTime('2026-09-05T07:05:00.000Z', 'en')).toBe('5 Sept 2026, 09:05');
  expect(formatShortDateTime('2026-09-05T07:05:00.000Z', 'es')).toBe('5 sept 2026, 9:05');
  expect(formatTime('2026-03-29T01:00:00.000Z', 'de')).toBe('03:00');
  // A string as the API sends it, and one that is no date.
  expect(formatDate('2026-03-29T00:59:59.000Z', 'es')).toBe('29 de marzo de 2026');
  expect(() => formatDate('no date', 'de')).toThrow(RangeError);
});
