// Team orders (issue 17), from the company's order to the team ZIP: a buyer orders five seats and pays in the
// sandbox, lands on the team page and copies the join link; two members open it on their phones, consent
// themselves, choose their gender, upload three photos each and send them; staff publish pictures; the buyer
// downloads the team's ZIP; the link refuses a sixth person once every seat is taken.
// The real app runs in-process (its own embedded database), as in redo.spec.ts, so the journey can read the
// mails it sent and publish the staff's pictures without a studio run. Every page is watched for console
// errors and CSP violations.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { TEAM_PHOTO_CONSENT_VERSION } from '../src/domain/team.js';
import { buildApp } from '../src/server/app.js';
import { loadConfig } from '../src/server/config.js';
import { generatedImages, orders, outgoingMail } from '../src/server/db/schema.js';
import { addResults, setOrder, variantWith } from '../src/server/test/seed.js';
import { photoFiles } from './helpers.js';
import { axeViolations, shoot, watch, zipNames } from './page-checks.js';

let app: FastifyInstance;
let base: string;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'shop-e2e-team-'));
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
const BUYER = 'einkauf@muster-consulting.example';
const MEMBERS = ['anna.schmidt@muster-consulting.example', 'ben.meier@muster-consulting.example'];

/** A port nobody listens on: the app's public address (the payment page sends the buyer back to it) must be known before it starts. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

test.beforeAll(async ({ browserName: _browser }, testInfo) => {
  testInfo.setTimeout(120_000);
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: base,
    LOG_LEVEL: 'warn',
    RETENTION_INTERVAL_MINUTES: '0',
    CAMPAIGN_PERCENT: '0',
    // Staff make the members' pictures by hand: the journey publishes theirs.
    DEFAULT_PRODUCTION_MODE: 'manual',
    // The shop's own VAT ID: with it, a buyer from another EU country is invoiced net (reverse charge).
    SITE_VAT_ID: 'DE136695976',
    LIMIT_DRAFTS_PER_HOUR: '100000',
    LIMIT_UPLOAD_MB_PER_HOUR: '1000000',
  });
  app = await buildApp(config, { logger: false });
  await app.db.migrate();
  await app.listen({ port, host: '127.0.0.1' });
});

test.afterAll(async () => {
  await app?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function hydrated(page: Page) {
  await page.locator('html[data-hydrated="true"]').waitFor();
}

const mails = (orderId: string, template: string) => app.db.db.select().from(outgoingMail).where(and(eq(outgoingMail.orderId, orderId), eq(outgoingMail.template, template)));

/** A member on their phone: the join page, their own consent, their gender, three photos, sent. */
async function memberJourney(context: BrowserContext, joinUrl: string, email: string, screenshots: boolean) {
  const page = await context.newPage();
  await page.goto(joinUrl);
  await hydrated(page);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Ihre Profilfotos – bezahlt von Muster Consulting GmbH');
  await expect(page.getByTestId('team-join')).toContainText('Pro Paket');
  await expect(page.getByTestId('team-join')).toContainText('Studio');
  await expect(page.getByTestId('team-join')).toContainText('Ihre Selfies sehen nur Sie und unser Team.');
  // What the company may do with the pictures, and the member's own consent naming it.
  await expect(page.getByTestId('join-licence')).toContainText('erhält Muster Consulting GmbH für Ihre freigegebenen Bilder die kommerzielle Lizenz');
  await expect(page.locator('label.consent')).toContainText('um die Bilder zu erstellen, die Muster Consulting GmbH für mich bestellt hat');
  if (screenshots) {
    expect(await axeViolations(page)).toEqual([]);
    await shoot(page, 'team-join-phone', PHONE);
    await shoot(page, 'team-join-desktop', DESKTOP);
  }
  // Their own consent first: without it nobody joins.
  await page.getByTestId('join-email').fill(email);
  await page.getByTestId('join-submit').click();
  await expect(page.getByRole('alert')).toHaveText('Bitte willigen Sie ein, damit wir Ihre Fotos verarbeiten dürfen.');
  await page.getByTestId('photo-consent').check();
  await page.getByTestId('join-submit').click();
  await page.waitForURL(/\/team\/member\/[0-9a-f-]{36}$/);
  const memberId = page.url().split('/').pop()!;

  // The team's look is shown and fixed; the member chooses only their gender and sends their own photos.
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Ihre Profilfotos für Muster Consulting GmbH');
  await expect(page.getByTestId('member-look')).toContainText('Professionell');
  await expect(page.getByTestId('member-look')).toContainText('Festgelegt von Muster Consulting GmbH für das ganze Team.');
  await page.getByTestId('member-submit').click();
  await expect(page.getByTestId('member-error')).toHaveText('Bitte wählen Sie aus, für wen die Fotos sind.');
  await page.getByTestId('gender-female').click();
  await page.getByTestId('member-submit').click();
  await expect(page.getByTestId('member-error')).toHaveText('Bitte laden Sie mindestens 3 Bilder hoch.');
  await page.getByTestId('file-input').setInputFiles(await photoFiles(3));
  // Each photo passes the face gate on the server first: on a busy 2-core machine that takes seconds.
  await expect(page.getByTestId('upload-thumb')).toHaveCount(3, { timeout: 30_000 });
  await expect(page.getByTestId('upload-counter')).toHaveText('3/10 Fotos hochgeladen');
  // A reload keeps the draft, the photos and the choice.
  await page.reload();
  await hydrated(page);
  await expect(page.getByTestId('upload-thumb')).toHaveCount(3);
  await expect(page.getByTestId('gender-female')).toHaveAttribute('aria-pressed', 'true');
  if (screenshots) {
    expect(await axeViolations(page)).toEqual([]);
    await shoot(page, 'team-member-upload-phone', PHONE);
    await shoot(page, 'team-member-upload-desktop', DESKTOP);
  }
  await page.getByTestId('member-submit').click();

  const done = page.getByTestId('member-done');
  await expect(done.getByRole('heading', { level: 1 })).toHaveText('Geschafft – Ihre Fotos sind bei uns', { timeout: 15_000 });
  await expect(done).toContainText('Ein Mensch aus unserem Team prüft jedes Bild, bevor es freigegeben wird.');
  await expect(done).toContainText('innerhalb von 24 Geschäftsstunden');
  await expect(done).toContainText('Muster Consulting GmbH erhält nur die fertigen Bilder – Ihre Selfies nie.');
  if (screenshots) await shoot(page, 'team-member-done-phone', PHONE);
  return { page, memberId };
}

