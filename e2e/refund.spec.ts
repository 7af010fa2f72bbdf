import { expect, test } from '@playwright/test';
import { open, outbox, seedPaidOrder, uniqueEmail } from './helpers.js';

test('a withdrawal reaches the dashboard; staff refund from the order, and only the provider answer makes it count', async ({ page, request }) => {
  const email = uniqueEmail('refund');
  const order = await seedPaidOrder(request, email);
  const withdrawal = await request.post('/api/withdrawals', {
    headers: { 'x-forwarded-for': '203.0.113.89' },
    data: { name: 'Max Beispiel', reference: order.orderNumber, email, language: 'de' },
  });
  expect(withdrawal.status()).toBe(201);

  await open(page, '/admin');
  await page.getByTestId('login-email').fill('team@example.de');
  await page.getByTestId('login-password').fill('e2e-staff-password-123');
  await page.getByTestId('login-submit').click();
  await page.getByRole('link', { name: 'Dashboard' }).click();
  const item = page.getByTestId('withdrawal').filter({ hasText: 'Max Beispiel' });
  await expect(item).toContainText('Widerruf – erstatten');
  await page.screenshot({ path: 'test-results/admin-withdrawals.png', fullPage: true });
  await item.getByRole('link', { name: order.orderNumber }).click();

  const card = page.getByTestId('refund-card');
  await expect(card).toContainText(/Rechnung RE-\d{4}-\d{6}/);
  await page.getByTestId('refund-reason').fill('Widerruf');
  await page.getByTestId('refund-submit').click();
  // Asked for, not yet refunded: nothing changes until the provider answers.
  await expect(page.getByTestId('refund')).toHaveAttribute('data-status', 'requested');
  await expect(page.getByTestId('refunded-total')).toHaveText('0,00 €');
  await expect(page.getByText('Zahlung: Bezahlt')).toBeVisible();
  await page.screenshot({ path: 'test-results/admin-refund-requested.png', fullPage: true });

  await page.getByTestId('sandbox-refund-succeeded').click();
  await expect(page.getByTestId('refund')).toHaveAttribute('data-status', 'succeeded');
  await expect(page.getByTestId('refunded-total')).not.toHaveText('0,00 €');
  await expect(page.getByText('Zahlung: Erstattet')).toBeVisible();
  await expect(card).toContainText(/Stornorechnung RE-\d{4}-\d{6}/);
  await expect(page.getByTestId('refund-submit')).toHaveCount(0);

  // The customer: the mail, and both invoices on tracking.
  await expect.poll(async () => (await outbox(request, email)).map((m) => m.template)).toContain('refund-confirmed');
  const customer = await page.context().browser()!.newPage();
  await open(customer, `/tracking?order_id=${order.orderId}&email=${encodeURIComponent(email)}`);
  await expect(customer.getByTestId('invoice-download')).toHaveCount(2);
  await expect(customer.getByTestId('invoices')).toContainText('Stornorechnung');
  await customer.close();
});
