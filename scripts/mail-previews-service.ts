// Baseline only: the short service mails as the services build them today.
import type { Language } from '../src/domain/catalog.js';
import { formatDate, formatMoney, formatTime } from '../src/domain/money.js';
import { renderSimpleMail } from '../src/server/mail/simple-mail.js';
import { ALL_MESSAGES } from '../src/i18n/all-messages.js';
import { translate } from '../src/i18n/messages.js';

export function serviceMailPreviews(language: Language) {
  const site = 'FotoAtelier';
  const tl = (key: string, vars?: Record<string, string | number>) => translate(ALL_MESSAGES[language], `tracking.linkMail.${key}`, vars);
  const link = renderSimpleMail({
    language,
    subject: tl('subject', { number: 'BF-7K3M9Q2X' }),
    blocks: [
      { kind: 'paragraph', text: tl('greeting') },
      { kind: 'paragraph', text: tl('intro', { number: 'BF-7K3M9Q2X' }) },
      { kind: 'button', label: tl('button'), url: 'https://shop.example/order-status/1?token=abc' },
      { kind: 'paragraph', text: tl('notYou') },
      { kind: 'paragraph', text: tl('signOff', { site }) },
    ],
  });
  const tr = (key: string, vars?: Record<string, string | number>) => translate(ALL_MESSAGES[language], `withdrawal.refundMail.${key}`, vars);
  const refund = renderSimpleMail({
    language,
    subject: tr('subject', { number: 'BF-7K3M9Q2X' }),
    blocks: [
      { kind: 'paragraph', text: tr('greeting') },
      { kind: 'paragraph', text: tr('intro', { number: 'BF-7K3M9Q2X', amount: formatMoney(4489) }) },
      { kind: 'paragraph', text: tr('timing') },
      { kind: 'paragraph', text: tr('invoice', { invoice: 'RE-2026-000042-S' }) },
      { kind: 'button', label: tr('invoiceButton'), url: 'https://shop.example/invoice/2?token=abc' },
      { kind: 'paragraph', text: tr('signOff', { site }) },
    ],
  });
  const t = (key: string, vars?: Record<string, string | number>) => translate(ALL_MESSAGES[language], `withdrawal.${key}`, vars);
  const at = new Date('2026-03-13T09:30:00Z');
  const receivedAt = `${formatDate(at, language)}, ${formatTime(at, language)}`;
  const receipt = renderSimpleMail({
    language,
    subject: t('mail.subject'),
    blocks: [
      { kind: 'paragraph', text: `${t('refundMail.greeting')}` },
      { kind: 'paragraph', text: t('mail.intro') },
      {
        kind: 'rows',
        rows: [
          [t('mail.received'), receivedAt],
          [t('mail.name'), 'Erika Mustermann'],
          [t('mail.reference'), 'BF-7K3M9Q2X'],
          [t('mail.email'), 'kunde@example.de'],
          [t('mail.statement'), t('statement')],
        ],
      },
      { kind: 'paragraph', text: t('outcome.late', { deadline: formatDate(new Date('2026-03-26T10:00:00Z'), language) }) },
      { kind: 'paragraph', text: t('refundMail.signOff', { site }) },
    ],
  });
  return [
    { name: 'status-link', ...link },
    { name: 'refund-confirmed', ...refund },
    { name: 'withdrawal-receipt', ...receipt },
  ];
}
