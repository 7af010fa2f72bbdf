// What checkForm answers a form's send handler: the parsed values, each field's first error code (under the
// names the pages show them by), or that the checks could not load; and that zod loads only when it is asked.
import { afterEach, expect, test, vi } from 'vitest';

// Each test takes a fresh form-checks.ts (its loaded schemas are kept in the module) and fresh schemas.
async function fresh() {
  vi.resetModules();
  return import('./form-checks.js');
}

afterEach(() => {
  vi.doUnmock('./form-schemas.js');
  vi.doUnmock('zod');
});

test('valid values come back parsed by the picked schema', async () => {
  const { checkForm } = await fresh();
  const checked = await checkForm((schemas) => schemas.withdrawalFormSchema, { name: ' Erika Muster ', reference: 'BF-TEST0001', email: ' Erika@Example.DE ' });
  expect(checked).toEqual({ status: 'valid', data: { name: 'Erika Muster', reference: 'BF-TEST0001', email: 'erika@example.de' } });
});

test('invalid values give the first error code of each field, keyed by field', async () => {
  const { checkForm } = await fresh();
  const checked = await checkForm((schemas) => schemas.withdrawalFormSchema, { name: '   ', reference: 'BF-TEST0001', email: 'not-an-address' });
  expect(checked).toEqual({ status: 'invalid', fields: { name: 'nameRequired', email: 'emailInvalid' } });
  // A field with two problems shows the first: too long, before it is not an address.
  const long = await checkForm((schemas) => schemas.withdrawalFormSchema, { name: 'Erika', reference: 'BF-TEST0001', email: 'x'.repeat(400) });
  expect(long).toEqual({ status: 'invalid', fields: { email: 'inputTooLong' } });
});

test('a problem of the value as a whole stands under _form', async () => {
  const { checkForm } = await fresh();
  expect(await checkForm((schemas) => schemas.emailSchema, '  ')).toEqual({ status: 'invalid', fields: { _form: 'emailRequired' } });
  expect(await checkForm((schemas) => schemas.emailSchema, 'kein-at')).toEqual({ status: 'invalid', fields: { _form: 'invalidEmail' } });
  // The tracking form's "both are required" rule has no field of its own.
  expect(await checkForm((schemas) => schemas.trackingFormSchema, { orderId: '', email: 'a@example.de' })).toMatchObject({ status: 'invalid', fields: { _form: 'required' } });
});

test('a list keys its errors by the index of the entry in error (the team invite)', async () => {
  const { checkForm } = await fresh();
  const checked = await checkForm((schemas) => schemas.emailSchema.array(), ['a@example.de', 'b@', 'c@example.de', '']);
  expect(checked).toEqual({ status: 'invalid', fields: { 1: 'invalidEmail', 3: 'emailRequired' } });
});

test("the order summary's fields give each field the code its own schema gives first", async () => {
  const { checkForm } = await fresh();
  const { emailSchema } = await import('../../domain/validation.js');
  const { billingFields } = await import('../../domain/order-selection.js');
  const values = { email: 'x@', billingName: 'Muster GmbH\u{1F600}', billingAddress: 'Hauptstr. 1\n12345 Berlin' };
  const checked = await checkForm((schemas) => schemas.summaryFieldsSchema, values);
  expect(checked).toEqual({ status: 'invalid', fields: { email: 'invalidEmail', billingName: 'billingCharacters' } });
  // As the page checked them before, one schema each.
  expect(emailSchema.safeParse(values.email).error?.issues[0]?.message).toBe('invalidEmail');
  expect(billingFields.billingName.safeParse(values.billingName).error?.issues[0]?.message).toBe('billingCharacters');
  expect(billingFields.billingAddress.safeParse(values.billingAddress).success).toBe(true);
  expect(await checkForm((schemas) => schemas.summaryFieldsSchema, { email: 'x@example.de', billingName: '', billingAddress: '' })).toEqual({
    status: 'valid',
    data: { email: 'x@example.de', billingName: null, billingAddress: null },
  });
});

test('checks that cannot load are unavailable, not invalid, and are tried again on the next send', async () => {
  vi.doMock('./form-schemas.js', () => {
    throw new Error('offline');
  });
  const { checkForm } = await fresh();
  const pick = vi.fn((schemas: typeof import('./form-schemas.js')) => schemas.emailSchema);
  expect(await checkForm(pick, 'a@example.de')).toEqual({ status: 'unavailable' });
  expect(pick).not.toHaveBeenCalled();

  vi.doUnmock('./form-schemas.js');
  expect(await checkForm(pick, 'a@example.de')).toEqual({ status: 'valid', data: 'a@example.de' });
  expect(pick).toHaveBeenCalledTimes(1);
});

test('zod loads with the first check, not with the module (e2e/first-load.spec.ts)', async () => {
  let zodLoaded = false;
  vi.doMock('zod', async (importOriginal) => {
    zodLoaded = true;
    return importOriginal();
  });
  const { checkForm } = await fresh();
  expect(zodLoaded).toBe(false);
  await checkForm((schemas) => schemas.emailSchema, 'a@example.de');
  expect(zodLoaded).toBe(true);
});
