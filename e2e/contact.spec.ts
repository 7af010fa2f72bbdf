import { expect, test } from '@playwright/test';
import { open, outbox } from './helpers.js';

test('the contact form shows the spec errors per field, sends, and offers a new message', async ({ page, request }) => {
  await page.setExtraHTTPHeaders({ 'x-forwarded-for': '203.0.113.20' });
  await open(page, '/kontakt');
  await page.getByTestId('contact-submit').click();
  await expect(page.getByText('Bitte geben Sie Ihren Namen ein.')).toBeVisible();
  await expect(page.getByText('Bitte geben Sie Ihre E-Mail-Adresse ein.')).toBeVisible();
  await expect(page.getByText('Bitte geben Sie eine Nachricht ein.')).toBeVisible();
  await page.getByTestId('contact-name').fill('Erika Muster');
  await expect(page.getByText('Bitte geben Sie Ihren Namen ein.')).toHaveCount(0);
  await page.getByTestId('contact-email').fill('erika.kontakt@example.de');
  await page.getByTestId('contact-message').fill('Hallo <script>alert(1)</script>');
  await page.getByTestId('contact-submit').click();
  await expect(page.getByText('Ungültiger Inhalt erkannt.', { exact: false })).toBeVisible();
  await page.getByTestId('contact-message').fill('Ich habe eine Frage zu meiner Bestellung BF-23456789.');
  await page.getByTestId('contact-submit').click();
  await expect(page.getByTestId('contact-success')).toContainText('Vielen Dank für Ihre Nachricht!');
  const mails = await outbox(request, 'support@bewerbungsfoto.example');
  expect(mails.some((m) => m.subject === 'Kontaktanfrage von Erika Muster')).toBe(true);
  await page.getByRole('button', { name: 'Neue Nachricht schreiben' }).click();
  await expect(page.getByTestId('contact-name')).toHaveValue('');
});
