// Customer e-mails of the order flow (docs/rules.md §4 and §7): the order confirmation sent
// when the contract is formed, the payment confirmation, the failed-payment notice and the notice
// that the finished photos are ready to download. Each is a list of blocks, rendered as HTML and as
// plain text in the customer's language; every text comes from the catalogues in src/i18n ("mail").
import { createElement } from 'react';
import { OUTPUT_DPI, PACKAGES, RETENTION, type Language } from '../../../domain/catalog.js';
import { formatMoney, localeFor } from '../../../domain/money.js';
import { SHOP_TIME_ZONE, formatDate } from '../../../domain/dates.js';
import { textsIn, type Texts } from '../../../i18n/all-messages.js';
import { oneLineSubject, renderMailText, type Block, type MailLayout, type RenderedMail } from '../../mail/mail-blocks.js';
import { MailDocument, renderMailHtml } from '../../mail/mail-document.js';

export type { RenderedMail } from '../../mail/mail-blocks.js';

type ExtraName = 'extra_variants' | 'express_delivery';

export interface OrderMailData {
  language: Language;
  orderNumber: string;
  email: string;
  package: 'basic' | 'pro' | 'premium';
  style: 'professional' | 'casual' | 'creative' | null;
  location: 'office' | 'studio' | 'creative' | null;
  outfit: 'business' | 'smart_casual' | 'casual' | null;
  /** Whether the pictures can show new outfits (a generator makes them); else no outfit is promised. */
  newOutfits: boolean;
  gender: 'male' | 'female' | 'diverse' | null;
  extras: ExtraName[];
  /** Uploaded selfies. */
  photoCount: number;
  prices: {
    packageListCents: number;
    discountPercent: number;
    discountCents: number;
    packageCents: number;
    extras: { key: ExtraName; cents: number }[];
    netCents: number;
    vatCents: number;
    vatRatePercent: number;
    grossCents: number;
  };
  /** The package's delivery time in hours, 6 with express. */
  deliveryHours: number;
  /** The invoice PDF (signed link), in the payment confirmation. */
  invoiceUrl?: string | null;
  /** Images the customer will get. */
  resultCount: number;
  orderedAt: Date;
  paidAt: Date | null;
  /** The exact consent text the customer ticked, with its version. */
  waiver: { acceptedAt: Date; textVersion: string; text: string } | null;
  /** Signed link to the order status page. */
  statusUrl: string;
  /** AGB. */
  termsUrl: string;
  privacyUrl: string;
  /** The "Vertrag widerrufen" page (§ 356a BGB). */
  withdrawalUrl: string;
  site: { name: string; legalName: string; supportEmail: string; address: string | null; phone: string | null };
}

type TemplateName = 'order-received' | 'payment-confirmed' | 'payment-failed' | 'photos-ready' | 'production-delayed' | 'redo-delayed';

const SUBJECT_KEYS: Record<TemplateName, string> = {
  'order-received': 'subject.orderReceived',
  'payment-confirmed': 'subject.paymentConfirmed',
  'payment-failed': 'subject.paymentFailed',
  'photos-ready': 'subject.photosReady',
  'production-delayed': 'subject.productionDelayed',
  'redo-delayed': 'subject.redoDelayed',
};

// ---------------------------------------------------------------------------------------------
// Shared sections.

interface Context {
  data: OrderMailData;
  /** The mail texts ("mail.…") in the customer's language. */
  t: Texts;
  /** Names from the catalogue ("catalog.…"): packages, extras, styles. */
  name: Texts;
}

function context(data: OrderMailData): Context {
  return { data, t: textsIn(data.language, 'mail'), name: textsIn(data.language, 'catalog') };
}

/** Date and time in the shop's time zone, with the zone's name (MEZ/MESZ, CET/CEST). */
export function formatDateTime(date: Date, language: Language): string {
  return new Intl.DateTimeFormat(localeFor(language), {
    timeZone: SHOP_TIME_ZONE,
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'short',
  }).format(date);
}

function oneLine(value: string): string {
  return value
    .split(/\r?\n/)
    .map((part) => part.trim())
    .filter(Boolean)
    .join(', ');
}

function deliveryText({ data, t, name }: Context): string {
  const definition = PACKAGES[data.package];
  const mode = definition.includesExpress ? 'expressIncluded' : data.extras.includes('express_delivery') ? 'express' : 'standard';
  return t('summary.deliveryValue', { hours: t('hours', { n: data.deliveryHours }), mode, express: name('extras.express_delivery.name') });
}

