import { expect, test } from 'vitest';
import { LANGUAGES } from '../../domain/catalog.js';
import { renderRefundMail, renderStatusLinkMail, renderWithdrawalReceiptMail } from './service-mails.js';
import { renderContactNote, renderWithdrawalNote } from './staff-mails.js';

const URL_WITH_QUERY = 'https://shop.example/order-status/1?token=abc&lang=en';

test.each(LANGUAGES)('service mails (%s) come from the catalogue, in HTML and text, with escaped links', (language) => {
  const link = renderStatusLinkMail({ language, orderNumber: 'BF-7K3M9Q2X', url: URL_WITH_QUERY, siteName: 'FotoAtelier' });
  expect(link.subject).toContain('BF-7K3M9Q2X');
  expect(link.html).toContain(`lang="${language}"`);
  expect(link.html).toContain('href="https://shop.example/order-status/1?token=abc&amp;lang=en"');
  expect(link.text).toContain(URL_WITH_QUERY);
  expect(link.text).toContain('FotoAtelier');
  expect(link.text).not.toMatch(/\{\w+\}|mail\.statusLink/);

  const refund = renderRefundMail({ language, orderNumber: 'BF-7K3M9Q2X', amountCents: 4489, cancellation: null, siteName: 'FotoAtelier' });
  expect(refund.text).toContain('44,89');
  expect(refund.html).not.toContain('href=');

  const receipt = renderWithdrawalReceiptMail({
    language,
    receivedAt: new Date('2026-03-13T09:30:00Z'),
    name: '<b>Erika</b>\nMustermann',
    reference: 'BF-7K3M9Q2X',
    email: 'kunde@example.de',
    outcome: 'late',
    deadline: '2026-03-26',
    siteName: 'FotoAtelier',
  });
  expect(receipt.html).toContain('&lt;b&gt;Erika&lt;/b&gt;<br/>Mustermann');
  expect(receipt.text).toMatch(/26\.? (de )?(März|March|marzo)( de)? 2026/);
  expect(receipt.text).not.toMatch(/\{\w+\}|withdrawal\.outcome/);
});

test('staff notes escape what customers typed and keep the subject on one line', () => {
  const note = renderContactNote({ language: 'es', name: 'Eve\r\n<script>x</script>', email: 'eve@example.com', message: 'Zeile 1\nZeile 2' });
  expect(note.subject).toBe('Kontaktanfrage von Eve <script>x</script>');
  expect(note.html).not.toContain('<script>');
  expect(note.html).toContain('Zeile 1<br/>Zeile 2');
  expect(note.text).toBe('Neue Nachricht über das Kontaktformular (es).\n\nName: Eve\r\n<script>x</script>\nE-Mail: eve@example.com\n\nZeile 1\nZeile 2\n');
  const withdrawal = renderWithdrawalNote({ receivedAt: '13.03.2026, 10:30', name: 'Erika', orderNumber: null, reference: 'BF-XXXX', email: 'e@example.de', outcome: 'unmatched' });
  expect(withdrawal.subject).toBe('Widerruf eingegangen: BF-XXXX');
  expect(withdrawal.text).toContain('Bestellung: BF-XXXX (keiner Bestellung zugeordnet)');
  expect(withdrawal.html).toContain('BF-XXXX (keiner Bestellung zugeordnet)');
});
