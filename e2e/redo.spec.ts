// Redo before accepting, from the customer's phone to the new pictures: two delivered pictures chosen, the
// acknowledgement mail, staff publish two new ones and answer, the answer mail, the new pictures on the page.
// The real app runs in-process (its own embedded database), as in downloads.spec.ts, so the journey can read
// the mails it sent and make the staff's new pictures without a studio run.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/server/app.js';
import { loadConfig } from '../src/server/config.js';
import { generatedImages, outgoingMail } from '../src/server/db/schema.js';
import { statusToken } from '../src/server/modules/orders/order-tokens.js';
import { addResults, payOrder, placeOrder, setOrder, variantWith, type SeededOrder } from '../src/server/test/seed.js';

let app: FastifyInstance;
let base: string;
let order: SeededOrder;
let secret: string;
let delivered: string[];
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'shop-e2e-redo-'));
const STAFF = { email: 'redo-team@example.de', password: 'e2e-redo-password-123' };

test.beforeAll(async ({ browserName: _browser }, testInfo) => {
  testInfo.setTimeout(120_000);
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'warn',
    RETENTION_INTERVAL_MINUTES: '0',
    CAMPAIGN_PERCENT: '0',
    // Staff make this order's pictures by hand: the journey publishes theirs.
    DEFAULT_PRODUCTION_MODE: 'manual',
  });
  secret = config.appSecret;
  app = await buildApp(config, { logger: false });
  await app.db.migrate();
  order = await placeOrder(app, { language: 'de' });
  await payOrder(app, order);
  delivered = await addResults(app, order.orderId, ['active', 'active', 'active']);
  // Delivered in two formats, so the page also offers one ZIP per format.
  for (const [index, id] of delivered.entries()) {
    await app.db.db.update(generatedImages).set({ variant: variantWith({ format: index === 1 ? 'square' : 'portrait' }) }).where(eq(generatedImages.id, id));
  }
  await setOrder(app, order.orderId, { status: 'completed', completedAt: new Date() });
  await app.auth.createStaff({ email: STAFF.email, password: STAFF.password, name: 'Team' });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});

