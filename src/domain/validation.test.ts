import { expect, test } from 'vitest';
import { orderNumberFromBytes, isOrderNumber } from './order-number.js';
import { contactFormSchema, emailSchema, fieldErrors, trackingFormSchema } from './validation.js';

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
