// What a page loads before anyone touches it (issue 22): the wizard's steps and the form pages hydrate without
// the schema library, a wizard step without the other steps' code; a form's checks load when it is used.
import { expect, test, type Browser, type Response } from '@playwright/test';
import { open, seedPaidOrder, uniqueEmail } from './helpers.js';

/** The script files a new visitor's first load of `path` fetched: their names without the build's hash, and their code (all and per file). */
async function firstLoadScripts(browser: Browser, path: string): Promise<{ names: string[]; code: string; files: Map<string, string> }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const responses: Response[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script') responses.push(response);
  });
  await open(page, path);
  await page.waitForLoadState('networkidle');
  const names = responses.map((response) => new URL(response.url()).pathname.replace(/^\/assets\//, '').replace(/-[\w-]{8}\.js$/, ''));
  const texts = await Promise.all(responses.map((response) => response.text()));
  await context.close();
  return { names, code: texts.join('\n'), files: new Map(names.map((name, index) => [name, texts[index] ?? ''])) };
}

/** A name zod gives its errors' class: in the code of whatever file carries the schema library. */
const SCHEMA_LIBRARY = '$ZodError';

test('wizard steps and form pages hydrate without the schema library, each step without the others', async ({ browser }) => {
  const others = { '/order/gender': ['upload', 'summary'], '/order/upload': ['choice-steps', 'summary'], '/order/summary': ['choice-steps', 'upload'] };
  for (const [path, notLoaded] of Object.entries(others)) {
    const { names, code } = await firstLoadScripts(browser, path);
    expect(code.includes(SCHEMA_LIBRARY), `${path} loads the schemas`).toBe(false);
    for (const name of notLoaded) expect(names, `${path} loads ${name}`).not.toContain(name);
  }
  for (const path of ['/kontakt', '/widerruf', '/tracking', '/team']) {
    const { code } = await firstLoadScripts(browser, path);
    expect(code.includes(SCHEMA_LIBRARY), `${path} loads the schemas`).toBe(false);
  }
});

test('React and the app frame ask the browser to compile all their functions while they download; the files loaded later do not', async ({ browser }) => {
  // scripts/vite/compile-hints.ts: Chromium reads the hint only as a file's first line.
  const { files } = await firstLoadScripts(browser, '/order/style');
  for (const name of ['react', 'app']) expect(files.get(name)?.split('\n')[0], name).toBe('//# allFunctionsCalledOnLoad');
  const later = [...files].filter(([name]) => name !== 'react' && name !== 'app');
  expect(later.length).toBeGreaterThan(0);
  for (const [name, code] of later) expect(code.includes('allFunctionsCalledOnLoad'), name).toBe(false);
});

test('pages the app runs on show their prices and dates without making an Intl number or date format on first load', async ({ browser, request }) => {
  // A browser's first Intl.NumberFormat or DateTimeFormat loads the locale's data: 20-45 ms of the main thread
  // (src/domain/money.ts writes whole-cent prices out instead, src/domain/dates.ts the shop's dates).
  const email = uniqueEmail('intl');
  const order = await seedPaidOrder(request, email);
  const tracked = `/tracking?order_id=${order.orderId}&email=${encodeURIComponent(email)}`;
  for (const path of ['/order/style', '/order/package', '/order/summary', '/kontakt', '/team', '/tracking', tracked]) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.addInitScript(() => {
      const made: string[] = [];
      Object.assign(window, { intlFormatsMade: made });
      const constructors = Intl as unknown as Record<string, new (...args: unknown[]) => object>;
      for (const name of ['NumberFormat', 'DateTimeFormat']) {
        const original = constructors[name];
        if (!original) throw new Error(`Intl.${name} is missing`);
        constructors[name] = new Proxy(original, {
          construct(target, args: unknown[]) {
            made.push(`${name} ${JSON.stringify(args)}`);
            return Reflect.construct(target, args) as object;
          },
        });
      }
    });
    await open(page, path);
    await page.waitForLoadState('networkidle');
    if (path === '/order/package') await expect(page.getByText(/\d,\d\d\u00a0€/).first()).toBeVisible();
    if (path === tracked) {
      // A paid order's due date, then its status page (a route of the same app) with the history's times.
      await expect(page.getByText(/^Voraussichtlich fertig bis \d\d\.\d\d\.20\d\d, \d\d:\d\d\.$/)).toBeVisible();
      await page.getByTestId('to-status-page').click();
      await expect(page.getByTestId('history').locator('time').first()).toHaveText(/^\d\d\.\d\d\.20\d\d, \d\d:\d\d$/);
    }
    expect(await page.evaluate(() => (window as unknown as { intlFormatsMade: string[] }).intlFormatsMade), path).toEqual([]);
    await context.close();
  }
});

