import { expect, test } from 'vitest';
import { assertValidCheckoutInput, toProviderAmount, type CreateCheckoutInput } from './provider.js';

function input(overrides: Partial<CreateCheckoutInput> = {}): CreateCheckoutInput {
  return {
    orderId: '3f1c9a52-8a0e-4c55-9d7e-2f3b5a1c0d11',
    orderNumber: 'BF-23456789',
    email: 'kunde@example.test',
    language: 'de',
    lineItems: [
      { name: 'Pro-Paket', amountCents: 2792, quantity: 1 },
      { name: 'Express', amountCents: 500, quantity: 2 },
    ],
    totalCents: 3792,
    successUrl: 'https://shop.test/checkout/success?session_id={CHECKOUT_SESSION_ID}',
    cancelUrl: 'https://shop.test/checkout/cancel',
    idempotencyKey: 'checkout-1',
    ...overrides,
  };
}

test('cents go to Stripe unchanged: EUR is charged in minor units', () => {
  expect(toProviderAmount(2792)).toBe(2792);
  expect(toProviderAmount(0)).toBe(0);
  expect(toProviderAmount(1)).toBe(1);
});

test('a fractional, negative or non-finite amount never reaches a payment', () => {
  expect(() => toProviderAmount(27.92)).toThrow(RangeError);
  expect(() => toProviderAmount(-1)).toThrow(RangeError);
  expect(() => toProviderAmount(Number.NaN)).toThrow(RangeError);
  expect(() => toProviderAmount(Number.POSITIVE_INFINITY)).toThrow(RangeError);
  expect(() => toProviderAmount(2 ** 60)).toThrow(RangeError);
});

test('checkout input is accepted when the line items add up to the total', () => {
  expect(() => assertValidCheckoutInput(input())).not.toThrow();
});

test('checkout input whose line items do not add up to the total is refused', () => {
  expect(() => assertValidCheckoutInput(input({ totalCents: 3791 }))).toThrow(/add up to 3792/);
  expect(() => assertValidCheckoutInput(input({ lineItems: [] }))).toThrow(RangeError);
  expect(() => assertValidCheckoutInput(input({ lineItems: [{ name: 'Pro', amountCents: 3792, quantity: 0 }] }))).toThrow(/quantity/);
  expect(() => assertValidCheckoutInput(input({ lineItems: [{ name: 'Pro', amountCents: 37.92, quantity: 100 }] }))).toThrow(RangeError);
});

test('a success URL without the session placeholder is refused', () => {
  expect(() => assertValidCheckoutInput(input({ successUrl: 'https://shop.test/checkout/success' }))).toThrow(/CHECKOUT_SESSION_ID/);
});
