import { expect, test } from 'vitest';
import { orderNumberFromBytes, isOrderNumber } from './order-number.js';
import { checkoutSchema, WAIVER_TEXT_VERSION } from './order-selection.js';
import {
  contactFormSchema,
  cutText,
  emailSchema,
  fieldErrors,
  isPlainText,
  multilineText,
  plainText,
  revisionRequestSchema,
  trackingFormSchema,
  withdrawalFormSchema,
} from './validation.js';

function trackingError(input: unknown): string | undefined {
  const result = trackingFormSchema.safeParse(input);
  return result.success ? undefined : result.error.issues[0]?.message;
}

test('tracking form: both fields required, then shape and length', () => {
  expect(trackingError({ orderId: '', email: 'a@b.de' })).toBe('required');
  expect(trackingError({ orderId: '  ', email: '' })).toBe('required');
  expect(trackingError({ orderId: 'abc', email: 'a@b.de' })).toBe('invalidOrderId');
  expect(trackingError({ orderId: '6f1c2a9e-3b4d-4c5e-8f70-123456789abc', email: 'nope' })).toBe('invalidEmail');
  expect(trackingError({ orderId: '6f1c2a9e-3b4d-4c5e-8f70-123456789abc0', email: 'a@b.de' })).toBe('inputTooLong');
  expect(trackingError({ orderId: '6f1c2a9e-3b4d-4c5e-8f70-123456789abc', email: `${'a'.repeat(250)}@b.de` })).toBe('inputTooLong');
  expect(trackingError({ orderId: '6f1c2a9e-3b4d-0c5e-8f70-123456789abc', email: 'a@b.de' })).toBe('invalidOrderId');
});

test('tracking accepts the short order number too', () => {
  expect(trackingFormSchema.parse({ orderId: ' bf-7k3m9q2x ', email: 'a@b.de' })).toEqual({ orderId: 'BF-7K3M9Q2X', email: 'a@b.de' });
  expect(trackingError({ orderId: 'BF-123', email: 'a@b.de' })).toBe('invalidOrderId');
});

test('tracking form trims and lower-cases the e-mail', () => {
  const parsed = trackingFormSchema.parse({ orderId: ' 6F1C2A9E-3B4D-4C5E-8F70-123456789ABC ', email: '  Max@Example.DE ' });
  expect(parsed).toEqual({ orderId: '6f1c2a9e-3b4d-4c5e-8f70-123456789abc', email: 'max@example.de' });
});

test('tracking form rejects unknown keys', () => {
  expect(trackingFormSchema.safeParse({ orderId: '6f1c2a9e-3b4d-4c5e-8f70-123456789abc', email: 'a@b.de', admin: true }).success).toBe(false);
});

test('e-mail schema', () => {
  expect(emailSchema.parse(' A@B.DE ')).toBe('a@b.de');
  expect(emailSchema.safeParse('a@b').success).toBe(false);
  expect(emailSchema.safeParse('a b@c.de').success).toBe(false);
});

function contactErrors(input: Record<string, unknown>): Record<string, string> {
  const result = contactFormSchema.safeParse(input);
  return result.success ? {} : fieldErrors(result.error);
}

test('contact form: per-field error codes of the spec', () => {
  expect(contactErrors({ name: '', email: '', message: '' })).toEqual({
    name: 'nameRequired',
    email: 'emailRequired',
    message: 'messageRequired',
  });
  expect(contactErrors({ name: 'A', email: 'x@y', message: 'too short' })).toEqual({
    name: 'nameTooShort',
    email: 'emailInvalid',
    message: 'messageTooShort',
  });
  expect(contactErrors({ name: 'A'.repeat(101), email: 'x@y.de', message: 'Hallo, ich habe eine Frage.' })).toEqual({ name: 'nameTooLong' });
});

test('contact form cuts input at 2000 characters before checking', () => {
  const parsed = contactFormSchema.parse({ name: 'Max', email: 'max@example.de', message: 'x'.repeat(2500) });
  expect(parsed.message).toHaveLength(2000);
});

