// A busy shop checks photos in its job runner (UPLOAD_INLINE_CHECKS=0 on the generator shop of
// playwright.config.ts: every photo waits for it): the wizard shows each photo as "being checked", asks for
// the verdict, shows the accepted ones with their quality and a refused one with its reason and the crop,
// and lets the customer go on only once every photo has its verdict.
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { GENERATOR_BASE_URL, open, photoFiles } from './helpers.js';

test.use({ baseURL: GENERATOR_BASE_URL, viewport: { width: 390, height: 844 }, hasTouch: true });

test('photos checked by the job runner: shown as being checked, then accepted or refused with the crop offered', async ({ page }) => {
  const errors: string[] = [];
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  page.on('pageerror', (error) => errors.push(error.message));
  await open(page, '/order/upload');
  await page.getByTestId('photo-consent').check();
  const group = { name: 'party.jpg', mimeType: 'image/jpeg', buffer: readFileSync('test/fixtures/faces/sample2.jpg') };
  const own = (await photoFiles(3)).map((file, i) => ({ name: `selfie-${i + 1}.jpg`, mimeType: 'image/jpeg', buffer: readFileSync(file) }));
  await page.getByTestId('file-input').setInputFiles([...own, group]);

  // Sent and waiting: each shows that it is being checked, and the step cannot be left yet.
  await expect(page.getByTestId('upload-checking').first()).toBeVisible();
  await expect(page.getByRole('progressbar', { name: /wird geprüft$/ }).first()).toBeVisible();
  await expect(page.getByTestId('next')).toHaveClass(/button--muted/);
  await page.getByTestId('next').click();
  await expect(page.getByTestId('checking-notice')).toContainText('Ihre Fotos werden noch geprüft.');
  expect(page.url()).toContain('/order/upload');
  await page.screenshot({ path: 'test-results/photo-checks-waiting.png', fullPage: true });

  // The verdicts: the three photos of one person accepted with the gate's verdict, the group photo refused
  // with its reason, and the crop offered as for a photo refused at once.
  await expect(page.getByTestId('upload-thumb')).toHaveCount(3, { timeout: 45_000 });
  await expect(page.getByTestId('upload-counter')).toContainText('3/10');
  const refused = page.getByTestId('upload-error');
  await expect(refused).toContainText('Auf diesem Foto sind mehrere Personen zu sehen.', { timeout: 45_000 });
  await expect(refused.getByRole('button', { name: 'party.jpg zuschneiden' })).toBeVisible();
  await expect(page.getByTestId('upload-checking')).toHaveCount(0);
  await expect(page.getByTestId('checking-notice')).toHaveCount(0);
  for (const verdict of await page.getByTestId('upload-thumb').evaluateAll((items) => items.map((item) => item.getAttribute('data-quality')))) {
    expect(['ok', 'warning']).toContain(verdict);
  }
  await page.screenshot({ path: 'test-results/photo-checks-done.png', fullPage: true });

  // Dismissed, the refused photo is gone for good: after a reload only the three accepted photos come back.
  await refused.getByRole('button', { name: 'Ausblenden' }).click();
  await expect(page.getByTestId('upload-error')).toHaveCount(0);
  await expect(page.getByTestId('next')).not.toHaveClass(/button--muted/);
  await page.reload();
  await page.locator('html[data-hydrated="true"]').waitFor();
  await expect(page.getByTestId('upload-thumb')).toHaveCount(3);
  await expect(page.getByTestId('upload-error')).toHaveCount(0);
  expect(errors).toEqual([]);
});
