import { expect, test } from '@playwright/test';
import { open, seedPaidOrder, uniqueEmail } from './helpers.js';

test('staff switch a paid order to the studio, watch the drafts being made, regenerate one, publish and reject', async ({ page, request }) => {
  test.setTimeout(60_000);
  const email = uniqueEmail('studio');
  const order = await seedPaidOrder(request, email);

  await open(page, `/admin/orders/${order.orderId}`);
  await page.getByTestId('login-email').fill('team@example.de');
  await page.getByTestId('login-password').fill('e2e-staff-password-123');
  await page.getByTestId('login-submit').click();
  const panel = page.getByTestId('studio-panel');
  await expect(panel.getByTestId('mode-manual')).toBeChecked();

  await panel.getByTestId('mode-studio').click();
  await expect(panel.getByTestId('mode-studio')).toBeChecked();
  // The job appears, runs, and its drafts arrive in the images section without a reload.
  await expect(panel.getByTestId('studio-job').first()).toBeVisible();
  await expect(panel.getByTestId('studio-job').first()).toHaveAttribute('data-status', 'done', { timeout: 30_000 });
  await expect(panel.getByTestId('studio-job').first()).toContainText('3 von 3 Bildern');
  const drafts = page.locator('[data-testid="result-item"][data-status="draft"]');
  await expect(drafts).toHaveCount(3);
  await expect(drafts.first()).toContainText('Studio · 4:5 · Studio 1');
  await expect(page.getByTestId('original-quality').first()).toContainText('gut geeignet');
  await page.screenshot({ path: 'test-results/admin-studio.png', fullPage: true });

  // One draft again: it is taken down and a new one is made for its slot, by a new job.
  const jobs = panel.getByTestId('studio-job');
  const jobsBefore = await jobs.count();
  const replaced = await drafts.nth(1).getAttribute('data-id');
  await drafts.nth(1).getByTestId('regenerate').click();
  await expect(jobs).toHaveCount(jobsBefore + 1);
  await expect(jobs.first()).toHaveAttribute('data-status', 'done', { timeout: 30_000 });
  await expect(page.locator(`[data-testid="result-item"][data-id="${replaced}"]`)).toHaveCount(0);
  await expect(drafts).toHaveCount(3);

  // Publish two, reject one.
  await drafts.first().getByTestId('publish').click();
  await expect(page.locator('[data-testid="result-item"][data-status="active"]')).toHaveCount(1);
  await drafts.first().getByTestId('publish').click();
  await expect(page.locator('[data-testid="result-item"][data-status="active"]')).toHaveCount(2);
  await drafts.first().getByTestId('delete').click();
  await page.getByTestId('confirm-delete').click();
  await expect(drafts).toHaveCount(0);

  // The customer sees the two published pictures only.
  const customer = await page.context().browser()!.newPage();
  await open(customer, `/tracking?order_id=${order.orderId}&email=${encodeURIComponent(email)}`);
  await expect(customer.getByTestId('status-banner')).toHaveAttribute('data-status', 'in_progress');
  await expect(customer.getByTestId('download-one')).toHaveCount(2);
  await customer.close();
});