test('contact form refuses suspicious content', () => {
  for (const message of [
    'Hallo <script>alert(1)</script>',
    'see javascript:alert(1) here',
    '<img src=x onerror=alert(1)>',
    'please eval(something) now',
    'document.cookie is nice',
    'window.location please',
  ]) {
    expect(contactErrors({ name: 'Max', email: 'max@example.de', message })).toEqual({ message: 'suspiciousContent' });
  }
  expect(contactErrors({ name: 'Max', email: 'max@example.de', message: 'Ein ganz normales Anliegen zu meiner Bestellung.' })).toEqual({});
});

test('order numbers are short, readable and recognised', () => {
  const number = orderNumberFromBytes(new Uint8Array([0, 1, 2, 3, 4, 5, 6, 7]));
  expect(number).toBe('BF-23456789');
  expect(isOrderNumber(number)).toBe(true);
  expect(isOrderNumber(' bf-23456789 ')).toBe(true);
  expect(isOrderNumber('BF-0000000O')).toBe(false);
});

/** Every Unicode control character (Cc): C0, DEL, C1. */
const CONTROL_CHARACTERS = [...Array.from({ length: 0x20 }, (_, i) => i), ...Array.from({ length: 0x21 }, (_, i) => 0x7f + i)].map((code) => String.fromCharCode(code));

test('the text rule: no control character on one line, only the line feed on several', () => {
  expect(CONTROL_CHARACTERS).toHaveLength(65);
  for (const char of CONTROL_CHARACTERS) {
    const hex = char.charCodeAt(0).toString(16);
    expect(isPlainText(`Max${char}Muster`), hex).toBe(false);
    expect(isPlainText(`Max${char}Muster`, { multiline: true }), hex).toBe(char === '\n');
  }
  // Neighbours of the control ranges are ordinary characters.
  for (const text of [' ', '~', '\u00A0', 'Ä', '\u00FF']) expect(isPlainText(text), text).toBe(true);
});

test('the text rule: lone surrogates are refused, real characters of every script are not', () => {
  for (const text of ['\uD800', 'a\uDFFF', 'Max \uD83D', '\uDE00x']) expect(isPlainText(text), JSON.stringify(text)).toBe(false);
  for (const text of ['😀', '👩‍👩‍👧‍👦', '李小龍', 'שָׁלוֹם', '\u202Eevil', 'e\u0301', "'; DROP TABLE orders; --", '<script>alert(1)</script>']) {
    expect(isPlainText(text), text).toBe(true);
  }
});

test('plainText answers a control character with invalidText alone, before length and shape', () => {
  const schema = plainText({ error: 'nameRequired' }).trim().min(2, { error: 'nameTooShort' }).max(5, { error: 'nameTooLong' });
  expect(schema.safeParse('\u0000').error?.issues.map((issue) => issue.message)).toEqual(['invalidText']);
  expect(schema.safeParse(`${'x'.repeat(50)}\u0007`).error?.issues.map((issue) => issue.message)).toEqual(['invalidText']);
  expect(schema.safeParse(42).error?.issues.map((issue) => issue.message)).toEqual(['nameRequired']);
  expect(schema.parse('  Max ')).toBe('Max');
  expect(schema.safeParse('Max\nMuster').error?.issues[0]?.message).toBe('invalidText');
});

test('multilineText keeps line breaks as \\n and refuses every other control character', () => {
  const schema = multilineText();
  expect(schema.parse('eins\r\nzwei\rdrei\nvier')).toBe('eins\nzwei\ndrei\nvier');
  expect(schema.safeParse('eins\tzwei').error?.issues[0]?.message).toBe('invalidText');
  expect(schema.safeParse('eins\u0000').error?.issues[0]?.message).toBe('invalidText');
  expect(schema.safeParse('eins\u2028zwei').success).toBe(true);
});

