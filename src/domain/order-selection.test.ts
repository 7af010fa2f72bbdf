import { expect, test } from 'vitest';
import { EMPTY_SELECTION, checkoutSchema, completeSelection, deliverableSelection, WAIVER_TEXT_VERSION, type Selection } from './order-selection.js';

const GENERATOR = { newOutfits: true };
const STUDIO = { newOutfits: false };

test('every step must be answered, refinement only for pro and premium', () => {
  expect(completeSelection(EMPTY_SELECTION, GENERATOR)).toEqual({ ok: false, code: 'genderRequired' });
  expect(completeSelection({ ...EMPTY_SELECTION, gender: 'female' }, GENERATOR)).toEqual({ ok: false, code: 'styleRequired' });
  expect(completeSelection({ ...EMPTY_SELECTION, gender: 'female', style: 'casual' }, GENERATOR)).toEqual({ ok: false, code: 'packageRequired' });
  expect(completeSelection({ ...EMPTY_SELECTION, gender: 'female', style: 'casual', package: 'pro', location: 'office' }, GENERATOR)).toEqual({
    ok: false,
    code: 'refinementRequired',
  });
  const basic = completeSelection({ gender: 'male', style: 'professional', package: 'basic', location: 'office', outfit: 'casual', extras: [] }, GENERATOR);
  expect(basic).toEqual({ ok: true, value: { gender: 'male', style: 'professional', package: 'basic', location: null, outfit: null, extras: [] } });
});

test('without a generator refinement is the backdrop alone, and an outfit or an office is refused: nobody could make it', () => {
  const pro: Selection = { gender: 'female', style: 'casual', package: 'pro', location: 'studio', outfit: null, extras: [] };
  expect(completeSelection({ ...pro, location: 'office' }, STUDIO)).toEqual({ ok: false, code: 'locationNotOffered' });
  expect(completeSelection({ ...pro, location: 'office', outfit: 'casual' }, GENERATOR)).toMatchObject({ ok: true });
  expect(deliverableSelection({ ...pro, location: 'office' }, STUDIO).location).toBeNull();
  expect(deliverableSelection({ ...pro, location: 'office' }, GENERATOR).location).toBe('office');
  expect(completeSelection(pro, STUDIO)).toEqual({ ok: true, value: { ...pro, extras: [] } });
  expect(completeSelection({ ...pro, location: null }, STUDIO)).toEqual({ ok: false, code: 'refinementRequired' });
  expect(completeSelection({ ...pro, outfit: 'business' }, STUDIO)).toEqual({ ok: false, code: 'outfitNotOffered' });
  expect(completeSelection({ ...pro, package: 'basic', location: null, outfit: 'casual' }, STUDIO)).toEqual({ ok: false, code: 'outfitNotOffered' });
  expect(completeSelection({ ...pro, outfit: 'business' }, GENERATOR)).toEqual({ ok: true, value: { ...pro, outfit: 'business', extras: [] } });
  // A draft saved by a tab from before loses the outfit instead of failing the wizard's background save.
  expect(deliverableSelection({ ...pro, outfit: 'business' }, STUDIO).outfit).toBeNull();
  expect(deliverableSelection({ ...pro, outfit: 'business' }, GENERATOR).outfit).toBe('business');
});

test('express is not offered with premium', () => {
  expect(
    completeSelection({ gender: 'diverse', style: 'creative', package: 'premium', location: 'studio', outfit: 'business', extras: ['express_delivery'] }, GENERATOR),
  ).toEqual({ ok: false, code: 'extraNotOffered' });
});

test('checkout needs the ticked waiver of the current version and a valid e-mail; unknown keys such as prices are refused', () => {
  const valid = {
    language: 'de',
    selection: { gender: 'male', style: 'professional', package: 'basic', location: null, outfit: null, extras: [] },
    email: ' Kunde@Example.de ',
    waiverAccepted: true,
    waiverTextVersion: WAIVER_TEXT_VERSION,
  };
  expect(checkoutSchema.parse(valid).email).toBe('kunde@example.de');
  expect(checkoutSchema.safeParse({ ...valid, waiverAccepted: false }).error?.issues[0]?.message).toBe('waiverRequired');
  expect(checkoutSchema.safeParse({ ...valid, waiverTextVersion: '2020-01-01' }).error?.issues[0]?.message).toBe('waiverOutdated');
  expect(checkoutSchema.safeParse({ ...valid, totalCents: 1 }).success).toBe(false);
});

test('billing details are optional, trimmed, limited and free of control characters', () => {
  const base = { language: 'de', selection: { gender: 'male', style: 'casual', package: 'basic', location: null, outfit: null, extras: [] }, email: 'a@b.de', waiverAccepted: true, waiverTextVersion: WAIVER_TEXT_VERSION };
  expect(checkoutSchema.parse(base)).toMatchObject({ billingName: null, billingAddress: null });
  expect(checkoutSchema.parse({ ...base, billingName: '  Erika  ', billingAddress: 'Weg 1\n10115 Berlin' })).toMatchObject({ billingName: 'Erika', billingAddress: 'Weg 1\n10115 Berlin' });
  expect(checkoutSchema.safeParse({ ...base, billingName: 'x'.repeat(121) }).error?.issues[0]?.message).toBe('inputTooLong');
  expect(checkoutSchema.safeParse({ ...base, billingName: 'Erika\u0007' }).error?.issues[0]?.message).toBe('invalidText');
  // Every name the invoice font prints is welcome; what it cannot print is refused with its own message.
  for (const name of ['Łukasz Żółć', 'Ayşe Yılmaz', 'Ζωή Παπαδοπούλου', 'Ольга Иванова', 'Марʼяна', 'Nguyễn Văn Anh', "O'Brien-Müller & Co. (GbR) – №1 · 5 €", 'c/ Mayor, 1º B', 'José Nu\u0303n\u0303ez', '„Straße“ 5, 2. OG', '«Calle» ’7’']) {
    expect(checkoutSchema.safeParse({ ...base, billingName: name }).success, name).toBe(true);
  }
  // Pasted invisible characters and odd spaces are cleaned, not refused.
  expect(checkoutSchema.parse({ ...base, billingName: 'Erika\u202FMuster\u200Bmann\u00A0' }).billingName).toBe('Erika Mustermann');
  for (const name of ['李小龍', 'Erika 😀', 'ｆｕｌｌ', 'שָׁלוֹם', 'a\u0591b']) {
    expect(checkoutSchema.safeParse({ ...base, billingName: name }).error?.issues[0]?.message, name).toBe('billingCharacters');
  }
});
