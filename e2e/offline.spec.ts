// The service worker: the shell works offline, never API answers; a new version waits for the visitor.
import { expect, test, type Page } from '@playwright/test';
import { open } from './helpers.js';

async function controlledPage(page: Page, path: string) {
  await open(page, path);
  await page.evaluate(() => navigator.serviceWorker.ready);
  // The first visit installs the worker; from the next page load on it controls the page.
  await page.reload();
  await page.locator('html[data-hydrated="true"]').waitFor();
  await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
}

test('offline, a visited page comes from the cache, another page shows the offline notice, and no API answer is cached', async ({ page, context }) => {
  await controlledPage(page, '/kontakt');
  // Pages with personal data in them or in their address, visited under the worker's control.
  for (const path of ['/order/gender', '/success', '/widerruf?order=BF-CACHE123', '/tracking?order_id=BF-CACHE123&email=kunde%40example.de', '/agb?lang=en']) {
    await page.goto(path);
    await page.locator('html[data-hydrated="true"]').waitFor();
  }
  const cachedUrls = () =>
    page.evaluate(async () => {
      const urls: string[] = [];
      for (const name of await caches.keys()) for (const request of await (await caches.open(name)).keys()) urls.push(new URL(request.url).pathname + new URL(request.url).search);
      return urls;
    });
  // The public page in another language is kept (the worker stores it after answering).
  await expect.poll(cachedUrls).toContain('/agb?lang=en');
  const cached = await cachedUrls();
  expect(cached).toContain('/kontakt');
  expect(cached).toContain('/offline');
  expect(cached.filter((url) => /^\/(api|files|order|success)/.test(url) || url.includes('BF-CACHE123') || url.includes('example.de'))).toEqual([]);

  await context.setOffline(true);
  await page.goto('/kontakt');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Kontakt');
  await page.goto('/impressum');
  await expect(page.getByTestId('offline-page')).toContainText('Keine Internetverbindung');
  await page.goto('/order/gender');
  await expect(page.getByTestId('offline-page')).toBeVisible();
  await context.setOffline(false);
  await page.getByRole('button', { name: 'Erneut versuchen' }).click();
  await expect(page.getByTestId('gender-female')).toBeVisible();
});

test('a new version waits: "Später" hides the notice, it goes by itself after 30 s, "Aktualisieren" switches and reloads', async ({ page, context }) => {
  // The first worker this browser installs is an older build (other bytes); the server has the current one.
  let served = 0;
  await context.route('**/sw.js', async (route) => {
    if (served++ > 0) return route.continue();
    const response = await route.fetch();
    await route.fulfill({ response, body: `${await response.text()}\n// an older build\n` });
  });
  await page.clock.install();
  await controlledPage(page, '/');
  const notice = page.getByTestId('update-notice');
  await expect(notice).toHaveCount(0);
  // The browser looks for updates at every visit; here we ask at once.
  await page.evaluate(() => navigator.serviceWorker.getRegistration().then((registration) => registration!.update()));
  await expect(notice).toContainText('Eine neue Version dieser Seite ist verfügbar.');
  await page.getByRole('button', { name: 'Später' }).click();
  await expect(notice).toHaveCount(0);

  await page.reload();
  await page.locator('html[data-hydrated="true"]').waitFor();
  // The new version still waits: the notice comes back on the next page, and leaves by itself after 30 s.
  await expect(notice).toBeVisible();
  // The installed clock also runs on in real time: on a busy machine seconds pass between the notice's timer
  // starting and this line, so the check before 30 s leaves it 10 s of room, and the one after lands past 30 s.
  await page.clock.fastForward(20_000);
  await expect(notice).toBeVisible();
  await page.clock.fastForward(11_000);
  await expect(notice).toHaveCount(0);

  await page.reload();
  await page.locator('html[data-hydrated="true"]').waitFor();
  await expect(notice).toBeVisible();
  await page.evaluate(() => ((window as { __beforeUpdate?: boolean }).__beforeUpdate = true));
  const reloaded = page.waitForEvent('load');
  await page.getByRole('button', { name: 'Aktualisieren' }).click();
  await reloaded;
  await page.locator('html[data-hydrated="true"]').waitFor();
  // Reloaded, under the new version, with nothing left waiting.
  expect(await page.evaluate(() => (window as { __beforeUpdate?: boolean }).__beforeUpdate)).toBeUndefined();
  expect(await page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => ({ active: Boolean(r?.active), waiting: Boolean(r?.waiting) })))).toEqual({ active: true, waiting: false });
  await expect(notice).toHaveCount(0);
});
