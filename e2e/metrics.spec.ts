// First-party counting from the browser: page views and the funnel's events reach our own server.
import { expect, test } from '@playwright/test';
import { open, wizardToPackage } from './helpers.js';

test('page views and the funnel are counted: call to action, uploads, package choice', async ({ page }) => {
  const sent: { kind: string; path?: string; name?: string; detail?: string | number }[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/metrics') sent.push(request.postDataJSON());
  });
  await open(page, '/');
  await page.locator('.hero a[href="#pricing"]').click();
  await wizardToPackage(page, 3);
  await page.getByTestId('package-basic').click();
  await page.waitForURL('**/order/summary');

  const seen = () => sent.map((body) => (body.kind === 'page_view' ? `view ${body.path}` : `${body.name}${body.detail === undefined ? '' : ` ${body.detail}`}`));
  await expect.poll(seen).toEqual(
    expect.arrayContaining(['view /', 'main_pricing_cta', 'upload_start_cta', 'view /order/gender', 'view /order/upload', 'upload_count 3', 'package_selected basic', 'view /order/summary']),
  );
  // Nothing personal: no e-mail, no file name, no order id.
  expect(JSON.stringify(sent)).not.toMatch(/@|selfie|[0-9a-f]{8}-[0-9a-f]{4}-/);
});

test('the button under the before/after examples leads into the wizard and is counted as transform_images_cta', async ({ page }) => {
  const sent: { kind: string; name?: string }[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/metrics') sent.push(request.postDataJSON());
  });
  await open(page, '/');
  await page.locator('#before-after').getByRole('link', { name: 'Eigene Fotos umwandeln' }).click();
  await page.waitForURL('**/order/gender');
  await expect.poll(() => sent.map((body) => body.name)).toContain('transform_images_cta');
});
