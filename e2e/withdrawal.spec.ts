import { devices, expect, test } from '@playwright/test';
import { CONSENT_BASE_URL, open, outbox, seedPaidOrder, uniqueEmail } from './helpers.js';

// The "Vertrag widerrufen" function (§ 356a BGB) must work without login on a phone.
test.use({ viewport: devices['Pixel 7'].viewport, isMobile: true, hasTouch: true });

test('at phone width: from the footer to the form, a clear error, then the receipt on screen and by mail', async ({ page, request }) => {
  // Its own address, so the form's rate limit is this journey's alone.
  await page.setExtraHTTPHeaders({ 'x-forwarded-for': '203.0.113.88' });
  const email = uniqueEmail('withdraw');
  const order = await seedPaidOrder(request, email);
  await open(page, '/');
  await page.getByRole('contentinfo').getByRole('link', { name: 'Vertrag widerrufen' }).click();
  await page.waitForURL('**/widerruf');
  await page.locator('html[data-hydrated="true"]').waitFor();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Vertrag widerrufen');

  // Nothing fits sideways on a phone.
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);

  await page.getByTestId('withdrawal-name').fill('Erika Mustermann');
  await page.getByTestId('withdrawal-reference').fill(order.orderNumber.toLowerCase());
  await page.getByTestId('withdrawal-email').fill('not-an-address');
  await page.getByTestId('withdrawal-submit').click();
  await expect(page.getByText('Bitte geben Sie eine gültige E-Mail-Adresse ein.')).toBeVisible();
  await expect(page.getByTestId('withdrawal-email')).toHaveAttribute('aria-invalid', 'true');

  await page.getByTestId('withdrawal-email').fill(email.toUpperCase());
  await page.getByTestId('withdrawal-submit').click();
  const receipt = page.getByTestId('withdrawal-receipt');
  await expect(receipt).toBeVisible();
  await expect(receipt.getByRole('heading', { level: 1 })).toHaveText('Ihr Widerruf ist eingegangen');
  await expect(receipt).toContainText(/Eingegangen am \d{1,2}\. \S+ \d{4} um \d{2}:\d{2} Uhr\./);
  await expect(receipt).toContainText('erstatten Ihnen die Zahlung');

  // The receipt by mail, with date and time; staff were told as well.
  await expect.poll(async () => (await outbox(request, email)).map((m) => m.template)).toContain('withdrawal-receipt');
  const mail = (await outbox(request, email)).find((m) => m.template === 'withdrawal-receipt')!;
  expect(mail.text).toContain(order.orderNumber);
  expect(mail.text).toMatch(/\d{2}:\d{2}/);

  // The order's history shows it on the status page, which links the function too.
  await open(page, `/tracking?order_id=${order.orderId}&email=${encodeURIComponent(email)}`);
  await page.getByTestId('to-status-page').click();
  await expect(page.getByTestId('history')).toContainText('Widerruf');
  await expect(page.getByTestId('status-withdrawal')).toHaveAttribute('href', `/widerruf?order=${order.orderNumber}`);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the form still works: the server answers with the error (what was typed kept), then with the receipt', async ({ page, request }) => {
    await page.setExtraHTTPHeaders({ 'x-forwarded-for': '203.0.113.89' });
    const email = uniqueEmail('withdraw-noscript');
    const order = await seedPaidOrder(request, email);
    // As the status page links it: the order number filled in.
    await page.goto(`/widerruf?order=${order.orderNumber}`);
    await expect(page.getByTestId('withdrawal-reference')).toHaveValue(order.orderNumber);
    await page.getByTestId('withdrawal-name').fill('Erika Mustermann');
    await page.getByTestId('withdrawal-submit').click();
    await expect(page.getByText('Bitte geben Sie eine gültige E-Mail-Adresse ein.')).toBeVisible();
    await expect(page.getByTestId('withdrawal-name')).toHaveValue('Erika Mustermann');
    // The answer opens on the field in error.
    await expect(page.getByTestId('withdrawal-email')).toBeFocused();

    await page.getByTestId('withdrawal-email').fill(email);
    await page.getByTestId('withdrawal-submit').click();
    const receipt = page.getByTestId('withdrawal-receipt');
    await expect(receipt.getByRole('heading', { level: 1 })).toHaveText('Ihr Widerruf ist eingegangen');
    await expect(receipt).toContainText(/Eingegangen am \d{1,2}\. \S+ \d{4} um \d{2}:\d{2} Uhr\./);
    await expect.poll(async () => (await outbox(request, email)).map((m) => m.template)).toContain('withdrawal-receipt');
    await page.screenshot({ path: 'test-results/withdrawal-noscript-receipt.png', fullPage: true });
  });
});

test.describe('where the shop runs its application on the page (a service needing consent is configured)', () => {
  test.use({ baseURL: CONSENT_BASE_URL });

  test('the form is sent by script: the error without leaving the page, then the receipt', async ({ page }) => {
    await page.setExtraHTTPHeaders({ 'x-forwarded-for': '203.0.113.90' });
    const posts: string[] = [];
    page.on('request', (request) => {
      const path = new URL(request.url()).pathname;
      if (request.method() === 'POST' && /withdrawal|widerruf/.test(path)) posts.push(path);
    });
    await open(page, '/widerruf');
    await page.getByTestId('consent-reject').click();
    await page.getByTestId('withdrawal-name').fill('Erika Mustermann');
    await page.getByTestId('withdrawal-reference').fill('BF-2026-999999');
    await page.getByTestId('withdrawal-email').fill('not-an-address');
    await page.getByTestId('withdrawal-submit').click();
    // Checked in the browser: nothing sent yet.
    await expect(page.getByText('Bitte geben Sie eine gültige E-Mail-Adresse ein.')).toBeVisible();
    expect(posts).toEqual([]);

    await page.getByTestId('withdrawal-email').fill(uniqueEmail('withdraw-app'));
    await page.getByTestId('withdrawal-submit').click();
    await expect(page.getByTestId('withdrawal-receipt').getByRole('heading', { level: 1 })).toHaveText('Ihr Widerruf ist eingegangen');
    expect(posts).toEqual(['/api/withdrawals']);
  });
});
