// The Content-Security-Policy forbids eval and inline scripts; no page may trip it while a customer uses it
// (the form validation once probed for eval on every interactive page, src/web/shell/zod-browser.ts).
import { expect, test, type Page } from '@playwright/test';
import { open } from './helpers.js';

/** Records every CSP violation the page reports, from its first script on. */
async function watchViolations(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __csp: string[] }).__csp = seen;
    document.addEventListener('securitypolicyviolation', (event) => seen.push(`${event.violatedDirective} ${event.blockedURI}`));
  });
  return () => page.evaluate(() => (window as unknown as { __csp: string[] }).__csp);
}

test('validating forms trips no CSP rule: contact, tracking, the wizard', async ({ page }) => {
  const violations = await watchViolations(page);
  await open(page, '/kontakt');
  await page.getByTestId('contact-email').fill('keine-adresse');
  await page.getByTestId('contact-submit').click();
  await expect(page.getByText('Bitte geben Sie Ihren Namen ein.')).toBeVisible();
  expect(await violations()).toEqual([]);

  await open(page, '/tracking');
  await page.getByTestId('track-order').fill('BF-2345');
  await page.getByTestId('track-submit').click();
  expect(await violations()).toEqual([]);

  await open(page, '/order/gender');
  await page.getByTestId('gender-female').click();
  await page.waitForURL('**/order/upload');
  expect(await violations()).toEqual([]);
});
