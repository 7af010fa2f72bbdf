import { expect, test } from '@playwright/test';
import { PUBLIC_PAGES } from '../src/web/routes.js';
import { open } from './helpers.js';

test('home shows the packages with list and campaign prices', async ({ page }) => {
  await open(page, '/');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Professionelle Bewerbungsfotos aus Ihren eigenen Selfies');
  await expect(page.getByTestId('price-basic')).toHaveText('14,90 €');
  await expect(page.getByTestId('price-pro')).toHaveText('27,92 €');
  await expect(page.getByTestId('list-price-pro')).toContainText('34,90 €');
  await expect(page.getByTestId('price-premium')).toHaveText('55,92 €');
  await expect(page.getByTestId('list-price-premium')).toContainText('69,90 €');
  await expect(page.getByTestId('list-price-basic')).toHaveCount(0);
  await expect(page.getByTestId('campaign-banner')).toContainText('20 % Rabatt auf Pro und Premium');
  await expect(page.getByTestId('price-card-pro')).toContainText('Beliebt');
});

test('switching to English changes the texts and survives a reload', async ({ page }) => {
  await open(page, '/');
  // Wait for hydration: the language button reacts only once React runs.
  await page.getByTestId('language-button').click();
  await page.getByRole('button', { name: /English/ }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Professional application photos from your own selfies');
  await expect(page.getByTestId('language-button')).toHaveText('EN');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByTestId('price-card-pro')).toContainText('Popular');
  expect(await page.evaluate(() => localStorage.getItem('language'))).toBe('en');

  await page.reload();
  await page.locator('html[data-hydrated="true"]').waitFor();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Professional application photos from your own selfies');
  await expect(page).toHaveTitle(/AI application photos/);

  await page.getByTestId('language-button').click();
  await page.getByRole('button', { name: /Español/ }).click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Fotos profesionales');
});

test('the language menu closes on an outside click', async ({ page }) => {
  await open(page, '/');
  await page.getByTestId('language-button').click();
  await expect(page.getByRole('button', { name: /English/ })).toBeVisible();
  await page.getByRole('heading', { level: 1 }).click();
  await expect(page.getByRole('button', { name: /English/ })).toHaveCount(0);
});

test('phone width: the menu opens with the toggle and the prices stack', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await open(page, '/');
  const toggle = page.getByRole('button', { name: 'Menü öffnen' });
  await expect(toggle).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Hauptnavigation' })).toBeHidden();
  await toggle.click();
  await expect(page.getByRole('navigation', { name: 'Hauptnavigation' })).toBeVisible();
  const basic = await page.getByTestId('price-card-basic').boundingBox();
  const pro = await page.getByTestId('price-card-pro').boundingBox();
  expect(pro!.y).toBeGreaterThan(basic!.y + basic!.height - 1);
  await page.screenshot({ path: 'test-results/home-phone.png', fullPage: true });
});

test('the page works with scripts from our own origin only (CSP) and logs no errors', async ({ page }) => {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  await page.setViewportSize({ width: 1280, height: 900 });
  await open(page, '/');
  await page.getByTestId('language-button').click();
  await page.screenshot({ path: 'test-results/home-desktop.png', fullPage: true });
  expect(problems).toEqual([]);
});

test('the old wizard path and unknown paths redirect', async ({ page }) => {
  await page.goto('/irgendwo');
  await expect(page).toHaveURL(/\/$/);
});

test('every public page renders without console errors (CSP, hydration)', async ({ page }) => {
  const problems: string[] = [];
  page.on('console', (message) => {
    // The staff area asks for its session first; the 401 of a signed-out visitor is expected.
    if (message.type() === 'error' && !(page.url().includes('/admin') && message.text().includes('401'))) problems.push(`${page.url()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`${page.url()}: ${error.message}`));
  for (const path of [...PUBLIC_PAGES, '/order/gender', '/admin/orders']) {
    await open(page, path);
    await expect(page.locator('h1').first()).toBeVisible();
  }
  expect(problems).toEqual([]);
});

test('pages sent without the application leave its styles out; pages it runs on have them inlined', async ({ request }) => {
  // The marker rule that opens src/web/styles/app.css (src/web/shell/app-css.ts), as the build minifies it.
  const appStyles = /\.app-css-start\{/;
  for (const path of ['/', '/impressum', '/bewerbungsfotos-erstellen']) expect(await (await request.get(path)).text(), path).not.toMatch(appStyles);
  for (const path of ['/order/gender', '/tracking']) expect(await (await request.get(path)).text(), path).toMatch(appStyles);
});
