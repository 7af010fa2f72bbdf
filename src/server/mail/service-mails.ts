// The short customer mails outside the order flow: a fresh status link, a refund, the receipt of a withdrawal.
// Every text comes from the catalogues in src/i18n ("mail.statusLink", "mail.refund", "mail.withdrawalReceipt").
import type { Language } from '../../domain/catalog.js';
import { formatMoney } from '../../domain/money.js';
import { formatDate, formatTime } from '../../domain/dates.js';
import { textsIn } from '../../i18n/all-messages.js';
import { renderServiceMail } from './service-mail.js';
import type { RedoChange } from '../../studio/redo-reason.js';

/** A link to the order status page, asked for on the tracking page. */
export function renderStatusLinkMail(input: { language: Language; orderNumber: string; url: string; siteName: string }) {
  const t = textsIn(input.language, 'mail.statusLink');
  return renderServiceMail({
    language: input.language,
    subject: t('subject', { number: input.orderNumber }),
    blocks: [
      { kind: 'paragraph', text: t('greeting') },
      { kind: 'paragraph', text: t('intro', { number: input.orderNumber }) },
      { kind: 'button', label: t('button'), url: input.url },
      { kind: 'paragraph', text: t('notYou') },
      { kind: 'paragraph', text: t('signOff', { site: input.siteName }) },
    ],
  });
}

/** Money paid back, with the cancellation invoice when there is one. */
export function renderRefundMail(input: {
  language: Language;
  orderNumber: string;
  amountCents: number;
  cancellation: { number: string; url: string } | null;
  siteName: string;
}) {
  const t = textsIn(input.language, 'mail.refund');
  return renderServiceMail({
    language: input.language,
    subject: t('subject', { number: input.orderNumber }),
    blocks: [
      { kind: 'paragraph', text: t('greeting') },
      { kind: 'paragraph', text: t('intro', { number: input.orderNumber, amount: formatMoney(input.amountCents) }) },
      { kind: 'paragraph', text: t('timing') },
      ...(input.cancellation
        ? [
            { kind: 'paragraph' as const, text: t('invoice', { invoice: input.cancellation.number }) },
            { kind: 'button' as const, label: t('invoiceButton'), url: input.cancellation.url },
          ]
        : []),
      { kind: 'paragraph', text: t('signOff', { site: input.siteName }) },
    ],
  });
}


/** The receipt of a withdrawal declared on the "Vertrag widerrufen" page (§ 356a BGB), with what happens next. */
export function renderWithdrawalReceiptMail(input: {
  language: Language;
  receivedAt: Date;
  name: string;
  reference: string;
  email: string;
  outcome: string;
  /** The end of the withdrawal period (a day, "2026-03-26"), when the order is known. */
  deadline: Date | string | null;
  siteName: string;
}) {
  const { language } = input;
  const t = textsIn(language, 'mail');
  const page = textsIn(language, 'withdrawal');
  return renderServiceMail({
    language,
    subject: t('withdrawalReceipt.subject'),
    blocks: [
      { kind: 'paragraph', text: t('refund.greeting') },
      { kind: 'paragraph', text: t('withdrawalReceipt.intro') },
      {
        kind: 'rows',
        rows: [
          [t('withdrawalReceipt.received'), receivedAtText(input.receivedAt, language)],
          [t('withdrawalReceipt.name'), input.name],
          [t('withdrawalReceipt.reference'), input.reference],
          [t('withdrawalReceipt.email'), input.email],
          [t('withdrawalReceipt.statement'), page('statement')],
        ],
      },
      { kind: 'paragraph', text: page(`outcome.${input.outcome}`, { deadline: input.deadline ? formatDate(input.deadline, language) : '' }) },
      { kind: 'paragraph', text: t('refund.signOff', { site: input.siteName }) },
    ],
  });
}

/** "12.03.2026, 10:30": when a declaration arrived, as the receipt and the staff note show it. */
export function receivedAtText(at: Date, language: Language): string {
  return `${formatDate(at, language)}, ${formatTime(at, language)}`;
}

/** The acknowledgement of a redo request: how many pictures, when the new ones are due, the customer's reason. */
export function renderRevisionReceivedMail(input: {
  language: Language;
  orderNumber: string;
  pictures: number;
  dueAt: Date;
  reason: string;
  /** What the studio changes in the new pictures, read from the reason (redo-reason.ts); none where it read nothing. */
  changes?: readonly RedoChange[];
  /** Staff make this order's pictures by hand (no studio or generator run starts). */
  byHand: boolean;
  url: string;
  siteName: string;
}) {
  const t = textsIn(input.language, 'mail.revision');
  return renderServiceMail({
    language: input.language,
    subject: t('receivedSubject', { number: input.orderNumber }),
    blocks: [
      { kind: 'paragraph', text: t('greeting') },
      { kind: 'paragraph', text: t(input.pictures === 1 ? 'receivedIntroOne' : 'receivedIntro', { number: input.orderNumber, n: input.pictures }) },
      ...(input.reason ? [{ kind: 'rows' as const, rows: [[t('reason'), input.reason]] as [string, string][] }] : []),
      ...(input.changes?.length
        ? [{ kind: 'paragraph' as const, text: `${t('changesIntro')} ${input.changes.map((change) => t(`change.${change}`)).join('; ')}.` }]
        : []),
      { kind: 'paragraph', text: t(input.byHand ? 'receivedNextByHand' : 'receivedNext') },
      { kind: 'paragraph', text: t('receivedDue', { date: formatDate(input.dueAt, input.language), time: formatTime(input.dueAt, input.language) }) },
      { kind: 'button', label: t('button'), url: input.url },
      { kind: 'paragraph', text: t('signOff', { site: input.siteName }) },
    ],
  });
}

/** Staff's answer when they close a redo request: their message, and where the pictures are. */
export function renderRevisionAnsweredMail(input: { language: Language; orderNumber: string; answer: string; newPictures: number; url: string; siteName: string }) {
  const t = textsIn(input.language, 'mail.revision');
  return renderServiceMail({
    language: input.language,
    subject: t('answeredSubject', { number: input.orderNumber }),
    blocks: [
      { kind: 'paragraph', text: t('greeting') },
      {
        kind: 'paragraph',
        text: input.newPictures === 0 ? t('answeredIntroNone', { number: input.orderNumber }) : t(input.newPictures === 1 ? 'answeredIntroOne' : 'answeredIntro', { number: input.orderNumber, n: input.newPictures }),
      },
      { kind: 'rows', rows: [[t('answer'), input.answer]] },
      { kind: 'button', label: t('answeredButton'), url: input.url },
      { kind: 'paragraph', text: t('signOff', { site: input.siteName }) },
    ],
  });
}