function scopeText({ data, t }: Context): string {
  const definition = PACKAGES[data.package];
  const parts = [
    t('features.photos', { n: data.resultCount, dpi: OUTPUT_DPI }),
    ...(data.newOutfits ? [t('features.outfits', { n: definition.outfits })] : []),
    t('features.backgrounds', { n: definition.backgrounds }),
  ];
  if (definition.colourAdjustment) parts.push(t('features.colourAdjustment'));
  if (definition.commercialLicense) parts.push(t('features.commercialLicence'));
  return parts.join(', ');
}

function extrasText({ data, t, name }: Context): string {
  return data.extras.length === 0 ? t('none') : data.extras.map((key) => name(`extras.${key}.name`)).join(', ');
}

function summaryBlocks(ctx: Context, full: boolean): Block[] {
  const { data, t, name } = ctx;
  const s = (key: string) => t(`summary.${key}`);
  const rows: { label: string; value: string }[] = [
    { label: s('orderNumber'), value: data.orderNumber },
    { label: s('orderedAt'), value: formatDateTime(data.orderedAt, data.language) },
    { label: s('email'), value: data.email },
    { label: s('package'), value: name(`packages.${data.package}.name`) },
  ];
  if (full) {
    rows.push({ label: s('scope'), value: scopeText(ctx) });
    rows.push({ label: s('uploads'), value: t('selfies', { n: data.photoCount }) });
    if (data.gender) rows.push({ label: s('gender'), value: name(`genders.${data.gender}`) });
    if (data.style) rows.push({ label: s('style'), value: name(`styles.${data.style}.name`) });
    if (data.location) rows.push({ label: s('location'), value: name(`locations.${data.location}.name`) });
    if (data.outfit && data.newOutfits) rows.push({ label: s('outfit'), value: name(`outfits.${data.outfit}.name`) });
  }
  rows.push({ label: s('extras'), value: extrasText(ctx) });
  // What "business hours" means, as the pages say it (domain/business-hours.ts).
  rows.push({ label: s('delivery'), value: `${deliveryText(ctx)}. ${textsIn(ctx.data.language)('common.businessHoursRule')}` });
  return [
    { kind: 'heading', text: s('heading') },
    { kind: 'rows', rows },
  ];
}

function priceBlocks({ data, t, name }: Context): Block[] {
  const p = data.prices;
  const rows: { label: string; value: string; strong?: boolean }[] = [
    { label: name(`packages.${data.package}.name`), value: formatMoney(p.packageListCents) },
  ];
  if (p.discountCents > 0) rows.push({ label: t('prices.discount', { percent: p.discountPercent }), value: formatMoney(-p.discountCents) });
  for (const extra of p.extras) rows.push({ label: name(`extras.${extra.key}.name`), value: formatMoney(extra.cents) });
  rows.push({ label: t('prices.net'), value: formatMoney(p.netCents) });
  rows.push({ label: t('prices.vat', { rate: p.vatRatePercent }), value: formatMoney(p.vatCents) });
  rows.push({ label: t('prices.total'), value: formatMoney(p.grossCents), strong: true });
  return [
    { kind: 'heading', text: t('prices.heading') },
    { kind: 'rows', rows, amounts: true },
  ];
}

function statusBlocks({ data, t }: Context): Block[] {
  return [
    { kind: 'heading', text: t('status.heading') },
    { kind: 'paragraph', text: t('status.intro') },
    { kind: 'button', label: t('status.button'), url: data.statusUrl, fallback: t('fallbackLink') },
    { kind: 'paragraph', text: t('status.personal') },
  ];
}