test('every form refuses control characters in every field with invalidText', () => {
  const nul = '\u0000';
  expect(emailSchema.safeParse(`max${nul}@example.de`).error?.issues[0]?.message).toBe('invalidText');
  expect(emailSchema.safeParse(`max\u0085@example.de`).error?.issues[0]?.message).toBe('invalidText');
  expect(fieldErrors(trackingFormSchema.safeParse({ orderId: 'BF-23456789', email: `max${nul}@example.de` }).error!)).toEqual({ email: 'invalidText' });
  expect(fieldErrors(trackingFormSchema.safeParse({ orderId: `BF-2345${nul}6789`, email: 'max@example.de' }).error!)).toEqual({ orderId: 'invalidText' });
  const contact = { name: 'Max Muster', email: 'max@example.de', message: 'Eine Frage zu meiner Bestellung.' };
  for (const field of ['name', 'email', 'message'] as const) {
    expect(contactErrors({ ...contact, [field]: `${contact[field]}${nul}x` }), field).toEqual({ [field]: 'invalidText' });
  }
  expect(contactErrors({ ...contact, name: 'Max\nMuster' })).toEqual({ name: 'invalidText' });
  expect(contactFormSchema.parse({ ...contact, message: 'Zeile eins\r\nZeile zwei' }).message).toBe('Zeile eins\nZeile zwei');
  const withdrawal = { name: 'Max Muster', reference: 'BF-23456789', email: 'max@example.de' };
  for (const field of ['name', 'reference', 'email'] as const) {
    expect(fieldErrors(withdrawalFormSchema.safeParse({ ...withdrawal, [field]: `${withdrawal[field]}\u001b[31m` }).error!), field).toEqual({ [field]: 'invalidText' });
  }
  const picture = '3f2b8a9e-1c4d-4e5f-8a6b-7c8d9e0f1a2b';
  expect(revisionRequestSchema.safeParse({ imageIds: [picture], message: `Bitte heller machen${nul}` }).error?.issues[0]?.message).toBe('invalidText');
  expect(revisionRequestSchema.parse({ imageIds: [picture], message: 'Bitte heller\r\nund wärmer' }).message).toBe('Bitte heller\nund wärmer');
  // A redo names at least one picture, each once; the reason may be left out.
  expect(revisionRequestSchema.parse({ imageIds: [picture] }).message).toBe('');
  expect(revisionRequestSchema.safeParse({ imageIds: [] }).error?.issues[0]?.message).toBe('picturesRequired');
  expect(revisionRequestSchema.safeParse({ imageIds: [picture, picture] }).error?.issues[0]?.message).toBe('picturesRequired');
  expect(revisionRequestSchema.safeParse({ imageIds: ['nope'] }).error?.issues[0]?.message).toBe('picturesRequired');
  expect(revisionRequestSchema.safeParse({ imageIds: [picture], message: 'x'.repeat(2001) }).error?.issues[0]?.message).toBe('messageTooLong');
});

test('billing: a line break only in the address, where \\r\\n becomes \\n', () => {
  const base = { language: 'de', selection: { gender: 'male', style: 'casual', package: 'basic', location: null, outfit: null, extras: [] }, email: 'a@b.de', waiverAccepted: true, waiverTextVersion: WAIVER_TEXT_VERSION };
  expect(checkoutSchema.safeParse({ ...base, billingName: 'Erika\nMuster' }).error?.issues[0]?.message).toBe('invalidText');
  expect(checkoutSchema.parse({ ...base, billingAddress: 'Weg 1\r\n10115 Berlin' }).billingAddress).toBe('Weg 1\n10115 Berlin');
  expect(checkoutSchema.safeParse({ ...base, billingAddress: 'Weg 1\u0000' }).error?.issues[0]?.message).toBe('invalidText');
  expect(checkoutSchema.safeParse({ ...base, email: 'a\u0000@b.de' }).error?.issues[0]?.message).toBe('invalidText');
});

test('cutting a text never leaves half of a surrogate pair', () => {
  expect(cutText('ab😀', 3)).toBe('ab');
  expect(cutText('ab😀', 4)).toBe('ab😀');
  expect(cutText('abc', 2)).toBe('ab');
  // The contact form cuts at 2000 characters: an emoji across the cut is dropped whole, not refused as broken text.
  const message = `${'x'.repeat(1999)}😀 und mehr`;
  expect(contactFormSchema.parse({ name: 'Max', email: 'max@example.de', message }).message).toBe('x'.repeat(1999));
});