test.afterAll(async () => {
  await app?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const mails = (template: string) => app.db.db.select().from(outgoingMail).where(and(eq(outgoingMail.orderId, order.orderId), eq(outgoingMail.template, template)));

function watchConsole(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

test('at phone width a customer has two pictures redone: request, acknowledgement, staff answer, new pictures and answer mail', async ({ page, browser }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 390, height: 844 });
  const errors = watchConsole(page);
  const statusPage = `${base}/order-status/${order.orderId}?token=${statusToken(secret, order.orderId, new Date())}`;
  await page.goto(statusPage);
  await page.locator('html[data-hydrated="true"]').waitFor();

  // The package's budget is stated, and each picture can be picked (basic: 2).
  const form = page.getByTestId('revision');
  await expect(form).toContainText('noch 2 von 2 Bildern');
  await expect(page.getByTestId('format-zips')).toContainText('4:5 Porträt (2)');
  // Nothing picked: the server is not asked, the customer is told what to do.
  await page.getByTestId('redo-submit').click();
  await expect(form.getByRole('alert')).toHaveText('Bitte wählen Sie mindestens ein Bild aus, das wir neu machen sollen.');
  await page.getByLabel('Bild 1 neu machen lassen').check();
  await page.getByLabel('Bild 3 neu machen lassen').check();
  await expect(page.getByTestId('redo-count')).toHaveText('2 von höchstens 2 Bildern ausgewählt.');
  // The budget is reached: the third cannot be picked.
  await expect(page.getByLabel('Bild 2 neu machen lassen')).toBeDisabled();
  await page.getByLabel('Was sollen wir anders machen? (freiwillig)').fill('Bitte mit etwas weicherem Licht.');
  await page.screenshot({ path: 'test-results/redo-request-phone.png', fullPage: true });
  await page.getByTestId('redo-submit').click();

  const open = page.getByTestId('revision-open');
  await expect(open).toContainText('Wir machen 2 Bilder für Sie neu.');
  await expect(open).toContainText('Fertig bis spätestens');
  await expect(page.getByTestId('redo-badge')).toHaveCount(2);
  await expect(page.getByTestId('status-banner')).toHaveAttribute('data-status', 'in_progress');
  const [ack] = await mails('revision-received');
  expect(ack?.subject).toBe(`Ihre Nachbesserung zur Bestellung ${order.orderNumber} ist eingegangen`);
  expect(ack?.text).toContain('Wir machen 2 Bilder für Sie neu.');
  expect(ack?.text).toContain('Bitte mit etwas weicherem Licht.');

  // Staff: two new pictures (made by hand for this order), published; then the answer that closes the redo.
  const fresh = await addResults(app, order.orderId, ['draft', 'draft']);
  const staffPage = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const staffErrors = watchConsole(staffPage);
  await staffPage.goto(`${base}/admin/orders/${order.orderId}`);
  await staffPage.getByTestId('login-email').fill(STAFF.email);
  await staffPage.getByTestId('login-password').fill(STAFF.password);
  await staffPage.getByTestId('login-submit').click();
  await expect(staffPage.getByTestId('revision-pictures')).toContainText('Neu machen (2): ergebnis 1.jpg, ergebnis 3.jpg');
  staffErrors.length = 0;
  const drafts = staffPage.locator('[data-testid="result-item"][data-status="draft"]');
  await expect(drafts).toHaveCount(2);
  await drafts.first().getByTestId('publish').click();
  await expect(drafts).toHaveCount(1);
  await drafts.first().getByTestId('publish').click();
  await expect(drafts).toHaveCount(0);
  await staffPage.getByTestId('revision-close').click();
  await expect(staffPage.getByRole('alert')).toContainText('Bitte schreiben Sie eine Antwort');
  await staffPage.getByTestId('revision-answer').fill('Hier sind zwei neue Fassungen mit weicherem Licht. Viel Erfolg!');
  await staffPage.getByTestId('revision-close').click();
  await expect(staffPage.getByTestId('status-select')).toHaveValue('completed');
  await staffPage.screenshot({ path: 'test-results/redo-staff-closed.png', fullPage: true });
  expect(staffErrors).toEqual([]);
  await staffPage.close();

  const [answer] = await mails('revision-answered');
  expect(answer?.subject).toBe(`Ihre Nachbesserung zur Bestellung ${order.orderNumber} ist fertig`);
  expect(answer?.text).toContain('2 neue Bilder stehen auf Ihrer Statusseite bereit');
  expect(answer?.text).toContain('Hier sind zwei neue Fassungen mit weicherem Licht. Viel Erfolg!');

  // The customer's page: the new pictures instead of the two named ones, the answer, no budget left.
  await page.reload();
  await page.locator('html[data-hydrated="true"]').waitFor();
  await expect(page.getByTestId('status-banner')).toHaveAttribute('data-status', 'completed');
  const shown = await page.getByTestId('result').evaluateAll((items) => items.map((item) => item.querySelector('a[data-testid="download-one"]')?.getAttribute('href') ?? ''));
  expect(shown).toHaveLength(3);
  for (const id of [delivered[1]!, ...fresh]) expect(shown.some((href) => href.includes(id))).toBe(true);
  for (const id of [delivered[0]!, delivered[2]!]) expect(shown.some((href) => href.includes(id))).toBe(false);
  await expect(page.getByTestId('revision-answers')).toContainText('Hier sind zwei neue Fassungen mit weicherem Licht. Viel Erfolg!');
  await expect(page.getByTestId('revision')).toContainText('alle 2 kostenlosen Neufassungen');
  await expect(page.getByTestId('redo-pick')).toHaveCount(0);
  await page.screenshot({ path: 'test-results/redo-answered-phone.png', fullPage: true });
  expect(errors).toEqual([]);
});
