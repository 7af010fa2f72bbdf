// The invoice as a PDF (A4, pdf-lib). The font is DejaVu Sans, embedded as a subset: unlike the standard
// Helvetica it prints every Latin, Greek and Cyrillic name (Łukasz, Yılmaz, Ζωή, Ольга). Everything printed
// comes from the invoice row, never from today's settings.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type fontkitModule from '@pdf-lib/fontkit';
import type { PDFFont, PDFPage, RGB } from 'pdf-lib';
import type { Language } from '../../../domain/catalog.js';
import { isReverseCharge, type InvoiceKind, type InvoiceLine, type InvoiceParty, type InvoiceSeller } from '../../../domain/invoice.js';
import { formatMoney } from '../../../domain/money.js';
import { formatDate } from '../../../domain/dates.js';
import { textsIn } from '../../../i18n/all-messages.js';
import { PROJECT_ROOT } from '../../paths.js';
import { createSlots } from '../../slots.js';

const FONTS_DIR = path.join(PROJECT_ROOT, 'src/server/modules/invoices/fonts');
let fonts: Promise<{ regular: Buffer; bold: Buffer }> | null = null;
function fontFiles() {
  fonts ??= Promise.all([readFile(path.join(FONTS_DIR, 'DejaVuSans.ttf')), readFile(path.join(FONTS_DIR, 'DejaVuSans-Bold.ttf'))]).then(
    ([regular, bold]) => ({ regular, bold }),
    (error: unknown) => {
      fonts = null; // tried again next time
      throw error;
    },
  );
  return fonts;
}

export interface PrintableInvoice {
  number: string;
  kind: InvoiceKind;
  language: Language;
  issuedAt: Date;
  serviceDate: string;
  orderNumber: string;
  seller: InvoiceSeller;
  customer: InvoiceParty;
  lines: InvoiceLine[];
  netCents: number;
  vatCents: number;
  grossCents: number;
  vatRatePercent: number;
  /** The corrected invoice, for a cancellation invoice. */
  corrects: { number: string; issuedAt: Date } | null;
  /** How it was paid (or refunded), when. */
  settlement: { provider: string; at: Date } | null;
}

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 56;

/**
 * pdf-lib and fontkit load with the first invoice, not with every process: about 5 MB of code and source text
 * a web process at rest does not need.
 */
let pdfModules: Promise<{ PDFDocument: typeof import('pdf-lib').PDFDocument; rgb: typeof import('pdf-lib').rgb; fontkit: typeof fontkitModule }> | null = null;
function loadPdfModules() {
  pdfModules ??= Promise.all([import('pdf-lib'), import('@pdf-lib/fontkit')]).then(
    ([pdfLib, fontkit]) => ({ PDFDocument: pdfLib.PDFDocument, rgb: pdfLib.rgb, fontkit: fontkit.default }),
    (error: unknown) => {
      pdfModules = null;
      throw error;
    },
  );
  return pdfModules;
}

/** Splits text into lines that fit the width (word by word). */
function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const word of paragraph.split(/\s+/)) {
      const next = line ? `${line} ${word}` : word;
      if (font.widthOfTextAtSize(next, size) > width && line) {
        lines.push(line);
        line = word;
      } else line = next;
    }
    lines.push(line);
  }
  return lines;
}

/**
 * Invoices laid out at once. Each holds about 3 MB of JavaScript objects while it is made (fontkit's parsed fonts,
 * pdf-lib's document): 30 at once took 100 MB of heap, and a web process caps its heap at 128 MB (README,
 * production commands). More wait for a slot (one takes 0.1–0.2 s).
 */
const MAX_PARALLEL_INVOICES = 4;
const withInvoiceSlot = createSlots(MAX_PARALLEL_INVOICES);

export function renderInvoicePdf(invoice: PrintableInvoice): Promise<Buffer> {
  return withInvoiceSlot(() => layOut(invoice));
}