function legalBlocks({ data, t }: Context): Block[] {
  const { site } = data;
  const contact = [
    site.legalName,
    site.address ? oneLine(site.address) : null,
    site.phone ? `${t('footer.phone')} ${site.phone}` : null,
    `${t('footer.email')} ${site.supportEmail}`,
  ]
    .filter((part): part is string => part !== null && part !== '')
    .join(', ');
  const w = (key: string, vars?: Record<string, string>) => t(`withdrawal.${key}`, vars);
  const blocks: Block[] = [
    { kind: 'heading', text: w('heading') },
    { kind: 'subheading', text: w('rightHeading') },
    { kind: 'paragraph', text: w('right') },
    { kind: 'paragraph', text: w('how', { contact, support: site.supportEmail, online: data.withdrawalUrl }) },
    { kind: 'subheading', text: w('consequencesHeading') },
    { kind: 'paragraph', text: w('consequences') },
    { kind: 'subheading', text: w('expiryHeading') },
    { kind: 'paragraph', text: w('expiry') },
    { kind: 'heading', text: t('waiver.heading') },
  ];
  if (data.waiver) {
    blocks.push(
      {
        kind: 'paragraph',
        text: t('waiver.recorded', { dateTime: formatDateTime(data.waiver.acceptedAt, data.language), version: data.waiver.textVersion }),
      },
      { kind: 'quote', text: data.waiver.text },
    );
  } else {
    blocks.push({ kind: 'paragraph', text: t('waiver.none') });
  }
  blocks.push({ kind: 'link', label: t('terms.text'), url: data.termsUrl });
  return blocks;
}

function layout(ctx: Context, template: TemplateName, preheader: string, blocks: Block[]): RenderedMail {
  const { data, t } = ctx;
  const { site } = data;
  const subject = oneLineSubject(t(SUBJECT_KEYS[template], { number: data.orderNumber }));
  const page: MailLayout = {
    language: data.language,
    subject,
    preheader,
    siteName: site.name,
    blocks: [
      { kind: 'paragraph', text: t('greeting') },
      ...blocks,
      { kind: 'paragraph', text: `${t('signOff')}\n${t('team', { site: site.name })}` },
    ],
    footer: {
      lines: [
        [site.legalName, site.address ? oneLine(site.address) : null, site.phone ? `${t('footer.phone')} ${site.phone}` : null]
          .filter((part): part is string => Boolean(part))
          .join(' · '),
        t('footer.sentTo', { email: data.email, site: site.name }),
      ],
      mailto: { label: t('footer.email'), address: site.supportEmail },
      links: [
        { label: t('footer.terms'), url: data.termsUrl },
        { label: t('footer.privacy'), url: data.privacyUrl },
      ],
    },
  };
  return { subject, html: renderMailHtml(createElement(MailDocument, { layout: page })), text: renderMailText(page), template };
}

// ---------------------------------------------------------------------------------------------
// The mails.

/** Sent right after "Zahlungspflichtig bestellen": the contract is formed, payment is pending. */
export function renderOrderReceivedMail(data: OrderMailData): RenderedMail {
  const ctx = context(data);
  const { t } = ctx;
  return layout(ctx, 'order-received', t('received.preheader', { number: data.orderNumber }), [
    {
      kind: 'paragraph',
      text: t('received.intro', { site: data.site.name, button: t('orderButton'), dateTime: formatDateTime(data.orderedAt, data.language) }),
    },
    { kind: 'heading', text: t('received.pendingHeading') },
    { kind: 'paragraph', text: t('received.pending') },
    ...summaryBlocks(ctx, true),
    ...priceBlocks(ctx),
    ...statusBlocks(ctx),
    ...legalBlocks(ctx),
  ]);
}

/** Sent once the payment provider confirmed the payment; repeats the contract data (docs/rules.md §4). */
export function renderPaymentConfirmedMail(data: OrderMailData): RenderedMail {
  const ctx = context(data);
  const c = (key: string, vars?: Record<string, string | number>) => ctx.t(`confirmed.${key}`, vars);
  const paid: { label: string; value: string }[] = [{ label: c('paidAmount'), value: formatMoney(data.prices.grossCents) }];
  if (data.paidAt) paid.push({ label: c('paidAt'), value: formatDateTime(data.paidAt, data.language) });
  const next = { results: data.resultCount, selfies: ctx.t('selfies', { n: data.photoCount }), delivery: deliveryText(ctx) };
  return layout(ctx, 'payment-confirmed', c('preheader', { number: data.orderNumber }), [
    { kind: 'paragraph', text: c('intro') },
    { kind: 'rows', rows: paid },
    ...(data.invoiceUrl
      ? [
          { kind: 'paragraph' as const, text: c('invoice') },
          { kind: 'button' as const, label: c('invoiceButton'), url: data.invoiceUrl, fallback: ctx.t('fallbackLink') },
        ]
      : []),
    { kind: 'heading', text: c('nextHeading') },
    { kind: 'list', ordered: true, items: [c('next.create', next), c('next.check', next), c('next.download', next)] },
    ...statusBlocks(ctx),
    { kind: 'heading', text: c('goodToKnowHeading') },
    { kind: 'list', items: [c('retouch', { days: RETENTION.revisionDays }), c('deletion', { days: RETENTION.daysAfterCompletion })] },
    { kind: 'paragraph', text: c('contractNote') },
    ...summaryBlocks(ctx, true),
    ...priceBlocks(ctx),
    ...legalBlocks(ctx),
  ]);
}

