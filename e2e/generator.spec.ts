// A pro order in generator mode, end to end: the customer's photos (one man, three photos), payment, the
// generator (a stand-in of a Cog container's HTTP API answering with other real photos of him) makes ten
// pictures, each checked against his face and delivered as three drafts; staff see each draft's identity
// distance and publish one; the customer sees only that one.
import { readFileSync } from 'node:fs';
import { expect, request as newRequest, test } from '@playwright/test';
import sharp from 'sharp';
import { GENERATOR_BASE_URL, uniqueEmail } from './helpers.js';

const FRAMES = ['03979', '04117', '02683'];

test('a pro order in generator mode ends with checked drafts in three formats for staff; the customer sees only what staff publish', async ({ browser }) => {
  test.setTimeout(180_000);
  const api = await newRequest.newContext({ baseURL: GENERATOR_BASE_URL });
  const email = uniqueEmail('generator');
  // The generator is the default way here, so the outfit can be booked.
  const selection = { gender: 'male', style: 'professional', package: 'pro', location: 'office', outfit: 'business', extras: [] };
  const draft = await (await api.post('/api/orders', { data: { language: 'de', selection, photoConsent: true, photoConsentVersion: '2026-11-01' } })).json();
  for (const frame of FRAMES) {
    const buffer = await sharp(readFileSync(`test/fixtures/faces/franck_${frame}.jpg`)).resize(1280, 1024).jpeg({ quality: 90 }).toBuffer();
    const upload = await api.post(`/api/orders/${draft.orderId}/uploads`, { headers: { 'x-draft-token': draft.draftToken }, multipart: { file: { name: `selfie-${frame}.jpg`, mimeType: 'image/jpeg', buffer } } });
    // This shop checks every photo in its job runner (UPLOAD_INLINE_CHECKS=0): taken now, accepted soon.
    expect(upload.status(), await upload.text()).toBe(202);
    const { id } = await upload.json();
    await expect
      .poll(async () => (await (await api.get(`/api/orders/${draft.orderId}/uploads/${id}`, { headers: { 'x-draft-token': draft.draftToken } })).json()).state, { timeout: 30_000 })
      .toBe('accepted');
  }
  const checkout = await api.post(`/api/orders/${draft.orderId}/checkout`, {
    headers: { 'x-draft-token': draft.draftToken },
    data: { language: 'de', selection, email, waiverAccepted: true, waiverTextVersion: '2026-11-01' },
  });
  expect(checkout.status(), await checkout.text()).toBe(200);
  const pay = await api.post(`/sandbox/checkout/${(await checkout.json()).sessionId}/pay`, { form: {}, maxRedirects: 0 });
  expect(pay.status()).toBe(303);

  const page = await browser.newPage({ baseURL: GENERATOR_BASE_URL });
  const errors: string[] = [];
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  await page.goto(`/admin/orders/${draft.orderId}`);
  await page.locator('html[data-hydrated="true"]').waitFor();
  await page.getByTestId('login-email').fill('team@example.de');
  await page.getByTestId('login-password').fill('e2e-staff-password-123');
  await page.getByTestId('login-submit').click();
  const panel = page.getByTestId('studio-panel');
  await expect(panel.getByTestId('mode-generator')).toBeChecked();
  // Signed in: the session probe before it answered 401, as it should; from here on nothing may fail.
  errors.length = 0;
  // The job the payment started runs to its end: ten pictures, each one checked, three drafts each.
  await expect(panel.getByTestId('studio-job').first()).toHaveAttribute('data-status', 'done', { timeout: 150_000 });
  const drafts = page.locator('[data-testid="result-item"][data-status="draft"]');
  await expect(drafts).toHaveCount(30, { timeout: 15_000 });
  for (const format of ['4:5', '1:1', '35 × 45 mm']) await expect(drafts.filter({ hasText: `E2E Model Host · ${format} ·` })).toHaveCount(10);
  await expect(drafts.first()).toContainText('Identität 0,');
  await expect(drafts.first()).toContainText('Outfit: ');
  await drafts.first().scrollIntoViewIfNeeded();
  // The pictures themselves, loaded (they load lazily as they come into view).
  for (let i = 0; i < 5; i++) await expect.poll(() => drafts.nth(i).locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  await page.screenshot({ path: 'test-results/admin-generator.png' });

  await drafts.first().getByTestId('publish').click();
  await expect(page.locator('[data-testid="result-item"][data-status="active"]')).toHaveCount(1);

  const customer = await browser.newPage({ baseURL: GENERATOR_BASE_URL });
  await customer.goto(`/tracking?order_id=${draft.orderId}&email=${encodeURIComponent(email)}`);
  // A link with the order and the address looks the order up once the page's script and its form checks have
  // loaded (in one CI run on a machine busy with other tests' studio jobs, 4.4 s until the lookup's answer).
  await expect(customer.getByTestId('status-banner')).toBeVisible({ timeout: 15_000 });
  await expect(customer.getByTestId('download-one')).toHaveCount(1);
  await customer.close();
  expect(errors).toEqual([]);
  await page.close();
  await api.dispose();
});
