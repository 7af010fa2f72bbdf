// Human review that stays human: "publish all" first sends staff to look at every draft in the lightbox,
// which zooms to 100 % and takes the decisions (publish, reject) by key, one draft after the other.
import { expect, test } from '@playwright/test';
import { open, photoFiles, seedPaidOrder, uniqueEmail } from './helpers.js';

test('publish all waits until staff have seen every draft; the lightbox zooms to 100 % and publishes or rejects by key', async ({ page, request }) => {
  test.setTimeout(60_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  const errors: string[] = [];
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  page.on('pageerror', (error) => errors.push(error.message));
  const order = await seedPaidOrder(request, uniqueEmail('review'));

  await open(page, `/admin/orders/${order.orderId}`);
  await page.getByTestId('login-email').fill('team@example.de');
  await page.getByTestId('login-password').fill('e2e-staff-password-123');
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('status-select')).toBeVisible();
  // Signed in: the session probe before it answered 401, as it should; from here on nothing may fail.
  errors.length = 0;

  await page.getByTestId('result-input').setInputFiles(await photoFiles(3));
  const items = page.getByTestId('result-item');
  const drafts = page.locator('[data-testid="result-item"][data-status="draft"]');
  const active = page.locator('[data-testid="result-item"][data-status="active"]');
  await expect(drafts).toHaveCount(3);
  await expect(page.getByTestId('drafts-seen')).toContainText('0 von 3 Entwürfen in der Großansicht angesehen');
  const [first, second, third] = await Promise.all([0, 1, 2].map((i) => items.nth(i).getAttribute('data-id')));

  // Nothing seen yet: "publish all" publishes nothing and opens the first unseen draft, saying why.
  await page.getByTestId('publish-all').click();
  const lightbox = page.getByTestId('lightbox');
  await expect(lightbox).toBeVisible();
  await expect(lightbox.getByTestId('lightbox-notice')).toContainText('Bitte erst alle Entwürfe ansehen: 1 von 3 angesehen');
  await expect(lightbox.getByTestId('lightbox-position')).toHaveText('(1 von 3)');
  await expect(lightbox.getByTestId('lightbox-status')).toHaveText('Entwurf');
  await expect(active).toHaveCount(0);
  await expect(drafts).toHaveCount(3);

  // 100 %, by key: one image pixel per CSS pixel, taller than the screen, so the stage scrolls (and the arrows move it).
  const image = lightbox.locator('img.admin-lightbox__image');
  const stage = lightbox.getByTestId('lightbox-stage');
  const sizes = () => image.evaluate((img: HTMLImageElement) => ({ rendered: img.getBoundingClientRect().width, natural: img.naturalWidth }));
  await page.keyboard.press('z');
  await expect(lightbox).toHaveAttribute('data-zoom', 'actual');
  await expect(lightbox.getByTestId('lightbox-zoom')).toHaveText('Einpassen');
  await expect.poll(async () => (await sizes()).natural).toBeGreaterThan(1000);
  const actual = await sizes();
  expect(Math.abs(actual.rendered - actual.natural)).toBeLessThan(0.5);
  expect(await stage.evaluate((box) => box.scrollHeight > box.clientHeight)).toBe(true);
  await page.screenshot({ path: 'test-results/admin-lightbox-100.png' });
  const top = await stage.evaluate((box) => box.scrollTop);
  await page.keyboard.press('ArrowDown');
  await expect.poll(() => stage.evaluate((box) => box.scrollTop)).toBeGreaterThan(top);
  await page.keyboard.press('ArrowRight');
  // Panning did not change the picture.
  await expect(lightbox.getByTestId('lightbox-position')).toHaveText('(1 von 3)');

  // Back to fit, by the button: the whole picture, smaller than its pixels.
  await lightbox.getByTestId('lightbox-zoom').click();
  await expect(lightbox).toHaveAttribute('data-zoom', 'fit');
  await expect(lightbox.getByTestId('lightbox-zoom')).toHaveText('100 %');
  const fitted = await sizes();
  expect(fitted.rendered).toBeLessThan(fitted.natural);
  const box = await image.boundingBox();
  expect(box!.y + box!.height).toBeLessThanOrEqual(900);
  await page.screenshot({ path: 'test-results/admin-lightbox-fit.png' });

  // Publish by key: this draft is published, and the lightbox moves on to the next draft.
  await page.keyboard.press('v');
  await expect(page.locator(`[data-testid="result-item"][data-id="${first}"]`)).toHaveAttribute('data-status', 'active');
  await expect(lightbox.getByTestId('lightbox-message')).toContainText('veröffentlicht');
  await expect(lightbox.getByTestId('lightbox-position')).toHaveText('(2 von 3)');
  await expect(lightbox.getByTestId('lightbox-status')).toHaveText('Entwurf');
  await expect(lightbox.getByTestId('lightbox-notice')).toContainText('1 von 2 angesehen');
  expect(await lightbox.getAttribute('aria-label')).toBe(await items.nth(1).locator('.admin-image__name').textContent());

  // Reject by key: asked first (Enter answers), then the draft is gone and the last one is on show.
  await page.keyboard.press('x');
  await expect(lightbox.getByTestId('lightbox-reject-confirm')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.locator(`[data-testid="result-item"][data-id="${second}"]`)).toHaveCount(0);
  await expect(lightbox.getByTestId('lightbox-position')).toHaveText('(2 von 2)');
  await expect(lightbox.getByTestId('lightbox-message')).toContainText('abgelehnt');
  await expect(lightbox.getByTestId('lightbox-notice')).toContainText('Der Entwurf ist angesehen');

  // Every draft seen: closing the lightbox brings the question "publish all" was about; no, then yes.
  await page.keyboard.press('Escape');
  await expect(lightbox).toHaveCount(0);
  await expect(page.getByRole('alertdialog')).toContainText('1 Entwurf veröffentlichen?');
  await expect(page.getByTestId('cancel-publish-all')).toBeFocused();
  await page.getByRole('alertdialog').scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/admin-publish-all-confirm.png' });
  await page.getByTestId('cancel-publish-all').click();
  await expect(page.getByTestId('confirm-publish-all')).toHaveCount(0);
  await expect(page.locator(`[data-testid="result-item"][data-id="${third}"]`)).toHaveAttribute('data-status', 'draft');
  await page.getByTestId('publish-all').click();
  await page.getByTestId('confirm-publish-all').click();
  await expect(page.locator(`[data-testid="result-item"][data-id="${third}"]`)).toHaveAttribute('data-status', 'active');
  await expect(active).toHaveCount(2);
  await expect(page.getByTestId('publish-all')).toHaveCount(0);
  expect(errors).toEqual([]);
});
