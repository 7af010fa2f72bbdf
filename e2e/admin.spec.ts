import { expect, test } from '@playwright/test';
import { open, outbox, photoFiles, seedPaidOrder, uniqueEmail } from './helpers.js';

test('staff sign in, work a paid order from the dashboard to completion, and the customer sees the results', async ({ page, request }) => {
  const email = uniqueEmail('staff-flow');
  const order = await seedPaidOrder(request, email);

  await open(page, '/admin/orders');
  await expect(page.getByRole('heading', { name: 'Admin Login' })).toBeVisible();
  await page.getByTestId('login-email').fill('team@example.de');
  await page.getByTestId('login-password').fill('falsches-passwort');
  await page.getByTestId('login-submit').click();
  await expect(page.getByText('Falsches Passwort')).toBeVisible();
  await page.getByTestId('login-password').fill('e2e-staff-password-123');
  await page.getByTestId('login-submit').click();

  await page.getByRole('link', { name: 'Dashboard' }).click();
  await expect(page.getByTestId('waiting-order').first()).toBeVisible();
  await page.screenshot({ path: 'test-results/admin-dashboard.png', fullPage: true });
  const waiting = page.locator(`[data-testid="waiting-order"]`, { hasText: order.orderNumber });
  await expect(waiting).toBeVisible();
  await waiting.click();
  await expect(page.getByText(order.orderNumber).first()).toBeVisible();

  await page.getByTestId('status-select').selectOption('in_progress');
  await expect(page.getByTestId('status-select')).toHaveValue('in_progress');

  await page.getByTestId('result-input').setInputFiles(await photoFiles(3));
  await expect(page.getByTestId('result-item')).toHaveCount(3);
  for (let i = 0; i < 3; i++) await page.getByTestId('publish').first().click();
  await expect(page.locator('[data-testid="result-item"][data-status="active"]')).toHaveCount(3);

  await page.getByTestId('status-select').selectOption('completed');
  await expect(page.getByTestId('status-select')).toHaveValue('completed');
  await page.screenshot({ path: 'test-results/admin-detail.png', fullPage: true });

  // The customer: tracking shows the published results, and the ready mail is in the outbox.
  const customer = await page.context().browser()!.newPage();
  await open(customer, `/tracking?order_id=${order.orderId}&email=${encodeURIComponent(email)}`);
  await expect(customer.getByTestId('status-banner')).toHaveAttribute('data-status', 'completed');
  await expect(customer.getByTestId('download-one')).toHaveCount(3);
  await customer.close();
  const mails = await outbox(request, email);
  expect(mails.map((m) => m.template)).toContain('photos-ready');
});
