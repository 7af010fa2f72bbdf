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

/**
 * Formats cents for display. German format is used for every language's euro amounts
 * in the shop ("34,90 €") except where the language has its own convention.
 */
export function formatMoney(cents: number, language: Language = 'de'): string {
  return new Intl.NumberFormat(LOCALES[language], { style: 'currency', currency: 'EUR' }).format(cents / 100);
}

export function localeFor(language: Language): string {
  return LOCALES[language];
}
