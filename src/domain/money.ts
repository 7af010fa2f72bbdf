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

let euro: Intl.NumberFormat | undefined;

/**
 * Formats cents for display. The spec shows prices in German format ("34,90 €") in every
 * language: one way of writing a price across the shop, its e-mails and invoices.
 *
 * Whole cents are written out here (German grouping, decimal comma, a no-break space before the sign), exactly as
 * `Intl.NumberFormat('de-DE', { style: 'currency', currency: 'EUR' })` writes them (money.test.ts compares the two
 * over a wide range). A browser's first Intl number or date format loads the locale's data: 20–45 ms on the main
 * thread of every page the app runs on, for one price format. Anything else (fractions of a cent) goes to Intl.
 */
export function formatMoney(cents: number): string {
  if (!Number.isSafeInteger(cents)) return (euro ??= new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'EUR' })).format(cents / 100);
  const amount = Math.abs(cents);
  const euros = String(Math.floor(amount / 100)).replace(/\B(?=(\d{3})+$)/g, '.');
  return `${cents < 0 ? '-' : ''}${euros},${String(amount % 100).padStart(2, '0')}\u00a0€`;
}

export function localeFor(language: Language): string {
  return LOCALES[language];
}
