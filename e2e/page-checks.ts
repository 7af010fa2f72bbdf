// Checks the journeys run on the pages they open: console errors and CSP violations, axe-core's findings,
// whole-page screenshots at a width, and the names inside a downloaded ZIP.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { BrowserContext, Page } from '@playwright/test';
import yauzl from 'yauzl';

/** Console errors and CSP violations of every page in a browser context, from its first script on. */
export async function watch(context: BrowserContext): Promise<string[]> {
  const problems: string[] = [];
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`));
  });
  context.on('page', (page) => watchPage(page, problems));
  for (const page of context.pages()) watchPage(page, problems);
  return problems;
}

function watchPage(page: Page, problems: string[]) {
  page.on('console', (message) => {
    // A failed request is logged below with its address instead.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) problems.push(`${page.url()}: ${message.text()}`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${new URL(page.url()).pathname}: ${response.status()} ${new URL(response.url()).pathname}`);
  });
  page.on('pageerror', (error) => problems.push(`${page.url()}: ${error.message}`));
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Serious and critical WCAG 2.2 AA findings of axe-core on the page as it is (as accessibility.spec.ts runs it). */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: { id: string; impact: string | null; nodes: { target: string[] }[] }[] }> } }).axe;
    return (await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] } })).violations;
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** A whole-page screenshot at a width, from the top (a page scrolled down draws its sticky bar mid-page). */
export async function shoot(page: Page, name: string, viewport: { width: number; height: number }) {
  const before = page.viewportSize();
  await page.setViewportSize(viewport);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(150);
  await page.screenshot({ path: `test-results/${name}.png`, fullPage: true });
  if (before) await page.setViewportSize(before);
}

export function zipNames(file: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error);
      const names: string[] = [];
      zip.on('entry', (entry: yauzl.Entry) => {
        names.push(entry.fileName);
        zip.readEntry();
      });
      zip.on('end', () => resolve(names));
      zip.readEntry();
    });
  });
}
