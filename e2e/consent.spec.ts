// Consent for third-party services: this shop process has analytics and chat configured. Their hosts are
// answered here in the browser (page.route), so nothing leaves the machine and every request is seen.
import { expect, test, type Page } from '@playwright/test';
import { CONSENT_BASE_URL, open } from './helpers.js';

test.use({ baseURL: CONSENT_BASE_URL });

/** Answers the third-party scripts and records every request that leaves the shop's own origin. */
async function watchThirdParty(page: Page): Promise<string[]> {
  const requests: string[] = [];
  page.on('request', (request) => {
    if (!request.url().startsWith(CONSENT_BASE_URL) && !request.url().startsWith('data:')) requests.push(request.url());
  });
  await page.route(/^https:\/\/(stats\.example\.org|chat\.example\.com)\//, (route) =>
    route.fulfill({ contentType: 'text/javascript', body: `window.__thirdParty = (window.__thirdParty || []).concat(${JSON.stringify(route.request().url())});` }),
  );
  return requests;
}

test('rejecting takes one click and loads nothing from third parties, on this page or the next', async ({ page }) => {
  const requests = await watchThirdParty(page);
  await open(page, '/');
  const banner = page.getByTestId('consent');
  await expect(banner).toBeVisible();
  await expect(banner).toContainText('Reichweitenanalyse (Beispiel Analytics GmbH)');
  await expect(banner).toContainText('Chat (Beispiel Chat AG)');
  // Reject and accept are the same kind of button, side by side.
  const reject = page.getByTestId('consent-reject');
  const accept = page.getByTestId('consent-accept');
  expect(await reject.getAttribute('class')).toBe(await accept.getAttribute('class'));
  const [rejectBox, acceptBox] = [await reject.boundingBox(), await accept.boundingBox()];
  expect(Math.abs(rejectBox!.height - acceptBox!.height)).toBeLessThan(1);
  expect(Math.abs(rejectBox!.width - acceptBox!.width)).toBeLessThan(2);

  await reject.click();
  await expect(banner).toHaveCount(0);
  await page.getByRole('link', { name: 'Bestellung verfolgen' }).first().click();
  await page.waitForURL('**/tracking');
  await page.reload();
  await page.locator('html[data-hydrated="true"]').waitFor();
  await expect(page.getByTestId('consent')).toHaveCount(0);
  await page.waitForTimeout(300);
  expect(requests).toEqual([]);
  expect(await page.evaluate(() => (window as { __thirdParty?: string[] }).__thirdParty ?? [])).toEqual([]);
});

test('accepting loads the configured scripts; the footer link reopens the settings, and withdrawing unloads them', async ({ page }) => {
  const requests = await watchThirdParty(page);
  // Nothing is loaded before the decision.
  await open(page, '/');
  await page.waitForTimeout(300);
  expect(requests).toEqual([]);

  await page.getByTestId('consent-accept').click();
  await expect.poll(() => page.evaluate(() => (window as { __thirdParty?: string[] }).__thirdParty ?? [])).toEqual(
    expect.arrayContaining(['https://stats.example.org/tag.js', 'https://chat.example.com/widget.js']),
  );

  // Settings from the footer: only analytics now.
  await page.getByTestId('cookie-settings').click();
  const dialog = page.getByTestId('consent');
  await expect(dialog).toBeFocused();
  await expect(page.getByTestId('consent-analytics')).toBeChecked();
  await page.getByTestId('consent-chat').uncheck();
  const reloaded = page.waitForEvent('load');
  await page.getByTestId('consent-save').click();
  // A script that already ran cannot be taken back: the page loads again without it.
  await reloaded;
  await page.locator('html[data-hydrated="true"]').waitFor();
  await expect.poll(() => page.evaluate(() => (window as { __thirdParty?: string[] }).__thirdParty ?? [])).toEqual(['https://stats.example.org/tag.js']);
  expect(await page.evaluate(() => JSON.parse(localStorage.getItem('consent')!))).toMatchObject({ analytics: true, chat: false });
});

test('the settings work with the keyboard alone at phone width', async ({ page }) => {
  await watchThirdParty(page);
  await page.setViewportSize({ width: 390, height: 844 });
  await open(page, '/kontakt');
  await page.getByTestId('consent-settings').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('consent-analytics')).toBeVisible();
  await page.getByTestId('consent-analytics').focus();
  await page.keyboard.press('Space');
  await expect(page.getByTestId('consent-analytics')).toBeChecked();
  await page.getByTestId('consent-save').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('consent')).toHaveCount(0);
  await expect.poll(() => page.evaluate(() => (window as { __thirdParty?: string[] }).__thirdParty ?? [])).toEqual(['https://stats.example.org/tag.js']);
  // Escape closes the reopened settings without changing the choice.
  await page.getByTestId('cookie-settings').click();
  await expect(page.getByTestId('consent')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('consent')).toHaveCount(0);
  await page.screenshot({ path: 'test-results/consent-phone.png', fullPage: false });
});
