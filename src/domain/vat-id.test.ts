import { expect, test } from 'vitest';
import { checkVatId, germanCheckDigitOk, normalizeVatId, vatTreatmentFor } from './vat-id.js';

test('normalising takes out spaces, dots and dashes and upper-cases', () => {
  expect(normalizeVatId(' de 136.695-976 ')).toBe('DE136695976');
  expect(normalizeVatId('atu\t1234 5678')).toBe('ATU12345678');
  expect(normalizeVatId('nl123456789b01')).toBe('NL123456789B01');
});

test('numbers in each member state format pass, with the prefix as country', () => {
  for (const [raw, country] of [
    ['ATU12345678', 'AT'],
    ['BE0123456789', 'BE'],
    ['BE1123456789', 'BE'],
    ['BG123456789', 'BG'],
    ['BG1234567890', 'BG'],
    ['CY12345678L', 'CY'],
    ['CZ12345678', 'CZ'],
    ['CZ1234567890', 'CZ'],
    ['DK12345678', 'DK'],
    ['EE123456789', 'EE'],
    ['EL123456789', 'EL'],
    ['ESA1234567B', 'ES'],
    ['ESX12345678', 'ES'],
    ['ES12345678Z', 'ES'],
    ['FI12345678', 'FI'],
    ['FRXX123456789', 'FR'],
    ['FR12123456789', 'FR'],
    ['HR12345678901', 'HR'],
    ['HU12345678', 'HU'],
    ['IE1234567T', 'IE'],
    ['IE1Z23456T', 'IE'],
    ['IE1+23456T', 'IE'],
    ['IE1234567FA', 'IE'],
    ['IT12345678901', 'IT'],
    ['LT123456789', 'LT'],
    ['LT123456789012', 'LT'],
    ['LU12345678', 'LU'],
    ['LV12345678901', 'LV'],
    ['MT12345678', 'MT'],
    ['NL123456789B01', 'NL'],
    ['PL1234567890', 'PL'],
    ['PT123456789', 'PT'],
    ['RO12', 'RO'],
    ['RO1234567890', 'RO'],
    ['SE123456789701', 'SE'],
    ['SI12345678', 'SI'],
    ['SK1234567890', 'SK'],
    ['XI123456789', 'XI'],
    ['XIGD123', 'XI'],
  ] as const) {
    expect(checkVatId(raw), raw).toEqual({ ok: true, vatId: raw, country });
  }
});

test('wrong prefixes, lengths and characters are refused', () => {
  for (const raw of [
    '',
    'DE',
    '136695976', // no prefix
    'GR123456789', // Greece is EL in VIES
    'GB123456789', // the United Kingdom left VIES; only XI remains
    'US123456789',
    'AT12345678', // no U
    'ATU1234567',
    'BE2123456789', // starts with 0 or 1
    'BE123456789', // 9 digits: the old form
    'CY123456789', // ends with a letter
    'CZ1234567',
    'DK1234567',
    'EL12345678',
    'ES123456789', // first and last both digits
    'ESA12345678B',
    'FR1234567890',
    'HR1234567890',
    'IE12345678',
    'IE1234567',
    'IT1234567890',
    'LT1234567890',
    'NL123456789C01',
    'NL123456789B1',
    'PL123456789',
    'PT12345678',
    'RO1',
    'RO12345678901',
    'SE123456789702', // ends with 01
    'SK123456789',
    'XI12345678',
    'hasOwnProperty',
    'TOSTRING123',
  ]) {
    expect(checkVatId(raw), raw).toEqual({ ok: false, code: 'vatIdInvalid' });
  }
});

test('a German number needs its ISO 7064 MOD 11,10 check digit', () => {
  // Known published numbers: python-stdnum's example and SAP SE's USt-IdNr.
  expect(germanCheckDigitOk('136695976')).toBe(true);
  expect(germanCheckDigitOk('143454214')).toBe(true);
  expect(checkVatId('DE 136 695 976')).toEqual({ ok: true, vatId: 'DE136695976', country: 'DE' });
  // One digit off, or two swapped: refused.
  expect(checkVatId('DE136695978')).toEqual({ ok: false, code: 'vatIdInvalid' });
  expect(checkVatId('DE136695967')).toEqual({ ok: false, code: 'vatIdInvalid' });
  expect(checkVatId('DE123456789')).toEqual({ ok: false, code: 'vatIdInvalid' });
  expect(checkVatId('DE123456788').ok).toBe(true);
  expect(checkVatId('DE13669597')).toEqual({ ok: false, code: 'vatIdInvalid' });
  // Exactly one check digit fits each 8 digits.
  for (const stem of ['13669597', '00000000', '99999999', '81998879']) {
    const fitting = Array.from({ length: 10 }, (_, d) => `${stem}${d}`).filter(germanCheckDigitOk);
    expect(fitting, stem).toHaveLength(1);
  }
});

test('reverse charge for a VAT ID of another EU member state; German VAT for a German one, none or a Northern Irish one', () => {
  expect(vatTreatmentFor('ATU12345678')).toBe('reverse_charge');
  expect(vatTreatmentFor('EL123456789')).toBe('reverse_charge');
  expect(vatTreatmentFor('NL123456789B01')).toBe('reverse_charge');
  expect(vatTreatmentFor('fr xx 123456789')).toBe('reverse_charge');
  expect(vatTreatmentFor('DE136695976')).toBe('standard');
  expect(vatTreatmentFor(null)).toBe('standard');
  expect(vatTreatmentFor('XI123456789')).toBe('standard');
  // A number that fails the format check never turns the tax off.
  expect(vatTreatmentFor('GR123456789')).toBe('standard');
  expect(vatTreatmentFor('AT12345678')).toBe('standard');
});
