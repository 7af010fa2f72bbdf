// Dates and times as customers, mails and invoices show them: in the shop's time zone, in the customer's language.
import type { Language } from './catalog.js';
import { localeFor } from './money.js';

/** Dates are shown in the shop's time zone so server and browser render the same text. */
export const SHOP_TIME_ZONE = 'Europe/Berlin';

/** One formatter per language and use, made on first use (a formatter costs far more to make than to use). */
const dateFormats = new Map<string, Intl.DateTimeFormat>();
function dateFormat(locale: string, use: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale} ${use}`;
  let format = dateFormats.get(key);
  if (!format) dateFormats.set(key, (format = new Intl.DateTimeFormat(locale, { timeZone: SHOP_TIME_ZONE, ...options })));
  return format;
}

// Dates for customers are written out here as formatMoney writes prices, and for the same reason: a browser's
// first Intl date format loads the locale's data and the time zone's (20–50 ms on the main thread of a fresh
// page, such as the tracking page opened from a mail). The text is exactly what Intl writes for the shop's
// locales in Europe/Berlin (dates.test.ts compares the two hour by hour over decades and at every change of
// the clocks), so the server, the mails and every browser write the same, whatever ICU each one has. Before
// 1996, when Germany's summer time ended in September, Intl writes the date.
const MONTHS: Record<Language, readonly string[]> = {
  de: ['Januar', 'Februar', 'März', 'April', 'Mai', 'Juni', 'Juli', 'August', 'September', 'Oktober', 'November', 'Dezember'],
  en: ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'],
  es: ['enero', 'febrero', 'marzo', 'abril', 'mayo', 'junio', 'julio', 'agosto', 'septiembre', 'octubre', 'noviembre', 'diciembre'],
};
/** The short month names of en-GB and es-ES (de-DE writes a medium date in digits). */
const SHORT_MONTHS: Record<'en' | 'es', readonly string[]> = {
  en: ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sept', 'Oct', 'Nov', 'Dec'],
  es: ['ene', 'feb', 'mar', 'abr', 'may', 'jun', 'jul', 'ago', 'sept', 'oct', 'nov', 'dic'],
};
const HOUR_MS = 3_600_000;
/** The EU's summer time rule, Germany's since 1996: from 01:00 UTC on the last Sunday of March to the last of October. */
const SUMMER_TIME_FROM_YEAR = 1996;

/** 01:00 UTC on the last Sunday of a month (0-based) of a year. */
function lastSundayOneUtc(year: number, month: number): number {
  const lastDay = Date.UTC(year, month + 1, 0);
  return lastDay - new Date(lastDay).getUTCDay() * 24 * HOUR_MS + HOUR_MS;
}

interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

/** The date and time on a clock in Germany, or null before 1996 (Intl's work then). Throws as Intl does for an invalid date. */
function berlinClock(date: Date | string): WallClock | null {
  const time = new Date(date).getTime();
  if (Number.isNaN(time)) throw new RangeError('Invalid time value');
  const year = new Date(time).getUTCFullYear();
  if (year < SUMMER_TIME_FROM_YEAR) return null;
  const summer = time >= lastSundayOneUtc(year, 2) && time < lastSundayOneUtc(year, 9);
  const local = new Date(time + (summer ? 2 : 1) * HOUR_MS);
  return { year: local.getUTCFullYear(), month: local.getUTCMonth(), day: local.getUTCDate(), hour: local.getUTCHours(), minute: local.getUTCMinutes() };
}

const twoDigits = (n: number) => String(n).padStart(2, '0');

/** The long date in the shop's time zone ("28. November 2026", "28 November 2026", "28 de noviembre de 2026"). */
export function formatDate(date: Date | string, language: Language): string {
  const c = berlinClock(date);
  if (!c) return dateFormat(localeFor(language), 'date', { day: 'numeric', month: 'long', year: 'numeric' }).format(new Date(date));
  const month = MONTHS[language][c.month];
  if (language === 'de') return `${c.day}. ${month} ${c.year}`;
  if (language === 'es') return `${c.day} de ${month} de ${c.year}`;
  return `${c.day} ${month} ${c.year}`;
}

/** Hours and minutes in the shop's time zone ("14:05"). */
export function formatTime(date: Date | string, language: Language): string {
  const c = berlinClock(date);
  if (!c) return dateFormat(localeFor(language), 'time', { hour: '2-digit', minute: '2-digit' }).format(new Date(date));
  return `${twoDigits(c.hour)}:${twoDigits(c.minute)}`;
}

/** A medium date with a short time in the shop's time zone ("28.11.2026, 09:05", "28 Nov 2026, 09:05", "28 nov 2026, 9:05"). */
export function formatShortDateTime(date: Date | string, language: Language): string {
  const c = berlinClock(date);
  if (!c) return dateFormat(localeFor(language), 'date-time', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(date));
  if (language === 'de') return `${twoDigits(c.day)}.${twoDigits(c.month + 1)}.${c.year}, ${twoDigits(c.hour)}:${twoDigits(c.minute)}`;
  if (language === 'es') return `${c.day} ${SHORT_MONTHS.es[c.month]} ${c.year}, ${c.hour}:${twoDigits(c.minute)}`;
  return `${c.day} ${SHORT_MONTHS.en[c.month]} ${c.year}, ${twoDigits(c.hour)}:${twoDigits(c.minute)}`;
}

/** The calendar day in Germany (YYYY-MM-DD), where the shop, its staff and its tax office are. */
export function berlinDay(at: Date): string {
  return dateFormat('en-CA', 'day', { year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
}