/** The payment did not go through: nothing was charged, here is how to try again. */
export function renderPaymentFailedMail(data: OrderMailData & { retryUrl: string }): RenderedMail {
  const ctx = context(data);
  const f = (key: string, vars?: Record<string, string | number>) => ctx.t(`failed.${key}`, vars);
  return layout(ctx, 'payment-failed', f('preheader', { number: data.orderNumber }), [
    { kind: 'paragraph', text: f('intro', { number: data.orderNumber }) },
    { kind: 'paragraph', text: f('reasons') },
    { kind: 'button', label: f('retryButton'), url: data.retryUrl, fallback: ctx.t('fallbackLink') },
    { kind: 'paragraph', text: f('afterPayment') },
    ...summaryBlocks(ctx, false),
    ...priceBlocks(ctx),
    ...statusBlocks(ctx),
    { kind: 'paragraph', text: f('help', { support: data.site.supportEmail }) },
  ]);
}

/**
 * Sent when the finished photos have been checked by a person and released: where to download them,
 * when they are deleted and until when free retouching can be requested. Dates are the status page's.
 */
export function renderPhotosReadyMail(data: OrderMailData & { resultCount: number; deleteAfter: Date; revisionUntil: Date }): RenderedMail {
  const ctx = context(data);
  const r = (key: string, vars?: Record<string, string | number>) => ctx.t(`ready.${key}`, vars);
  return layout(ctx, 'photos-ready', r('preheader', { number: data.orderNumber }), [
    { kind: 'paragraph', text: r('intro', { orderNumber: data.orderNumber, photos: ctx.t('photos', { n: data.resultCount }) }) },
    { kind: 'paragraph', text: r('checked') },
    { kind: 'heading', text: r('downloadHeading') },
    { kind: 'paragraph', text: r('download') },
    { kind: 'button', label: r('button'), url: data.statusUrl, fallback: ctx.t('fallbackLink') },
    { kind: 'paragraph', text: ctx.t('status.personal') },
    { kind: 'heading', text: r('deletionHeading') },
    { kind: 'paragraph', text: r('deletion', { date: formatDate(data.deleteAfter, data.language) }) },
    { kind: 'heading', text: r('revisionHeading') },
    { kind: 'paragraph', text: r('revision', { date: formatDate(data.revisionUntil, data.language) }) },
    { kind: 'paragraph', text: r('help', { support: data.site.supportEmail, orderNumber: data.orderNumber }) },
  ]);
}

/**
 * Sent once when the promised delivery time has passed and the photos are not released (delay-notices.ts):
 * staff look after the order (their dashboard lists it as overdue); the customer may say they no longer wait.
 * With `redo`, the same for pictures the customer asked to have made again, past the redo's own due time.
 */
export function renderProductionDelayedMail(data: OrderMailData & { dueAt: Date; redo?: { pictures: number } }): RenderedMail {
  const ctx = context(data);
  const d = (key: string, vars?: Record<string, string | number>) => ctx.t(`delayed.${key}`, vars);
  const date = formatDateTime(data.dueAt, data.language);
  const [template, preheader, intro] = data.redo
    ? (['redo-delayed', d('redoPreheader', { number: data.orderNumber }), d(data.redo.pictures === 1 ? 'redoIntroOne' : 'redoIntro', { orderNumber: data.orderNumber, date, n: data.redo.pictures })] as const)
    : (['production-delayed', d('preheader', { number: data.orderNumber }), d('intro', { orderNumber: data.orderNumber, date })] as const);
  return layout(ctx, template, preheader, [
    { kind: 'paragraph', text: intro },
    { kind: 'paragraph', text: d('team') },
    { kind: 'paragraph', text: d('wait', { support: data.site.supportEmail, orderNumber: data.orderNumber }) },
    { kind: 'paragraph', text: d('status') },
    { kind: 'button', label: ctx.t('status.button'), url: data.statusUrl, fallback: ctx.t('fallbackLink') },
    { kind: 'paragraph', text: ctx.t('status.personal') },
  ]);
}
