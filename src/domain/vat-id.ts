// VAT identification numbers of business buyers (team orders, issue 17). What we promise is "VAT ID checked
// for format": the member state's prefix and the structure the EU's VIES documents for it, plus the German
// check digit. We do not ask VIES whether the number is registered; the buyer answers for its own number.

export type VatIdCheck = { ok: true; vatId: string; country: string } | { ok: false; code: 'vatIdInvalid' };

/**
 * The structure after the prefix, per VIES "VAT number structure": 9 a digit, X a letter or a digit, L a
 * letter. Greece is EL in VIES (not its ISO code GR); XI is Northern Ireland, which takes the United
 * Kingdom's formats (9 or 12 digits, GD or HA + 3 digits).
 */
const FORMATS: Readonly<Record<string, RegExp>> = {
  AT: /^U\d{8}$/,
  // The first digit is 0 or 1 (1 since numbers starting with 0 ran out).
  BE: /^[01]\d{9}$/,
  BG: /^\d{9,10}$/,
  CY: /^\d{8}[A-Z]$/,
  CZ: /^\d{8,10}$/,
  DE: /^\d{9}$/,
  DK: /^\d{8}$/,
  EE: /^\d{9}$/,
  EL: /^\d{9}$/,
  // First and last may each be a letter or a digit, but not both digits.
  ES: /^(?:[A-Z]\d{7}[A-Z0-9]|\d{8}[A-Z])$/,
  FI: /^\d{8}$/,
  FR: /^[A-Z0-9]{2}\d{9}$/,
  HR: /^\d{11}$/,
  HU: /^\d{8}$/,
  // 9S99999L (S: a letter, a digit, "+" or "*") or, since 2013, 7 digits and two letters.
  IE: /^(?:\d[A-Z0-9+*]\d{5}[A-Z]|\d{7}[A-Z]{2})$/,
  IT: /^\d{11}$/,
  LT: /^(?:\d{9}|\d{12})$/,
  LU: /^\d{8}$/,
  LV: /^\d{11}$/,
  MT: /^\d{8}$/,
  NL: /^\d{9}B\d{2}$/,
  PL: /^\d{10}$/,
  PT: /^\d{9}$/,
  RO: /^\d{2,10}$/,
  SE: /^\d{10}01$/,
  SI: /^\d{8}$/,
  SK: /^\d{10}$/,
  XI: /^(?:\d{9}|\d{12}|GD\d{3}|HA\d{3})$/,
};

/** Member states of the EU by their VIES prefix (XI is not one: Northern Ireland is part of the UK). */
const EU_MEMBER_STATES: ReadonlySet<string> = new Set(Object.keys(FORMATS).filter((prefix) => prefix !== 'XI'));

/** The shop's own member state: a buyer here pays German VAT like anyone else. */
const HOME_STATE = 'DE';

/** Upper case, without the spaces, dots and dashes people write numbers with ("de 123.456.789" → "DE123456789"). */
export function normalizeVatId(raw: string): string {
  return raw.toUpperCase().replace(/[\s.-]/g, '');
}

/**
 * ISO 7064 MOD 11,10, the check digit of the German USt-IdNr. (its 9th digit): the running value starts at
 * 10; for each of the first 8 digits, (digit + value) mod 10 (0 counts as 10), doubled, mod 11; the check
 * digit makes 11 minus the result (10 counts as 0).
 */
export function germanCheckDigitOk(digits: string): boolean {
  if (!/^\d{9}$/.test(digits)) return false;
  let product = 10;
  for (const char of digits.slice(0, 8)) {
    const sum = (Number(char) + product) % 10 || 10;
    product = (2 * sum) % 11;
  }
  const check = (11 - product) % 10;
  return check === Number(digits[8]);
}

/** VAT ID checked for format (see the top of this file): its prefix and VIES structure, for DE also the check digit. */
export function checkVatId(raw: string): VatIdCheck {
  const vatId = normalizeVatId(raw);
  const country = vatId.slice(0, 2);
  const format = Object.hasOwn(FORMATS, country) ? FORMATS[country] : undefined;
  const national = vatId.slice(2);
  if (!format?.test(national)) return { ok: false, code: 'vatIdInvalid' };
  if (country === 'DE' && !germanCheckDigitOk(national)) return { ok: false, code: 'vatIdInvalid' };
  return { ok: true, vatId, country };
}

/**
 * How VAT applies to a business buyer: with a VAT ID of another EU member state the buyer owes the tax
 * (reverse charge, Art. 196 MwStSystRL / § 13b UStG); with a German one or none we charge German VAT.
 * A Northern Irish (XI) number counts for goods only, not for services such as ours, so it gives the
 * standard treatment too. Give it a VAT ID that passed checkVatId (a malformed one is treated as none).
 */
export function vatTreatmentFor(vatId: string | null): 'standard' | 'reverse_charge' {
  if (vatId === null) return 'standard';
  const checked = checkVatId(vatId);
  if (!checked.ok) return 'standard';
  return EU_MEMBER_STATES.has(checked.country) && checked.country !== HOME_STATE ? 'reverse_charge' : 'standard';
}
