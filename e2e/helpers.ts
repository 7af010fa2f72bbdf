import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import sharp from 'sharp';

const dir = path.join(os.tmpdir(), 'shop-e2e-photos');

/** Real photo files from the public-domain test portrait, large enough for the upload minimum. */
export async function photoFiles(count: number): Promise<string[]> {
  mkdirSync(dir, { recursive: true });
  const files: string[] = [];
  for (let i = 0; i < count; i++) {
    const file = path.join(dir, `selfie-${i + 1}.jpg`);
    const buffer = await sharp('test/fixtures/portrait-astronaut.png')
      .resize(1200 + i * 8, 1500, { fit: 'cover' })
      .modulate({ brightness: 1 + i * 0.02 })
      .jpeg({ quality: 85 })
      .toBuffer();
    writeFileSync(file, buffer);
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