test('a company orders five seats, two members send their photos, the buyer downloads the team ZIP, a sixth person is refused', async ({ page, browser, request }) => {
  test.setTimeout(180_000);
  const buyerContext = page.context();
  const problems = await watch(buyerContext);
  await buyerContext.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
  await page.setViewportSize(DESKTOP);

  // The way in: the home page's pricing section.
  await page.goto(`${base}/`);
  await hydrated(page);
  await page.getByTestId('pricing-teams').getByRole('link', { name: 'Für Teams und Unternehmen' }).click();
  await page.waitForURL(`${base}/team`);
  // The home page has no client application, so /team loads in full: a press before the app has hydrated it is
  // held until it has (boot.ts), which on a busy machine can take longer than an expectation waits.
  await hydrated(page);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Profilfotos für Ihr ganzes Team');
  // The studio draws no room and no outfit: backgrounds only.
  await expect(page.getByTestId('team-location-office')).toHaveCount(0);
  await expect(page.getByTestId('team-outfit-business')).toHaveCount(0);

  // Pro, five people: 5 × 34,90 € with 19 % VAT included.
  await expect(page.getByTestId('team-seats')).toHaveValue('5');
  await expect(page.getByTestId('team-total')).toHaveText('174,50 €');
  await expect(page.getByTestId('team-vat')).toHaveText('27,86 €');
  await page.getByRole('button', { name: 'Eine Person mehr' }).click();
  await expect(page.getByTestId('team-total')).toHaveText('209,40 €');
  await page.getByRole('button', { name: 'Eine Person weniger' }).click();
  await expect(page.getByTestId('team-total')).toHaveText('174,50 €');

  // Nothing filled in: each field says what is missing, next to it, and the first one takes the focus.
  await page.getByTestId('team-order-button').click();
  await expect(page.getByTestId('team-company')).toBeFocused();
  await expect(page.locator('#team-company-error')).toHaveText('Bitte geben Sie Firmenname und Anschrift für die Rechnung an.');
  await expect(page.locator('#team-email-error')).toHaveText('Bitte geben Sie Ihre E-Mail-Adresse ein.');
  await expect(page.locator('#team-business-error')).toHaveText('Bitte bestätigen Sie, dass Sie als Unternehmen bestellen.');

  await page.getByTestId('team-company').fill('Muster Consulting GmbH');
  await page.getByTestId('team-address').fill('Hauptstraße 1\n10115 Berlin');
  await page.getByTestId('team-email').fill(BUYER);
  await page.getByTestId('team-business').check();
  // A malformed VAT ID is named before anything is sent.
  await page.getByTestId('team-vat-id').fill('ATU1234');
  await page.getByTestId('team-order-button').click();
  await expect(page.getByTestId('team-vat-id')).toBeFocused();
  await expect(page.locator('#team-vat-id-error')).toContainText('hat nicht das Format einer EU-Umsatzsteuer-Identifikationsnummer');
  await expect(page.locator('.field__error')).toHaveCount(1);
  // A VAT ID from another EU country: net, reverse charge.
  await page.getByTestId('team-vat-id').fill('ATU13585627');
  await expect(page.getByTestId('team-vat-hint')).toHaveText('USt-IdNr. aus Österreich: Wir stellen netto in Rechnung, die Umsatzsteuer schulden Sie (Reverse Charge).');
  await expect(page.getByTestId('team-price')).toContainText('Reverse Charge: 0 %');
  await expect(page.getByTestId('team-total')).toHaveText('146,64 €');
  // A German one: 19 % as for everyone.
  await page.getByTestId('team-vat-id').fill('DE 136 695 976');
  await expect(page.getByTestId('team-total')).toHaveText('174,50 €');
  await expect(page.getByTestId('team-price')).toContainText('USt. 19 %');
  await expect(page.getByTestId('team-fix-fields')).toHaveCount(0);
  await shoot(page, 'team-order-desktop', DESKTOP);
  await shoot(page, 'team-order-phone', PHONE);
  await page.getByTestId('team-order-button').click();

  // The sandbox's payment page, then back to the team page: the token is remembered and leaves the address bar.
  await expect(page.getByText('TESTMODUS – keine echte Zahlung')).toBeVisible();
  await expect(page.getByText('174,50 €').first()).toBeVisible();
  // The buyer leaves the payment page: the team page says it is not paid and opens the payment again.
  await page.getByRole('button', { name: 'Abbrechen', exact: true }).click();
  await page.waitForURL(/\/team\/[0-9a-f-]{36}$/);
  await hydrated(page);
  await expect(page.getByTestId('team-cancelled')).toContainText('Die Zahlung wurde abgebrochen.');
  await expect(page.getByTestId('team-join-url')).toHaveCount(0);
  await shoot(page, 'team-unpaid-phone', PHONE);
  await page.getByTestId('team-pay').click();
  await expect(page.getByText('TESTMODUS – keine echte Zahlung')).toBeVisible();
  await expect(page.getByText('174,50 €').first()).toBeVisible();
  await page.getByRole('button', { name: 'Mit Karte bezahlen (erfolgreich)' }).click();
  await page.waitForURL(/\/team\/[0-9a-f-]{36}$/);
  await hydrated(page);
  const teamId = page.url().split('/').pop()!;
  expect(page.url()).not.toContain('token=');
  await expect(page.getByTestId('team-paid')).toContainText('Bezahlt – Ihr Team kann loslegen.');
  await expect(page.getByTestId('team-seats-used')).toHaveText('0 von 5 Plätzen vergeben');
  await expect(page.getByTestId('team-members-empty')).toBeVisible();
  await expect(page.getByTestId('team-invoice')).toHaveCount(1);
  await expect(page.getByTestId('team-privacy')).toContainText('Die Selfies Ihrer Teammitglieder sehen Sie nicht');

  // Copy the join link: the same link the payment mail carries.
  await page.getByTestId('team-copy-link').click();
  await expect(page.getByTestId('team-link-notice')).toHaveText('Link kopiert.');
  const joinUrl = await page.evaluate(() => navigator.clipboard.readText());
  expect(joinUrl).toMatch(new RegExp(`^${base}/team/join/[0-9a-f-]{36}\\.[A-Za-z0-9_-]{32}$`));
  await expect(page.getByTestId('team-join-url')).toHaveValue(joinUrl);
  const [paidMail] = await mails(teamId, 'team-paid');
  expect(paidMail?.text).toContain(joinUrl);
  // Reloaded without the token in the address: this session still opens the page.
  await page.reload();
  await hydrated(page);
  await expect(page.getByTestId('team-paid')).toBeVisible();

  // Invitations by e-mail: an address that is none is named; the invited person can be reminded once a day.
  await page.getByTestId('team-invite-emails').fill('dora@muster-consulting.example, keine-adresse');
  await page.getByTestId('team-invite-submit').click();
  await expect(page.locator('#team-invite-error')).toHaveText('Diese Adresse ist ungültig: keine-adresse');
  await page.getByTestId('team-invite-emails').fill('dora@muster-consulting.example');
  await page.getByTestId('team-invite-submit').click();
  await expect(page.getByTestId('team-members-notice')).toHaveText('Einladungen verschickt.');
  const invited = page.getByTestId('team-member').filter({ hasText: 'dora@muster-consulting.example' });
  await expect(invited).toHaveAttribute('data-progress', 'invited');
  await invited.getByRole('button', { name: 'dora@muster-consulting.example erinnern' }).click();
  await expect(page.getByTestId('team-members-notice')).toHaveText('Erinnerung an dora@muster-consulting.example verschickt.');
  await expect(invited).toContainText('Erinnert am');
  expect((await mails(teamId, 'team-invite')).map((m) => m.toAddress)).toEqual(['dora@muster-consulting.example']);
  expect((await mails(teamId, 'team-remind')).map((m) => m.toAddress)).toEqual(['dora@muster-consulting.example']);

  // Two members on their phones, each in their own browser.
  const memberContexts = await Promise.all(MEMBERS.map(() => browser.newContext({ viewport: PHONE, hasTouch: true })));
  const memberProblems = await Promise.all(memberContexts.map((context) => watch(context)));
  const first = await memberJourney(memberContexts[0]!, joinUrl, MEMBERS[0]!, true);
  // Their own status link: their pictures, and deleting their photos.
  await first.page.getByTestId('member-status-link').click();
  await first.page.waitForURL(/\/order-status\//);
  await expect(first.page.getByTestId('order-status')).toBeVisible();
  const second = await memberJourney(memberContexts[1]!, joinUrl, MEMBERS[1]!, false);
  const [submittedMail] = await mails(second.memberId, 'team-member-submitted');
  expect(submittedMail?.toAddress).toBe(MEMBERS[1]);
  expect(submittedMail?.text).toContain(`/order-status/${second.memberId}?token=`);

  // The buyer sees each member's progress, never their photos.
  await page.getByTestId('team-refresh').click();
  await expect(page.getByTestId('team-member')).toHaveCount(3);
  await expect(page.getByTestId('team-member').filter({ hasText: MEMBERS[0]! })).toHaveAttribute('data-progress', 'submitted');
  await expect(page.getByTestId('team-seats-used')).toHaveText('2 von 5 Plätzen vergeben');
  await expect(page.getByTestId('team-page').locator('img')).toHaveCount(0);
  await expect(page.getByTestId('team-downloads-empty')).toBeVisible();

  // Staff publish each member's pictures (made by hand for these orders): a portrait and a square each.
  for (const { memberId } of [first, second]) {
    const [portrait, square] = await addResults(app, memberId, ['active', 'active']);
    await app.db.db.update(generatedImages).set({ variant: variantWith({ format: 'portrait' }) }).where(eq(generatedImages.id, portrait!));
    await app.db.db.update(generatedImages).set({ variant: variantWith({ format: 'square' }) }).where(eq(generatedImages.id, square!));
    await setOrder(app, memberId, { status: 'completed', completedAt: new Date() });
  }
  await page.getByTestId('team-refresh').click();
  await expect(page.getByTestId('team-member').filter({ hasText: MEMBERS[1]! })).toHaveAttribute('data-progress', 'delivered');
  await expect(page.getByTestId('team-member').first()).toContainText('2 Bilder fertig');
  await expect(page.getByTestId('team-zip-portrait')).toHaveText('4:5 Porträt (2)');
  await expect(page.getByTestId('team-zip-profile')).toHaveText('Profilbilder 800 × 800 px (2)');
  const downloading = page.waitForEvent('download');
  await page.getByTestId('team-zip-portrait').click();
  const download = await downloading;
  const [team] = await app.db.db.select().from(orders).where(eq(orders.id, teamId));
  expect(download.suggestedFilename()).toBe(`team-${team!.orderNumber}-portrait.zip`);
  expect(await zipNames(await download.path())).toEqual(['anna.schmidt/anna.schmidt-portrait-1.jpg', 'ben.meier/ben.meier-portrait-1.jpg']);
  expect(readFileSync(await download.path()).subarray(0, 2).toString()).toBe('PK');

  // Three more people take the remaining seats through the link.
  const token = joinUrl.split('/').pop()!;
  for (const name of ['cara', 'dario', 'emil']) {
    const joined = await request.post(`${base}/api/team-join/${token}`, {
      data: { email: `${name}@muster-consulting.example`, language: 'de', photoConsent: true, photoConsentVersion: TEAM_PHOTO_CONSENT_VERSION },
    });
    expect(joined.status(), await joined.text()).toBe(201);
  }
  // The sixth person, in the browser: the page says every seat is taken, and joining is refused in words.
  const sixthContext = await browser.newContext({ viewport: PHONE });
  const sixthProblems = await watch(sixthContext);
  const sixth = await sixthContext.newPage();
  await sixth.goto(joinUrl);
  await hydrated(sixth);
  await expect(sixth.getByTestId('join-full')).toBeVisible();
  await sixth.getByTestId('join-email').fill('fiona@muster-consulting.example');
  await sixth.getByTestId('photo-consent').check();
  await sixth.getByTestId('join-submit').click();
  await expect(sixth.getByTestId('join-error')).toHaveText('Alle Plätze dieses Teams sind vergeben. Bitte wenden Sie sich an die Person, die die Fotos bestellt hat.');
  expect(sixth.url()).toContain('/team/join/');

  await page.getByTestId('team-refresh').click();
  await expect(page.getByTestId('team-seats-used')).toHaveText('5 von 5 Plätzen vergeben');
  await expect(page.getByTestId('team-member')).toHaveCount(6);

  // Someone who joined but sent nothing can be removed: the seat is free again.
  const emil = page.getByTestId('team-member').filter({ hasText: 'emil@muster-consulting.example' });
  await emil.getByRole('button', { name: 'emil@muster-consulting.example aus dem Team entfernen' }).click();
  await emil.getByTestId('team-remove-confirm').click();
  await expect(page.getByTestId('team-members-notice')).toHaveText('emil@muster-consulting.example wurde entfernt; der Platz ist wieder frei.');
  await expect(emil).toHaveAttribute('data-progress', 'removed');
  await expect(page.getByTestId('team-seats-used')).toHaveText('4 von 5 Plätzen vergeben');
  // Who has sent their photos cannot be removed.
  await expect(page.getByTestId('team-member').filter({ hasText: MEMBERS[0]! }).getByTestId('team-remove')).toHaveCount(0);
  expect(await axeViolations(page)).toEqual([]);
  await shoot(page, 'team-page-desktop', DESKTOP);
  await shoot(page, 'team-page-phone', PHONE);

  // The company wants the free seat's money back: staff refund it from the team order; the seat is gone at once.
  await app.auth.createStaff({ email: 'backoffice@example.de', password: 'e2e-staff-password-123', name: 'Backoffice' });
  const staffContext = await browser.newContext({ viewport: DESKTOP });
  const staffProblems = await watch(staffContext);
  const staff = await staffContext.newPage();
  await staff.goto(`${base}/admin`);
  await hydrated(staff);
  await staff.getByTestId('login-email').fill('backoffice@example.de');
  await staff.getByTestId('login-password').fill('e2e-staff-password-123');
  await staff.getByTestId('login-submit').click();
  await staff.getByRole('link', { name: 'Dashboard' }).waitFor();
  await staff.goto(`${base}/admin/orders/${teamId}`);
  await hydrated(staff);
  await expect(staff.getByTestId('team-card')).toContainText('4 von 5 Plätzen');
  // The team order makes no pictures of its own: no photo, studio or upload sections; no withdrawal right.
  await expect(staff.getByText('Generierte Bilder hochladen')).toHaveCount(0);
  await expect(staff.getByText('Entfällt (Unternehmer, kein Widerrufsrecht)')).toBeVisible();
  await staff.getByTestId('refund-seats').fill('1');
  await expect(staff.getByTestId('refund-seats-form')).toContainText('Anteil am Preis: 34,90 €');
  await staff.getByTestId('refund-seats-submit').click();
  await expect(staff.getByTestId('refund').first()).toContainText('1 Platz');
  await staff.getByTestId('sandbox-refund-succeeded').click();
  await expect(staff.getByTestId('refunded-total')).toHaveText('34,90 €');
  await expect(staff.getByTestId('refund-seats-form')).toHaveCount(0);
  await staff.screenshot({ path: 'test-results/admin-team-seat-refund.png', fullPage: true });
  await page.getByTestId('team-refresh').click();
  await expect(page.getByTestId('team-seats-used')).toHaveText('4 von 4 Plätzen vergeben');
  // Before signing in, the back office asks whether a session exists: 401 is its answer, not a fault.
  expect(staffProblems.filter((p) => p !== '/admin: 401 /api/auth/session')).toEqual([]);
  await staffContext.close();

  for (const context of [...memberContexts, sixthContext]) await context.close();
  // The sandbox's payment page (the provider's, in production) has no icon: the browser asks for /favicon.ico.
  expect(problems.filter((p) => !/^\/sandbox\/checkout\/[^:]+: 404 \/favicon\.ico$/.test(p))).toEqual([]);
  expect(memberProblems.flat()).toEqual([]);
  // The refused join is the API's answer; the page shows it in words.
  expect(sixthProblems).toEqual([`/team/join/${token}: 409 /api/team-join/${token}`]);
});
