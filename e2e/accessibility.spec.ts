// WCAG 2.2 AA: axe-core on every public route at phone and desktop width, and the keyboard paths.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, test, type Page } from '@playwright/test';
import { PUBLIC_PAGES } from '../src/web/routes.js';
import { CONSENT_BASE_URL, open } from './helpers.js';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

// Every public page (a new one is checked without being listed here), and the wizard's first steps.
const PUBLIC_ROUTES = [...PUBLIC_PAGES, '/order/gender', '/order/upload', '/offline'];

const WIDTHS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 900 },
] as const;

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** Runs axe-core in the page (evaluated by the test runner, so the page's CSP does not apply) for WCAG 2.2 A and AA. */
async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: Violation[] }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] } });
    return result.violations;
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} – ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
}

for (const size of WIDTHS) {
  test(`axe finds no serious or critical violation on any public route (${size.name})`, async ({ page }) => {
    test.setTimeout(90_000);
    await page.setViewportSize({ width: size.width, height: size.height });
    const found: Record<string, string[]> = {};
    for (const path of PUBLIC_ROUTES) {
      // The offline page runs no script, so it never hydrates.
      if (path === '/offline') await page.goto(path);
      else await open(page, path);
      const violations = await seriousViolations(page);
      if (violations.length) found[path] = violations;
    }
    // With the phone menu open, and in English, too.
    if (size.name === 'phone') {
      await open(page, '/?lang=en');
      await page.getByRole('button', { name: 'Open menu' }).click();
      const violations = await seriousViolations(page);
      if (violations.length) found['/?lang=en (menu open)'] = violations;
    }
    expect(found).toEqual({});
  });
}

test('the consent banner and its settings pass axe at phone width', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.route(/^https:\/\/(stats\.example\.org|chat\.example\.com)\//, (route) => route.fulfill({ contentType: 'text/javascript', body: '' }));
  await open(page, `${CONSENT_BASE_URL}/`);
  await expect(page.getByTestId('consent')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByTestId('consent-settings').click();
  expect(await seriousViolations(page)).toEqual([]);
});

test('keyboard only: skip link, language menu, navigation, FAQ and the way into the wizard', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await open(page, '/bewerbungsfotos-erstellen');
  // The first Tab reaches the skip link, which is visible when focused and jumps to the content.
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Zum Inhalt springen' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/#main$/);

  // Language menu: open with Enter, choose with Enter, close with Escape.
  await page.getByTestId('language-button').focus();
  await page.keyboard.press('Enter');
  const english = page.getByRole('button', { name: /English/ });
  await expect(english).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(english).toHaveCount(0);
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(english).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('application photos');

  // FAQ answers open with the keyboard (native details/summary).
  const question = page.locator('.faq__question').first();
  await question.focus();
  await expect(question).toBeFocused();
  // Focus is visible: the focus ring is drawn.
  expect(await question.evaluate((element) => getComputedStyle(element).outlineStyle)).not.toBe('none');
  await page.keyboard.press('Enter');
  await expect(page.locator('.faq__item').first()).toHaveAttribute('open', '');

  // The call to action is a link that Enter follows.
  await page.getByRole('link', { name: /Create my application photos|Create application photos|application photos now/ }).first().focus();
  await page.keyboard.press('Enter');
  await page.waitForURL('**/order/gender');
});

test('photos can be added without dragging: the upload control is a labelled button that opens the file picker', async ({ page }) => {
  await open(page, '/order/gender');
  await page.getByTestId('gender-male').click();
  await page.waitForURL('**/order/upload');
  await page.getByTestId('photo-consent').focus();
  await page.keyboard.press('Space');
  await expect(page.getByTestId('photo-consent')).toBeChecked();
  // Tab onwards reaches a control that opens the system file dialog with the keyboard.
  const chooser = page.waitForEvent('filechooser');
  let reached = false;
  for (let i = 0; i < 6 && !reached; i++) {
    await page.keyboard.press('Tab');
    reached = await page.evaluate(() => {
      const active = document.activeElement;
      return Boolean(active && (active.matches('input[type=file]') || active.closest('label')?.querySelector('input[type=file]') || active.getAttribute('data-testid') === 'file-button'));
    });
  }
  expect(reached).toBe(true);
  await page.keyboard.press('Enter');
  expect((await chooser).isMultiple()).toBe(true);
});
