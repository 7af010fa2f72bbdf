import { expect, test } from '@playwright/test';
import { open, outbox, seedPaidOrder, uniqueEmail } from './helpers.js';

test('tracking a paid order shows the paid banner, step 2 of 4, and leads to the status page with its history', async ({ page, request }) => {
  const email = uniqueEmail('track');
  const order = await seedPaidOrder(request, email);
  await open(page, '/tracking');
  await page.getByTestId('track-order').fill(order.orderNumber.toLowerCase());
  await page.getByTestId('track-email').fill(email.toUpperCase());
  await page.getByTestId('track-submit').click();
  const banner = page.getByTestId('status-banner');
  await expect(banner).toHaveAttribute('data-status', 'paid');
  await expect(banner).toContainText('Bezahlt');
  await expect(banner).toHaveClass(/status-banner--yellow/);
  await expect(page.getByTestId('progress')).toHaveAttribute('data-step', '2');
  await expect(page.getByTestId('features')).toContainText('HD-Auflösung (300 DPI)');
  await expect(page.getByText('Lieferzeit für Ihr Paket: 48 Geschäftsstunden ab Zahlungseingang.')).toBeVisible();

  await page.getByTestId('to-status-page').click();
  await expect(page.getByTestId('order-status')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Bestellung ${order.orderNumber}`);
  await expect(page.getByTestId('history')).toContainText('Zahlung erhalten');
  await expect(page.getByTestId('refresh-status')).toBeEnabled();
});

test('the address prefills the form and searches at once; the status page without proof sends the visitor to tracking', async ({ page, request, browser }) => {
  const email = uniqueEmail('prefill');
  const order = await seedPaidOrder(request, email);
  await open(page, `/tracking?order_id=${order.orderId}&email=${encodeURIComponent(email)}`);
  await expect(page.getByTestId('track-order')).toHaveValue(order.orderId);
  await expect(page.getByTestId('status-banner')).toHaveAttribute('data-status', 'paid');

  // Another browser without the signed link or a tracking lookup.
  const stranger = await browser.newPage();
  await stranger.goto(`/order-status/${order.orderId}`);
  await stranger.waitForURL(`**/tracking?order_id=${order.orderId}`);
  await stranger.close();
});

test('after 5 failed searches the form is locked with "Rate Limited"', async ({ page }) => {
  // This visitor's own address, so the lock does not spill over to the other journeys.
  await page.setExtraHTTPHeaders({ 'x-forwarded-for': '203.0.113.77' });
  await open(page, '/tracking');
  for (let i = 0; i < 5; i++) {
    await page.getByTestId('track-order').fill(`6f1c2a9e-3b4d-4c5e-8f70-${String(100000000000 + i)}`);
    await page.getByTestId('track-email').fill(`nobody${i}@example.de`);
    await page.getByTestId('track-submit').click();
    await expect(page.getByTestId('track-error')).toBeVisible();
  }
  await expect(page.getByTestId('track-submit')).toHaveText('Rate Limited');
  await expect(page.getByTestId('track-submit')).toBeDisabled();
  await expect(page.getByTestId('track-error')).toHaveText('Zu viele Versuche. Bitte warten Sie 15 Minuten.');
  await page.reload();
  await page.locator('html[data-hydrated="true"]').waitFor();
  await expect(page.getByTestId('track-submit')).toHaveText('Rate Limited');
});

test("a paid order's invoice downloads from tracking as a PDF with its number", async ({ page, request }) => {
  const email = uniqueEmail('invoice');
  const order = await seedPaidOrder(request, email);
  await open(page, `/tracking?order_id=${order.orderId}&email=${encodeURIComponent(email)}`);
  await expect(page.getByTestId('status-banner')).toHaveAttribute('data-status', 'paid');
  const link = page.getByTestId('invoice-download');
  await expect(link).toHaveCount(1);
  await expect(link).toContainText(/Rechnung RE-\d{4}-\d{6}/);
  const number = /RE-\d{4}-\d{6}/.exec((await link.textContent()) ?? '')![0];
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  expect(download.suggestedFilename()).toBe(`Rechnung-${number}.pdf`);
  const file = await download.path();
  const bytes = (await import('node:fs')).readFileSync(file);
  expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  expect(bytes.length).toBeGreaterThan(1000);
});

test('a guesser cannot lock the customer out: the order answers neutrally, the link comes by mail; deleting the photos revokes the old links', async ({ page, request }) => {
  const email = uniqueEmail('guarded');
  const order = await seedPaidOrder(request, email);
  const paymentMail = (await outbox(request, email)).find((mail) => mail.template === 'payment-confirmed')!;
  const oldLink = /http:\/\/[^\s]+\/order-status\/[0-9a-f-]{36}\?token=[\w.-]+/.exec(paymentMail.text)![0];
  // Five wrong guesses at the e-mail, each from another address.
  for (let i = 0; i < 5; i++) {
    const guess = await request.post('/api/tracking', { headers: { 'x-forwarded-for': `198.51.100.${40 + i}` }, data: { orderId: order.orderNumber, email: `guess${i}@example.de` } });
    expect(guess.status()).toBe(404);
  }

  // The customer, from their own address: no lockout, no order shown, the link is on its way.
  await page.setExtraHTTPHeaders({ 'x-forwarded-for': '198.51.100.60' });
  await open(page, '/tracking');
  await page.getByTestId('track-order').fill(order.orderNumber);
  await page.getByTestId('track-email').fill(email);
  await page.getByTestId('track-submit').click();
  await expect(page.getByTestId('track-link-sent')).toContainText('haben wir Ihnen soeben einen Link');
  await expect(page.getByTestId('track-result')).toHaveCount(0);
  await expect(page.getByTestId('track-submit')).toBeEnabled();
  // The mail goes out right after the answer.
  await expect.poll(async () => (await outbox(request, email)).some((mail) => mail.template === 'tracking-link')).toBe(true);
  const linkMail = (await outbox(request, email)).find((mail) => mail.template === 'tracking-link')!;
  expect(linkMail.subject).toContain(order.orderNumber);
  const mailedLink = /http:\/\/[^\s]+\/order-status\/[0-9a-f-]{36}\?token=[\w.-]+/.exec(linkMail.text)![0];

  await page.goto(new URL(mailedLink).pathname + new URL(mailedLink).search);
  await page.locator('html[data-hydrated="true"]').waitFor();
  await expect(page.getByTestId('order-status')).toBeVisible();
  await page.getByTestId('delete-photos').click();
  await page.getByTestId('confirm-delete').click();
  await expect(page.getByTestId('deleted-note')).toBeVisible();
  // The page keeps working with the link it got back; a reload too.
  await page.reload();
  await page.locator('html[data-hydrated="true"]').waitFor();
  await expect(page.getByTestId('deleted-note')).toBeVisible();

  // The payment mail's link was revoked by the deletion: tracking says why.
  await page.goto(new URL(oldLink).pathname + new URL(oldLink).search);
  await page.waitForURL(`**/tracking?order_id=${order.orderId}&link=expired`);
  await expect(page.getByTestId('track-link-expired')).toContainText('abgelaufen oder gilt nicht mehr');
});
