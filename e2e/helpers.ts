import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import sharp from 'sharp';

/** The second shop process of playwright.config.ts: analytics and chat configured, so consent is asked. */
export const CONSENT_BASE_URL = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3999) - 1}`;
/** The shop whose pictures a generator makes (playwright.config.ts). */
export const GENERATOR_BASE_URL = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3999) - 2}`;

// One folder per test worker: parallel workers writing the same file would hand each other half-written photos.
const dir = path.join(os.tmpdir(), `shop-e2e-photos-${process.pid}`);

/** Real photo files from the public-domain test portrait, large enough for the upload minimum. */
export async function photoFiles(count: number): Promise<string[]> {
  mkdirSync(dir, { recursive: true });
  const files: string[] = [];
  for (let i = 0; i < count; i++) {
    const file = path.join(dir, `selfie-${i + 1}.jpg`);
    if (existsSync(file)) {
      files.push(file);
      continue;
    }
    const buffer = await sharp('test/fixtures/portrait-astronaut.png')
      .resize(1200 + i * 8, 1500, { fit: 'cover' })
      .modulate({ brightness: 1 + i * 0.02 })
      .jpeg({ quality: 85 })
      .toBuffer();
    // Written under a temporary name and renamed: a reader never sees half a file.
    writeFileSync(`${file}.part`, buffer);
    renameSync(`${file}.part`, file);
    files.push(file);
  }
  return files;
}

export function uniqueEmail(prefix: string): string {
  return `${prefix}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.de`;
}

export async function outbox(request: APIRequestContext, to: string): Promise<{ template: string; subject: string; text: string }[]> {
  const response = await request.get(`/api/dev/outbox?to=${encodeURIComponent(to)}`);
  return (await response.json()).mails;
}

/** Opens a page and waits until React has hydrated it, so clicks are not lost. */
export async function open(page: Page, url: string) {
  await page.goto(url);
  await page.locator('html[data-hydrated="true"]').waitFor();
}

/** Gender, photos, style, package: the wizard up to the package choice. */
export async function wizardToPackage(page: Page, photos: number) {
  await open(page, '/');
  await page.getByRole('link', { name: 'Jetzt Bewerbungsfotos erstellen' }).click();
  await page.waitForURL('**/order/gender');
  await page.getByTestId('gender-female').click();
  await page.waitForURL('**/order/upload');
  await page.getByTestId('photo-consent').check();
  await page.getByTestId('file-input').setInputFiles(await photoFiles(photos));
  await page.getByTestId('upload-thumb').nth(photos - 1).waitFor();
  await page.getByTestId('upload-counter').filter({ hasText: `${photos}/10` }).waitFor();
  await page.getByTestId('next').click();
  await page.waitForURL('**/order/style');
  await page.getByTestId('style-professional').click();
  await page.waitForURL('**/order/package');
}

/** Places and pays a basic order through the shop's HTTP API and the sandbox checkout page. */
export async function seedPaidOrder(request: APIRequestContext, email: string): Promise<{ orderId: string; orderNumber: string }> {
  const selection = { gender: 'female', style: 'professional', package: 'basic', location: null, outfit: null, extras: [] };
  const draft = await (await request.post('/api/orders', { data: { language: 'de', selection, photoConsent: true, photoConsentVersion: '2026-11-01' } })).json();
  for (const file of await photoFiles(3)) {
    const response = await request.post(`/api/orders/${draft.orderId}/uploads`, {
      headers: { 'x-draft-token': draft.draftToken },
      multipart: { file: { name: path.basename(file), mimeType: 'image/jpeg', buffer: (await import('node:fs')).readFileSync(file) } },
    });
    if (response.status() !== 201) throw new Error(`upload failed: ${await response.text()}`);
  }
  const checkout = await (
    await request.post(`/api/orders/${draft.orderId}/checkout`, {
      headers: { 'x-draft-token': draft.draftToken },
      data: { language: 'de', selection, email, waiverAccepted: true, waiverTextVersion: '2026-11-01' },
    })
  ).json();
  const pay = await request.post(`/sandbox/checkout/${checkout.sessionId}/pay`, { form: {}, maxRedirects: 0 });
  if (pay.status() !== 303) throw new Error(`sandbox pay failed: ${pay.status()}`);
  return { orderId: draft.orderId, orderNumber: draft.orderNumber };
}