async function layOut(invoice: PrintableInvoice): Promise<Buffer> {
  const t = textsIn(invoice.language, 'invoice');
  const date = (value: Date | string) => formatDate(value, invoice.language);
  const { PDFDocument, rgb, fontkit } = await loadPdfModules();
  const INK = rgb(0.06, 0.09, 0.16);
  const SOFT = rgb(0.35, 0.4, 0.47);
  const doc = await PDFDocument.create();
  doc.registerFontkit(fontkit);
  const files = await fontFiles();
  const regular = await doc.embedFont(files.regular, { subset: true });
  const bold = await doc.embedFont(files.bold, { subset: true });
  const title = invoice.kind === 'invoice' ? t('title') : t('cancellationTitle');
  doc.setTitle(`${title} ${invoice.number}`);
  doc.setAuthor(invoice.seller.legalName);
  doc.setLanguage(invoice.language);
  doc.setCreationDate(invoice.issuedAt);
  doc.setModificationDate(invoice.issuedAt);
  const page: PDFPage = doc.addPage(A4);
  const width = A4[0] - 2 * MARGIN;
  let y = A4[1] - MARGIN;

  const text = (value: string, options: { x?: number; size?: number; font?: PDFFont; color?: RGB; right?: number } = {}) => {
    const size = options.size ?? 10;
    const font = options.font ?? regular;
    const x = options.right !== undefined ? options.right - font.widthOfTextAtSize(value, size) : (options.x ?? MARGIN);
    page.drawText(value, { x, y, size, font, color: options.color ?? INK });
  };
  const nextLine = (size = 10, gap = 4) => {
    y -= size + gap;
  };

  // The seller, top left; the document's key data, top right.
  const sellerLines = [invoice.seller.legalName, ...(invoice.seller.address ? invoice.seller.address.split(/,\s*/) : []), `${t('email')}: ${invoice.seller.email}`, ...(invoice.seller.phone ? [`${t('phone')}: ${invoice.seller.phone}`] : [])];
  const facts: [string, string][] = [
    [t('number'), invoice.number],
    [t('date'), date(invoice.issuedAt)],
    [t(invoice.customer.kind === 'business' ? 'serviceDateTeam' : 'serviceDate'), date(invoice.serviceDate)],
    [t('orderNumber'), invoice.orderNumber],
  ];
  const top = y;
  sellerLines.forEach((line, index) => {
    const [font, size] = index === 0 ? [bold, 11] : [regular, 9.5];
    for (const part of wrap(line, font, size, width * 0.48)) {
      text(part, { font, size });
      nextLine(size, 3);
    }
  });
  const afterSeller = y;
  y = top;
  for (const [label, value] of facts) {
    text(label, { x: MARGIN + width * 0.52, size: 9.5, color: SOFT });
    text(value, { right: MARGIN + width, size: 9.5, font: bold });
    nextLine(9.5, 4);
  }
  y = Math.min(afterSeller, y) - 28;

  text(t('recipient'), { size: 9, color: SOFT });
  nextLine(9, 4);
  const customerLines = [
    invoice.customer.name,
    ...(invoice.customer.address ? invoice.customer.address.split(/\n|,\s*/) : []),
    // A business buyer's VAT ID, under its address (§ 14a (1) UStG wants it where the buyer owes the tax).
    invoice.customer.vatId ? t('customerVatId', { value: invoice.customer.vatId }) : null,
    invoice.customer.email,
  ].filter((v): v is string => Boolean(v));
  for (const line of customerLines) {
    for (const part of wrap(line, regular, 10.5, width * 0.6)) {
      text(part, { size: 10.5 });
      nextLine(10.5, 3);
    }
  }
  y -= 24;

  text(`${title} ${invoice.number}`, { size: 17, font: bold });
  nextLine(17, 8);
  if (invoice.corrects) {
    text(t('corrects', { number: invoice.corrects.number, date: date(invoice.corrects.issuedAt) }), { size: 10, color: SOFT });
    nextLine(10, 8);
  }
  y -= 6;

  // The lines: position, service, amount (gross).
  const amountRight = MARGIN + width;
  const descriptionX = MARGIN + 34;
  text(t('position'), { size: 9, font: bold, color: SOFT });
  text(t('description'), { x: descriptionX, size: 9, font: bold, color: SOFT });
  text(t('amount'), { right: amountRight, size: 9, font: bold, color: SOFT });
  y -= 6;
  page.drawLine({ start: { x: MARGIN, y }, end: { x: MARGIN + width, y }, thickness: 0.6, color: SOFT });
  y -= 15;
  invoice.lines.forEach((line, index) => {
    text(String(index + 1), { size: 10 });
    text(formatMoney(line.grossCents), { right: amountRight, size: 10 });
    for (const [i, part] of wrap(line.description, regular, 10, width - 34 - 90).entries()) {
      if (i > 0) nextLine(10, 3);
      text(part, { x: descriptionX, size: 10 });
    }
    nextLine(10, 8);
  });
  page.drawLine({ start: { x: MARGIN, y: y + 10 }, end: { x: MARGIN + width, y: y + 10 }, thickness: 0.6, color: SOFT });
  y -= 6;

  // Totals: net, VAT, gross.
  const labelX = MARGIN + width * 0.5;
  for (const [label, cents, strong] of [
    [t('net'), invoice.netCents, false],
    [t('vat', { rate: invoice.vatRatePercent }), invoice.vatCents, false],
    [t('gross'), invoice.grossCents, true],
  ] as const) {
    text(label, { x: labelX, size: strong ? 11 : 10, font: strong ? bold : regular });
    text(formatMoney(cents), { right: amountRight, size: strong ? 11 : 10, font: strong ? bold : regular });
    nextLine(strong ? 11 : 10, 6);
  }
  y -= 10;
  if (isReverseCharge(invoice.customer)) {
    // Instead of the VAT: the statement that the buyer owes it (§ 14a (1) UStG, Art. 226 no. 11a MwStSystRL).
    for (const part of wrap(t('reverseChargeNote'), bold, 9.5, width)) {
      text(part, { size: 9.5, font: bold });
      nextLine(9.5, 3);
    }
    y -= 3;
  } else {
    text(t('pricesNote'), { size: 9, color: SOFT });
    nextLine(9, 6);
  }
  if (invoice.settlement) {
    text(t(invoice.kind === 'invoice' ? 'paid' : 'refunded', { date: date(invoice.settlement.at), provider: invoice.settlement.provider }), { size: 9.5 });
    nextLine(9.5, 6);
  }

  // Footer: the seller's tax and register details.
  const footer = [
    invoice.seller.legalName,
    invoice.seller.vatId ? t('vatId', { value: invoice.seller.vatId }) : null,
    invoice.seller.taxNumber ? t('taxNumber', { value: invoice.seller.taxNumber }) : null,
    invoice.seller.registerEntry ? t('register', { value: invoice.seller.registerEntry }) : null,
  ].filter((v): v is string => Boolean(v));
  // Whole entries per line, so none is split.
  const footerLines: string[] = [];
  for (const entry of footer) {
    const last = footerLines.at(-1);
    if (last !== undefined && regular.widthOfTextAtSize(`${last} · ${entry}`, 8) <= width) footerLines[footerLines.length - 1] = `${last} · ${entry}`;
    else footerLines.push(entry);
  }
  y = MARGIN + (footerLines.length - 1) * 11;
  page.drawLine({ start: { x: MARGIN, y: y + 14 }, end: { x: MARGIN + width, y: y + 14 }, thickness: 0.4, color: SOFT });
  for (const line of footerLines) {
    text(line, { size: 8, color: SOFT });
    nextLine(8, 3);
  }
  return Buffer.from(await doc.save());
}
