import { expect, test } from 'vitest';
import { LANGUAGES, type Language } from '../../../domain/catalog.js';
import { formatMoney } from '../../../domain/money.js';
import { formatDate } from '../../../domain/dates.js';
import {
  formatDateTime,
  renderOrderReceivedMail,
  renderPaymentConfirmedMail,
  renderPaymentFailedMail,
  renderPhotosReadyMail,
  type OrderMailData,
  type RenderedMail,
} from './order-mails.js';
import { PRIVACY_URL, RETRY_URL, STATUS_URL, TERMS_URL, WAIVER_TEXTS, WITHDRAWAL_URL, mailData } from '../../test/order-mail-data.js';

const RENDERERS = {
  'order-received': renderOrderReceivedMail,
  'payment-confirmed': renderPaymentConfirmedMail,
  'payment-failed': renderPaymentFailedMail,
} as const;
type TemplateName = keyof typeof RENDERERS;
const TEMPLATES = Object.keys(RENDERERS) as TemplateName[];

function render(template: TemplateName, data: OrderMailData & { retryUrl: string }): RenderedMail {
  return RENDERERS[template](data);
}

/** What the HTML must contain for a value: its escaped form. */
function html(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const VAT_LABEL: Record<Language, string> = { de: '19 % MwSt.', en: 'VAT 19%', es: 'IVA 19 %' };
const TOTAL_LABEL: Record<Language, string> = { de: 'Gesamtbetrag inkl. MwSt.', en: 'Total incl. VAT', es: 'Total IVA incluido' };
const WITHDRAWAL_HEADING: Record<Language, string> = {
  de: 'Widerrufsbelehrung',
  en: 'Information on your right of withdrawal',
  es: 'Información sobre el derecho de desistimiento',
};
const PACKAGE_NAME: Record<Language, string> = { de: 'Pro Paket', en: 'Pro package', es: 'Paquete Pro' };
const EXPRESS_NAME: Record<Language, string> = { de: 'Express-Lieferung', en: 'Express delivery', es: 'Entrega exprés' };
const DISCOUNT_LABEL: Record<Language, string> = { de: 'Aktionsrabatt 20 %', en: 'Campaign discount 20%', es: 'Descuento de campaña 20 %' };

for (const language of LANGUAGES) {
  for (const template of TEMPLATES) {
    test(`${template} (${language}): subject, total, VAT, status link`, () => {
      const data = mailData(language, { extras: ['extra_variants'] });
      const mail = render(template, data);
      expect(mail.template).toBe(template);
      expect(mail.subject).toContain('BF-7K3M9Q2X');
      expect(mail.subject).not.toMatch(/[\r\n]/);

      const total = formatMoney(data.prices.grossCents);
      expect(total.replace(/\s/g, ' ')).toBe('44,89 €');
      expect(mail.text).toContain(`${TOTAL_LABEL[language]}: ${total}`);
      expect(mail.html).toContain(html(TOTAL_LABEL[language]));
      expect(mail.html).toContain(total);

      const vat = formatMoney(data.prices.vatCents);
      expect(mail.text).toContain(`${VAT_LABEL[language]}: ${vat}`);
      expect(mail.html).toContain(html(VAT_LABEL[language]));
      expect(mail.html).toContain(vat);
      expect(mail.text).toContain(formatMoney(data.prices.netCents));

      expect(mail.text).toContain(STATUS_URL);
      expect(mail.html).toContain(`href="${html(STATUS_URL)}"`);
      expect(mail.html).not.toContain(STATUS_URL); // the raw "&" must be escaped in HTML

      expect(mail.text).toContain(PACKAGE_NAME[language]);
      expect(mail.html).toContain(PACKAGE_NAME[language]);
      expect(mail.html).toContain('max-width:600px');
      expect(mail.html).toMatch(/^<!DOCTYPE html>/);
      expect(mail.html).toContain(`<html lang="${language}">`);
    });

    test(`${template} (${language}): discount line only with a discount`, () => {
      const without = render(template, mailData(language));
      expect(without.text).not.toContain(DISCOUNT_LABEL[language]);
      expect(without.html).not.toContain(html(DISCOUNT_LABEL[language]));

      const data = mailData(language, { discountPercent: 20 });
      expect(data.prices.discountCents).toBe(698);
      const withDiscount = render(template, data);
      expect(withDiscount.text).toContain(`${DISCOUNT_LABEL[language]}: ${formatMoney(-698)}`);
      expect(withDiscount.html).toContain(html(DISCOUNT_LABEL[language]));
      expect(withDiscount.text).toContain(`${PACKAGE_NAME[language]}: ${formatMoney(3490)}`);
      expect(withDiscount.text).toContain(`${TOTAL_LABEL[language]}: ${formatMoney(2792)}`);
    });

    test(`${template} (${language}): express delivery is named with its price and 6 hours`, () => {
      const hours = { de: '6 Geschäftsstunden', en: '6 business hours', es: '6 horas laborables' }[language];
      const express = render(template, mailData(language, { package: 'basic', extras: ['express_delivery'] }));
      expect(express.text).toContain(`${EXPRESS_NAME[language]}: ${formatMoney(1499)}`);
      expect(express.text).toContain(`${hours}`);
      expect(express.html).toContain(EXPRESS_NAME[language]);

      const standard = render(template, mailData(language, { package: 'basic' }));
      expect(standard.text).not.toContain(EXPRESS_NAME[language]);
      expect(standard.text).toContain({ de: '48 Geschäftsstunden', en: '48 business hours', es: '48 horas laborables' }[language]);
    });

    test(`${template} (${language}): interpolated values are escaped in HTML`, () => {
      const data = mailData(language, {}, {
        email: 'a<b@x.de',
        site: { name: 'Foto<Shop>', legalName: 'A & B <GmbH>', supportEmail: 'help@x.de', address: 'Weg 1 <b>', phone: null },
        waiver: { acceptedAt: new Date('2026-03-12T13:04:30Z'), textVersion: 'v<2>', text: `<script>alert(1)</script> ${WAIVER_TEXTS[language]}` },
      });
      const mail = render(template, data);
      expect(mail.html).not.toContain('a<b@x.de');
      expect(mail.html).not.toContain('Foto<Shop>');
      expect(mail.html).not.toContain('<GmbH>');
      expect(mail.html).not.toContain('<b>');
      expect(mail.html).not.toContain('<script>');
      expect(mail.html).toContain('Foto&lt;Shop&gt;');
      expect(mail.html).toContain('A &amp; B &lt;GmbH&gt;');
      // The plain text shows the values as they are.
      expect(mail.text).toContain('Foto<Shop>');
    });
  }

  test(`order-received (${language}): contract content, waiver, withdrawal notice, AGB, payment pending`, () => {
    const data = mailData(language, { extras: ['extra_variants'] });
    const mail = renderOrderReceivedMail(data);
    for (const body of [mail.text, mail.html]) {
      expect(body).toContain(WITHDRAWAL_HEADING[language]);
      expect(body).toContain('waiver-2026-03');
      expect(body).toContain(formatDateTime(data.waiver!.acceptedAt, language));
      expect(body).toContain(TERMS_URL);
      expect(body).toContain('support@shop.example');
      // The online withdrawal function (§ 356a BGB) is named with its address, in the mail's language.
      expect(body).toContain(WITHDRAWAL_URL);
      expect(body).toContain({ de: 'Vertrag widerrufen', en: 'Withdraw from contract', es: 'Desistir del contrato' }[language]);
      expect(body).toMatch(/356/);
      expect(body).toContain({ de: '20 Bewerbungsfotos', en: '20 application photos', es: '20 fotos profesionales' }[language]);
      expect(body).toContain({ de: 'Extra Varianten', en: 'Extra variants', es: 'Variantes extra' }[language]);
      expect(body).toContain({ de: 'Professionell', en: 'Professional', es: 'Profesional' }[language]);
      expect(body).toContain({ de: 'Büro', en: 'Office', es: 'Oficina' }[language]);
      expect(body).toContain({ de: 'Weiblich', en: 'Female', es: 'Femenino' }[language]);
      expect(body).toContain({ de: 'Zahlung ausstehend', en: 'Payment pending', es: 'Pago pendiente' }[language]);
      expect(body).toContain({ de: 'Zahlungspflichtig bestellen', en: 'Order with obligation to pay', es: 'Pedido con obligación de pago' }[language]);
    }
    expect(mail.text).toContain(`> ${WAIVER_TEXTS[language]}`);
    expect(mail.html).toContain(html(WAIVER_TEXTS[language]));
    expect(mail.html).toContain(`href="${TERMS_URL}"`);
    expect(mail.html).toContain(`href="${PRIVACY_URL}"`);
  });

  test(`order-received (${language}): without a recorded waiver the right does not expire early`, () => {
    const mail = renderOrderReceivedMail(mailData(language, {}, { waiver: null }));
    expect(mail.text).toContain(WITHDRAWAL_HEADING[language]);
    expect(mail.text).toContain({ de: 'nicht vorzeitig', en: 'does not expire early', es: 'no se extingue anticipadamente' }[language]);
    expect(mail.text).not.toContain('waiver-2026-03');
  });

  test(`payment-confirmed (${language}): paid amount and date, next steps, retention and retouching, contract data again`, () => {
    const data = mailData(language);
    const mail = renderPaymentConfirmedMail(data);
    const paidAt = formatDateTime(data.paidAt!, language);
    expect(mail.text).toContain(`${{ de: 'Bezahlter Betrag', en: 'Amount paid', es: 'Importe pagado' }[language]}: ${formatMoney(3490)}`);
    expect(mail.text).toContain(paidAt);
    expect(mail.text).toContain({ de: '24 Geschäftsstunden', en: '24 business hours', es: '24 horas laborables' }[language]);
    expect(mail.text).toContain({ de: '7 Tagen', en: '7 days', es: '7 días' }[language]);
    expect(mail.text).toContain({ de: '30 Tage', en: '30 days', es: '30 días' }[language]);
    expect(mail.text).toContain({ de: 'prüft jedes Foto', en: 'checks every photo', es: 'revisa cada foto' }[language]);
    expect(mail.text).toContain(WITHDRAWAL_HEADING[language]);
    expect(mail.text).toContain(WAIVER_TEXTS[language]);
    expect(mail.text).toContain(TERMS_URL);
    expect(mail.text).not.toContain({ de: 'Zahlung ausstehend', en: 'Payment pending', es: 'Pago pendiente' }[language]);

    const unknownDate = renderPaymentConfirmedMail(mailData(language, {}, { paidAt: null }));
    expect(unknownDate.text).not.toContain(paidAt);
  });

  test(`payment-failed (${language}): nothing charged, retry link`, () => {
    const mail = renderPaymentFailedMail(mailData(language));
    expect(mail.text).toContain({ de: 'nichts berechnet', en: 'Nothing has been charged', es: 'No se te ha cobrado nada' }[language]);
    expect(mail.text).toContain(RETRY_URL);
    expect(mail.html).toContain(`href="${html(RETRY_URL)}"`);
    expect(mail.text).toContain('support@shop.example');
    expect(mail.text).not.toContain(WITHDRAWAL_HEADING[language]);
  });
}

test('every language has its own text: no German in the English and Spanish mails', () => {
  const germanOnly = ['Bestellnummer', 'Widerrufsbelehrung', 'Gesamtbetrag', 'Zahlung', 'Sie ', 'Guten Tag'];
  for (const template of TEMPLATES) {
    const de = render(template, mailData('de'));
    for (const word of germanOnly.slice(0, 1)) expect(de.text).toContain(word);
    for (const language of ['en', 'es'] as const) {
      const mail = render(template, mailData(language));
      for (const word of germanOnly) {
        expect(mail.text, `${template} ${language}: ${word}`).not.toContain(word);
        expect(mail.html, `${template} ${language}: ${word}`).not.toContain(word);
      }
    }
    const subjects = new Set(LANGUAGES.map((language) => render(template, mailData(language)).subject));
    expect(subjects.size).toBe(LANGUAGES.length);
  }
});

test('the Spanish mails say "tú", never "usted"', () => {
  for (const template of TEMPLATES) {
    const mail = render(template, mailData('es'));
    expect(mail.text).not.toMatch(/\busted\b/i);
    expect(mail.text).toMatch(/\btu\b/);
  }
});

test('dates are shown in Europe/Berlin with the zone, summer time included', () => {
  expect(formatDateTime(new Date('2026-03-12T13:05:00Z'), 'de')).toBe('12. März 2026 um 14:05 MEZ');
  expect(formatDateTime(new Date('2026-07-01T22:30:00Z'), 'de')).toBe('2. Juli 2026 um 00:30 MESZ');
  expect(formatDateTime(new Date('2026-03-12T13:05:00Z'), 'en')).toBe('12 March 2026 at 14:05 CET');
  expect(formatDateTime(new Date('2026-03-12T13:05:00Z'), 'es')).toBe('12 de marzo de 2026 a las 14:05 CET');
  const mail = renderOrderReceivedMail(mailData('de'));
  expect(mail.text).toContain('Bestellt am: 12. März 2026 um 14:05 MEZ');
});

test('links other than http(s) and mailto are not made clickable', () => {
  const mail = renderOrderReceivedMail(mailData('de', {}, { statusUrl: 'javascript:alert(1)', termsUrl: '/agb' }));
  expect(mail.html).not.toContain('href="javascript:');
  expect(mail.html).not.toContain('href="/agb"');
  expect(mail.text).toContain('javascript:alert(1)');
});

test('premium includes express delivery without an express line in the prices', () => {
  const mail = renderPaymentConfirmedMail(mailData('de', { package: 'premium' }));
  expect(mail.text).toContain('innerhalb von 12 Geschäftsstunden ab Zahlungseingang (Express-Lieferung inklusive). Geschäftsstunden: Mo–Fr 9–18 Uhr');
  expect(mail.text).not.toContain('Express-Lieferung: ');
  expect(mail.text).toContain('kommerzielle Lizenz');
});

test('a multi-line address and consent text keep their lines in HTML and text', () => {
  const data = mailData('de', {}, { waiver: { acceptedAt: new Date('2026-03-12T13:04:30Z'), textVersion: 'v2', text: 'Zeile eins\nZeile zwei' } });
  const mail = renderOrderReceivedMail(data);
  expect(mail.html).toMatch(/Zeile eins<br\/?>Zeile zwei/);
  expect(mail.text).toContain('> Zeile eins\n> Zeile zwei');
  expect(mail.text).toContain('FotoAtelier GmbH, Beispielweg 1, 10115 Berlin, Telefon: +49 30 1234567, E-Mail: support@shop.example');
});

// ---------------------------------------------------------------------------------------------
// photos-ready: no prices or contract data, so it is tested on its own rather than in TEMPLATES.

type PhotosReadyData = Parameters<typeof renderPhotosReadyMail>[0];

function readyData(language: Language, overrides: Partial<PhotosReadyData> = {}): PhotosReadyData {
  return {
    ...mailData(language),
    resultCount: 37,
    // Just after midnight in Berlin (summer and winter time): the UTC date is the day before.
    deleteAfter: new Date('2026-04-10T22:30:00Z'),
    revisionUntil: new Date('2026-03-18T23:30:00Z'),
    ...overrides,
  };
}

const DELETION_DATE: Record<Language, string> = { de: '11. April 2026', en: '11 April 2026', es: '11 de abril de 2026' };
const REVISION_DATE: Record<Language, string> = { de: '19. März 2026', en: '19 March 2026', es: '19 de marzo de 2026' };
const RESULT_COUNT: Record<Language, string> = { de: '37 Bewerbungsfotos', en: '37 application photos', es: '37 fotos profesionales' };

for (const language of LANGUAGES) {
  test(`photos-ready (${language}): subject, status link, result count, deletion and retouching dates, support`, () => {
    const mail = renderPhotosReadyMail(readyData(language));
    expect(mail.template).toBe('photos-ready');
    expect(mail.subject).toContain('BF-7K3M9Q2X');
    expect(mail.subject).not.toMatch(/[\r\n]/);

    expect(mail.text).toContain(STATUS_URL);
    expect(mail.html).toContain(`href="${html(STATUS_URL)}"`);
    expect(mail.html).not.toContain(STATUS_URL); // the raw "&" must be escaped in HTML

    for (const body of [mail.text, mail.html]) {
      expect(body).toContain(RESULT_COUNT[language]);
      expect(body).toContain(DELETION_DATE[language]);
      expect(body).toContain(REVISION_DATE[language]);
      expect(body).toContain('ZIP');
      expect(body).toContain('support@shop.example');
      expect(body).toContain({ de: 'Ein Mensch aus unserem Team', en: 'A member of our team', es: 'Una persona de nuestro equipo' }[language]);
      expect(body).toContain({ de: 'automatisch', en: 'automatically', es: 'automáticamente' }[language]);
      expect(body).toContain({ de: 'neu machen lassen', en: 'redone free of charge', es: 'rehagamos gratis' }[language]);
    }
    expect(mail.text).toContain(formatDate(new Date('2026-04-10T22:30:00Z'), language));
    expect(mail.html).toContain('max-width:600px');
    expect(mail.html).toContain(`<html lang="${language}">`);
    // Nothing of the contract mails: no prices, no withdrawal notice.
    expect(mail.text).not.toContain('€');
    expect(mail.text).not.toContain(WITHDRAWAL_HEADING[language]);
  });

  test(`photos-ready (${language}): the plain text reads on its own`, () => {
    const { text } = renderPhotosReadyMail(readyData(language));
    expect(text).not.toMatch(/<[a-z/!]/i);
    expect(text).not.toMatch(/&(amp|lt|gt|quot|#39);/);
    // The link stands on its own line, after its label, so it can be clicked or copied.
    expect(text).toMatch(new RegExp(`:\n${STATUS_URL.replace(/[.?*+^$()[\]{}|\\]/g, '\\$&')}\n`));
    // The paragraph with the deletion date is a complete sentence.
    const paragraph = text.split('\n\n').find((part) => part.includes(DELETION_DATE[language]));
    expect(paragraph).toMatch(/[.!]$/);
  });

  test(`photos-ready (${language}): interpolated values are escaped in HTML`, () => {
    const mail = renderPhotosReadyMail(
      readyData(language, {
        orderNumber: 'BF-<i>&1',
        statusUrl: 'https://shop.example/s?a=1&b="x"<y>',
        site: { name: 'Foto<Shop>', legalName: 'A & B <GmbH>', supportEmail: 'help<x>@x.de', address: 'Weg 1 <b>', phone: null },
      }),
    );
    expect(mail.subject).toContain('BF-<i>&1');
    expect(mail.html).not.toContain('BF-<i>');
    expect(mail.html).toContain('BF-&lt;i&gt;&amp;1');
    expect(mail.html).not.toContain('Foto<Shop>');
    expect(mail.html).toContain('Foto&lt;Shop&gt;');
    expect(mail.html).not.toContain('help<x>');
    expect(mail.html).toContain('help&lt;x&gt;@x.de');
    expect(mail.html).not.toContain('<GmbH>');
    expect(mail.html).not.toContain('<b>');
    expect(mail.html).not.toContain('"x"');
    expect(mail.html).toContain('a=1&amp;b=&quot;x&quot;&lt;y&gt;');
    // The plain text shows the values as they are.
    expect(mail.text).toContain('BF-<i>&1');
    expect(mail.text).toContain('Foto<Shop>');
    expect(mail.text).toContain('help<x>@x.de');
    expect(mail.text).toContain('https://shop.example/s?a=1&b="x"<y>');
  });
}

test('photos-ready: one image is named in the singular', () => {
  expect(renderPhotosReadyMail(readyData('de', { resultCount: 1 })).text).toContain('1 Bewerbungsfoto für Sie');
  expect(renderPhotosReadyMail(readyData('en', { resultCount: 1 })).text).toContain('1 application photo for you');
  expect(renderPhotosReadyMail(readyData('es', { resultCount: 1 })).text).toContain('1 foto profesional para ti');
});

test('photos-ready: each language has its own text, Spanish says "tú"', () => {
  const germanOnly = ['Bestellnummer', 'Fotos sind fertig', 'Sie ', 'Guten Tag', 'Nachbesserung'];
  expect(renderPhotosReadyMail(readyData('de')).text).toContain('Bestellnummer');
  for (const language of ['en', 'es'] as const) {
    const mail = renderPhotosReadyMail(readyData(language));
    for (const word of germanOnly) {
      expect(mail.text, `${language}: ${word}`).not.toContain(word);
      expect(mail.html, `${language}: ${word}`).not.toContain(word);
    }
  }
  const subjects = new Set(LANGUAGES.map((language) => renderPhotosReadyMail(readyData(language)).subject));
  expect(subjects.size).toBe(LANGUAGES.length);
  const es = renderPhotosReadyMail(readyData('es')).text;
  expect(es).not.toMatch(/\busted\b/i);
  expect(es).toMatch(/\btu\b/);
});

test('the mails promise outfits only where the pictures can show them (a generator makes them)', () => {
  const outfitWords: Record<Language, RegExp> = { de: /outfit/i, en: /outfit/i, es: /vestuario|conjunto|outfit/i };
  for (const language of LANGUAGES) {
    for (const template of TEMPLATES) {
      const studio = render(template, mailData(language, {}, { newOutfits: false, outfit: null }));
      expect(studio.text, `${template} ${language}`).not.toMatch(outfitWords[language]);
      expect(studio.html, `${template} ${language}`).not.toMatch(outfitWords[language]);
      const generator = render(template, mailData(language, {}, { newOutfits: true, outfit: 'business' }));
      if (template !== 'payment-failed') expect(generator.text, `${template} ${language}`).toMatch(outfitWords[language]);
    }
  }
});
