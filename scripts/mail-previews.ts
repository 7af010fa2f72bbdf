// `npx tsx scripts/mail-previews.ts [dir]`: every customer mail in every language, as HTML, plain text and a
// screenshot (Chromium, 700 px wide), from fixed example data. For looking at mails and comparing two versions.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import sharp from 'sharp';
import { LANGUAGES } from '../src/domain/catalog.js';
import { renderOrderReceivedMail, renderPaymentConfirmedMail, renderPaymentFailedMail, renderPhotosReadyMail, renderProductionDelayedMail } from '../src/server/modules/orders/order-mails.js';
import { mailData } from '../src/server/test/order-mail-data.js';
import { renderRefundMail, renderStatusLinkMail, renderWithdrawalReceiptMail } from '../src/server/mail/service-mails.js';

const dir = path.resolve(process.argv[2] ?? 'tmp/mail-previews');
mkdirSync(dir, { recursive: true });

const mails: { name: string; subject: string; html: string; text: string }[] = [];
for (const language of LANGUAGES) {
  const data = mailData(language, { extras: ['extra_variants', 'express_delivery'], discountPercent: 20 });
  const ready = { ...data, deleteAfter: new Date('2026-04-14T10:00:00Z'), revisionUntil: new Date('2026-03-22T10:00:00Z') };
  mails.push({ name: `${language}-order-received`, ...renderOrderReceivedMail(data) });
  mails.push({ name: `${language}-payment-confirmed`, ...renderPaymentConfirmedMail({ ...data, invoiceUrl: 'https://shop.example/invoice/1?token=abc' }) });
  mails.push({ name: `${language}-payment-failed`, ...renderPaymentFailedMail(data) });
  mails.push({ name: `${language}-photos-ready`, ...renderPhotosReadyMail(ready) });
  mails.push({ name: `${language}-photos-ready-one`, ...renderPhotosReadyMail({ ...ready, resultCount: 1 }) });
  mails.push({ name: `${language}-production-delayed`, ...renderProductionDelayedMail({ ...data, dueAt: new Date('2026-03-10T14:00:00Z') }) });
  mails.push({ name: `${language}-redo-delayed`, ...renderProductionDelayedMail({ ...data, dueAt: new Date('2026-03-10T14:00:00Z'), redo: { pictures: 2 } }) });
  const site = data.site.name;
  mails.push({
    name: `${language}-status-link`,
    ...renderStatusLinkMail({ language, orderNumber: data.orderNumber, url: 'https://shop.example/order-status/1?token=abc', siteName: site }),
  });
  mails.push({
    name: `${language}-refund-confirmed`,
    ...renderRefundMail({
      language,
      orderNumber: data.orderNumber,
      amountCents: 4489,
      cancellation: { number: 'RE-2026-000042-S', url: 'https://shop.example/invoice/2?token=abc' },
      siteName: site,
    }),
  });
  mails.push({
    name: `${language}-withdrawal-receipt`,
    ...renderWithdrawalReceiptMail({
      language,
      receivedAt: new Date('2026-03-13T09:30:00Z'),
      name: 'Erika Mustermann',
      reference: data.orderNumber,
      email: data.email,
      outcome: 'late',
      deadline: new Date('2026-03-26T10:00:00Z'),
      siteName: site,
    }),
  });
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
try {
  const page = await browser.newPage({ viewport: { width: 700, height: 800 } });
  for (const mail of mails) {
    writeFileSync(path.join(dir, `${mail.name}.html`), mail.html);
    writeFileSync(path.join(dir, `${mail.name}.txt`), `Subject: ${mail.subject}\n\n${mail.text}`);
    await page.setContent(mail.html);
    await page.screenshot({ path: path.join(dir, `${mail.name}.png`), fullPage: true });
  }
} finally {
  await browser.close();
}

// One contact sheet per language: every mail side by side, half size (docs/mails/ keeps these).
for (const language of LANGUAGES) {
  const names = mails.filter((m) => m.name.startsWith(`${language}-`)).map((m) => m.name);
  const scaled = await Promise.all(
    names.map(async (name) => {
      const image = sharp(path.join(dir, `${name}.png`)).resize({ width: 350 });
      const buffer = await image.png().toBuffer();
      return { buffer, height: (await sharp(buffer).metadata()).height };
    }),
  );
  const height = Math.max(...scaled.map((s) => s.height));
  await sharp({ create: { width: 360 * scaled.length, height, channels: 3, background: '#ffffff' } })
    .composite(scaled.map((s, i) => ({ input: s.buffer, left: i * 360, top: 0 })))
    .png({ palette: true })
    .toFile(path.join(dir, `sheet-${language}.png`));
}
console.log(`${mails.length} mails and a contact sheet per language in ${dir}`);
