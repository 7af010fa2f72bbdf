// Downloads need published results, which staff make; until the back office can publish them through
// HTTP, this journey runs the real app in-process (same code, its own embedded database) and stores the
// results the way the result upload does.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/server/app.js';
import { loadConfig } from '../src/server/config.js';
import { statusToken } from '../src/server/modules/orders/order-tokens.js';
import { addResults, payOrder, placeOrder, setOrder, type SeededOrder } from '../src/server/test/seed.js';
import { zipNames } from './page-checks.js';

let app: FastifyInstance;
let base: string;
let order: SeededOrder;
let secret: string;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'shop-e2e-downloads-'));

test.beforeAll(async ({ browserName: _browser }, testInfo) => {
  // An embedded database, its migrations and a placed order take a while on a busy CI machine.
  testInfo.setTimeout(120_000);
  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'warn', RETENTION_INTERVAL_MINUTES: '0', CAMPAIGN_PERCENT: '0' });
  secret = config.appSecret;
  app = await buildApp(config, { logger: false });
  await app.db.migrate();
  order = await placeOrder(app);
  await payOrder(app, order);
  await addResults(app, order.orderId, ['active', 'draft', 'active', 'active']);
  await setOrder(app, order.orderId, { status: 'completed', completedAt: new Date() });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});

test.afterAll(async () => {
  await app?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

test('a completed order: one image and the ZIP download from the status page', async ({ page }) => {
  await page.goto(`${base}/order-status/${order.orderId}?token=${statusToken(secret, order.orderId, new Date())}`);
  await page.locator('html[data-hydrated="true"]').waitFor();
  await expect(page.getByTestId('status-banner')).toHaveAttribute('data-status', 'completed');
  await expect(page.getByTestId('progress')).toHaveAttribute('data-step', '4');
  await expect(page.getByTestId('download-one')).toHaveCount(3);

  const [single] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-one').nth(1).click()]);
  expect(single.suggestedFilename()).toBe('headshot-2-ergebnis-3.jpg');
  const singleFile = await single.path();
  expect(readFileSync(singleFile).subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));

  const [zip] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-all').click()]);
  expect(zip.suggestedFilename()).toBe(`bewerbungsfotos-${order.orderNumber}.zip`);
  expect(await zipNames(await zip.path())).toEqual(['headshot-1-ergebnis-1.jpg', 'headshot-2-ergebnis-3.jpg', 'headshot-3-ergebnis-4.jpg']);
});

test('at phone width a download link that ran out renews itself, and one opened from elsewhere comes back with the reason', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${base}/order-status/${order.orderId}?token=${statusToken(secret, order.orderId, new Date())}`);
  await page.locator('html[data-hydrated="true"]').waitFor();
  // The page was left open past the links' lifetime: its links carry a time in the past (and so a signature
  // the server no longer accepts).
  const stale = await page.getByTestId('download-one').nth(1).getAttribute('href');
  const past = Math.floor(Date.now() / 1000) - 60;
  await page.getByTestId('download-one').nth(1).evaluate((link: HTMLAnchorElement, exp: number) => {
    link.href = link.href.replace(/exp=\d+/, `exp=${exp}`);
  }, past);
  const [single] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-one').nth(1).click()]);
  expect(single.suggestedFilename()).toBe('headshot-2-ergebnis-3.jpg');
  expect(readFileSync(await single.path()).subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
  await expect(page.getByTestId('download-error')).toHaveCount(0);
  // The renewed links are new ones.
  expect(await page.getByTestId('download-one').nth(1).getAttribute('href')).not.toBe(stale);

  // A run-out link opened from a bookmark or another tab: the status page says why and holds fresh links.
  await page.goto(`${base}${stale!.replace(/exp=\d+/, `exp=${past}`)}`);
  await page.waitForURL(`**/order-status/${order.orderId}?download=link`);
  await page.locator('html[data-hydrated="true"]').waitFor();
  await expect(page.getByTestId('download-problem')).toContainText('Der Download-Link konnte nicht erstellt werden.');
  const [again] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-one').nth(1).click()]);
  expect(again.suggestedFilename()).toBe('headshot-2-ergebnis-3.jpg');
  await page.screenshot({ path: 'test-results/download-renewed-phone.png', fullPage: true });
});

test('at phone width the customer keeps a favourite, which stays on the order, and opens a picture in full size', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${base}/order-status/${order.orderId}?token=${statusToken(secret, order.orderId, new Date())}`);
  await page.locator('html[data-hydrated="true"]').waitFor();
  const second = page.getByTestId('result').nth(1);
  await expect(second.getByTestId('favourite')).toHaveAttribute('aria-pressed', 'false');
  await second.getByTestId('favourite').click();
  await expect(second.getByTestId('favourite')).toHaveAttribute('aria-pressed', 'true');
  await page.reload();
  await page.locator('html[data-hydrated="true"]').waitFor();
  await expect(page.getByTestId('result').nth(1)).toHaveAttribute('data-favourite', 'true');
  await expect(page.getByTestId('result').nth(0)).toHaveAttribute('data-favourite', 'false');
  // Full size: the picture itself, in a new tab.
  const [full] = await Promise.all([page.waitForEvent('popup'), page.getByTestId('result').nth(1).getByTestId('full-size').click()]);
  await full.waitForLoadState();
  expect(await full.evaluate(() => (document.querySelector('img') as HTMLImageElement | null)?.naturalWidth ?? 0)).toBeGreaterThanOrEqual(800);
  await full.close();
  // Back to how it was for the other journeys.
  await page.getByTestId('result').nth(1).getByTestId('favourite').click();
  await expect(page.getByTestId('result').nth(1).getByTestId('favourite')).toHaveAttribute('aria-pressed', 'false');
  await page.screenshot({ path: 'test-results/results-favourite-phone.png', fullPage: false });
});
