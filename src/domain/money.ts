import type { Language } from './catalog.js';

/** Integer division rounded half away from zero, for non-negative integers. */
export function roundDiv(numerator: number, denominator: number): number {
  if (!Number.isSafeInteger(numerator) || !Number.isSafeInteger(denominator) || denominator <= 0) {
    throw new RangeError('roundDiv expects safe integers and a positive denominator');
  }
  const sign = numerator < 0 ? -1 : 1;
  const n = Math.abs(numerator);
  return sign * Math.floor((2 * n + denominator) / (2 * denominator));
}

/** Percentage of an amount in cents, rounded to the cent. */
export function percentOf(cents: number, percent: number): number {
  return roundDiv(cents * percent, 100);
}

const LOCALES: Record<Language, string> = { de: 'de-DE', en: 'en-GB', es: 'es-ES' };

const EURO = new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'EUR' });

/**
 * Formats cents for display. The spec shows prices in German format ("34,90 €") in every
 * language: one way of writing a price across the shop, its e-mails and invoices.
 */
export function formatMoney(cents: number): string {
  return EURO.format(cents / 100);
}

/** Dates are shown in the shop's time zone so server and browser render the same text. */
export const SHOP_TIME_ZONE = 'Europe/Berlin';

export function formatDate(date: Date | string, language: Language): string {
  return new Intl.DateTimeFormat(LOCALES[language], { timeZone: SHOP_TIME_ZONE, day: 'numeric', month: 'long', year: 'numeric' }).format(
    new Date(date),
  );
}

/** Hours and minutes in the shop's time zone ("14:05"). */
export function formatTime(date: Date | string, language: Language): string {
  return new Intl.DateTimeFormat(LOCALES[language], { timeZone: SHOP_TIME_ZONE, hour: '2-digit', minute: '2-digit' }).format(new Date(date));
}

/** The calendar day in Germany (YYYY-MM-DD), where the shop, its staff and its tax office are. */
export function berlinDay(at: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: SHOP_TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
}

export function localeFor(language: Language): string {
  return LOCALES[language];
}