test('a form loads its checks when a field gets the focus, and a form sent at once is checked too', async ({ page }) => {
  await open(page, '/kontakt');
  const schemas = page.waitForResponse(async (response) => response.request().resourceType() === 'script' && (await response.text()).includes(SCHEMA_LIBRARY));
  await page.getByTestId('contact-name').focus();
  await schemas;

  // Sent before any field had the focus (a new load of the page): the press waits for the checks and shows their verdict.
  await open(page, '/kontakt');
  await page.getByTestId('contact-submit').click();
  await expect(page.locator('#contact-name-error')).toBeVisible();
});

test("tracking from a mail's link shows the order without loading the checks; a link cut short gets the form's words", async ({ browser, request }) => {
  const email = uniqueEmail('link');
  const order = await seedPaidOrder(request, email);
  const context = await browser.newContext();
  const page = await context.newPage();
  const scripts: string[] = [];
  page.on('response', async (response) => {
    if (response.request().resourceType() === 'script') scripts.push(await response.text().catch(() => ''));
  });
  await open(page, `/tracking?order_id=${order.orderId}&email=${encodeURIComponent(email)}`);
  await expect(page.getByTestId('status-banner')).toHaveAttribute('data-status', 'paid');
  await page.waitForLoadState('networkidle');
  expect(scripts.some((code) => code.includes(SCHEMA_LIBRARY)), 'the lookup loaded the schemas').toBe(false);

  // The server refuses the values; the page loads the checks to say why, as the form does.
  await open(page, `/tracking?order_id=BF-123&email=${encodeURIComponent(email)}`);
  await expect(page.getByTestId('track-error')).toHaveText(/BF-7K3M9Q2X/);
  expect(scripts.some((code) => code.includes(SCHEMA_LIBRARY)), 'the refusal loaded the schemas').toBe(true);
  await context.close();
});

test('a page hydrates with the texts from the files its data names, not from the catalogue modules', async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const texts: string[] = [];
  const scripts: string[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.startsWith('/i18n/')) texts.push(pathname);
    if (request.resourceType() === 'script') scripts.push(pathname.replace(/^\/assets\//, '').replace(/-[\w-]{8}\.js$/, ''));
  });
  await open(page, '/team?lang=en');
  await page.waitForLoadState('networkidle');
  // The core catalogues and the page's own namespace, in the page's language: one file each.
  expect(texts.sort()).toEqual([expect.stringMatching(/^\/i18n\/en-team\.[0-9a-f]{12}\.json$/), expect.stringMatching(/^\/i18n\/en\.[0-9a-f]{12}\.json$/)]);
  // Nothing fetched the same texts again as code (the language switch's modules: core-…, team-…).
  expect(scripts).not.toContain('core');
  expect(scripts).not.toContain('team');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Profile photos for your whole team');
  await context.close();
});

test('hashed assets are cached for good, the service worker is checked on every visit, other files for an hour; compressed copies are served', async ({ page, request }) => {
  const scripts: string[] = [];
  page.on('response', (response) => {
    if (new URL(response.url()).pathname.startsWith('/assets/')) scripts.push(response.url());
  });
  await open(page, '/order/gender');
  await page.waitForLoadState('networkidle');
  expect(scripts.length).toBeGreaterThan(0);
  const asset = await request.get(scripts[0]!, { headers: { 'accept-encoding': 'br' } });
  expect(asset.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
  expect(asset.headers()['content-encoding']).toBe('br');
  const worker = await request.get('/sw.js', { headers: { 'accept-encoding': 'gzip' } });
  expect(worker.headers()['cache-control']).toBe('no-cache');
  expect(worker.headers()['content-encoding']).toBe('gzip');
  expect((await request.get('/favicon.svg')).headers()['cache-control']).toBe('public, max-age=3600');
});
