// Invoices: gap-free numbers under parallel payments, every § 14 UStG field in the PDF, downloads with proof.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { priceTeamOrder } from '../../../domain/pricing.js';
import { checkVatId, vatTreatmentFor } from '../../../domain/vat-id.js';
import type { DatabaseHandle } from '../../db/client.js';
import { invoices, orders, outgoingMail, sandboxCheckoutSessions } from '../../db/schema.js';
import { buildTestApp, type TestApp } from '../../test/app.js';
import { testDatabases } from '../../test/databases.js';
import { pdfText } from '../../test/pdf-text.js';
import { payOrder, placeOrder, setOrder, type SeededOrder } from '../../test/seed.js';
import { invoiceToken, STATUS_LINK_LIFETIME_MS } from '../orders/order-tokens.js';
import { statusToken } from '../orders/order-tokens.js';

const SITE = {
  SITE_LEGAL_NAME: 'Bewerbungsfoto Studio GmbH',
  SITE_ADDRESS: 'Musterstraße 1, 10115 Berlin, Deutschland',
  SITE_VAT_ID: 'DE123456789',
  SITE_REGISTER_ENTRY: 'Amtsgericht Berlin-Charlottenburg, HRB 123456',
  CAMPAIGN_PERCENT: '20',
  CAMPAIGN_PACKAGES: 'pro,premium',
  CAMPAIGN_STARTS_AT: '2026-11-01T00:00:00+01:00',
  CAMPAIGN_ENDS_AT: '2027-01-01T00:00:00+01:00',
};
const PRO_EXTRAS = { gender: 'female', style: 'professional', package: 'pro', location: 'studio', outfit: null, extras: ['extra_variants', 'express_delivery'] };
const PRO_TEAM = { gender: 'female', style: 'professional', package: 'pro', location: 'studio', outfit: null, extras: [] };
const euro = (cents: number) => `${(cents / 100).toFixed(2).replace('.', ',')} €`;

describe.each(testDatabases())('invoices on $name', (testDb) => {
  let db: DatabaseHandle;
  let t: TestApp;
  let clock = new Date('2026-11-23T10:00:00Z');
  beforeAll(async () => {
    db = await testDb.open();
    t = await buildTestApp(db, SITE, { now: () => clock });
  });
  afterAll(async () => {
    await t.close();
    await db.close();
  });

  const invoicesOf = (orderId: string) => db.db.select().from(invoices).where(eq(invoices.orderId, orderId));

  /**
   * A company's team order as the team checkout stores it (issue 17): an order row of a business buyer with
   * seats, its VAT ID and treatment, priced by priceTeamOrder; then paid through the provider like any order.
   */
  async function payTeamOrder(options: {
    vatId: string | null;
    seats: number;
    language?: 'de' | 'en' | 'es';
    company?: { billingName: string; billingAddress: string };
  }): Promise<SeededOrder & { price: ReturnType<typeof priceTeamOrder> }> {
    const order = await placeOrder(t.app, {
      selection: PRO_TEAM,
      language: options.language ?? 'de',
      billing: options.company ?? { billingName: 'Muster Consulting GmbH', billingAddress: 'Friedrichstraße 100\n10117 Berlin' },
    });
    const checked = options.vatId === null ? null : checkVatId(options.vatId);
    if (checked && !checked.ok) throw new Error(`test VAT ID ${options.vatId} has no valid format`);
    const vatId = checked?.vatId ?? null;
    const treatment = vatTreatmentFor(vatId);
    const price = priceTeamOrder({ package: 'pro', seats: options.seats, campaign: t.config.campaign, now: clock, treatment });
    await setOrder(t.app, order.orderId, {
      customerKind: 'business',
      companyVatId: vatId,
      vatTreatment: treatment,
      seats: options.seats,
      packageListCents: price.packageListCents,
      discountPercent: price.discountPercent,
      discountCents: price.discountCents,
      packageCents: price.packageCents,
      extrasCents: 0,
      totalCents: price.grossCents,
      netCents: price.netCents,
      vatCents: price.vatCents,
      taxRatePercent: price.vatRatePercent,
    });
    // The provider charges the team's total (the session was opened for the single order placed above).
    await db.db.update(sandboxCheckoutSessions).set({ amountTotal: price.grossCents }).where(eq(sandboxCheckoutSessions.orderId, order.orderId));
    await payOrder(t.app, order);
    return { ...order, price };
  }

  test('a paid order gets an invoice whose PDF holds every required field, with amounts that add up to the order', async () => {
    const order = await placeOrder(t.app, { selection: PRO_EXTRAS, billing: { billingName: 'Erika Mustermann', billingAddress: 'Hauptstraße 5\n80331 München' } });
    expect(await invoicesOf(order.orderId)).toEqual([]);
    await payOrder(t.app, order);
    const [invoice] = await invoicesOf(order.orderId);
    expect(invoice).toMatchObject({ kind: 'invoice', year: 2026, grossCents: 5290, vatRatePercent: 19 });
    expect(invoice!.number).toMatch(/^RE-2026-\d{6}$/);
    const [row] = await db.db.select().from(orders).where(eq(orders.id, order.orderId));
    expect(invoice!.grossCents).toBe(row!.totalCents);
    expect(invoice!.netCents + invoice!.vatCents).toBe(invoice!.grossCents);
    expect({ net: invoice!.netCents, vat: invoice!.vatCents }).toEqual({ net: row!.netCents, vat: row!.vatCents });

    // The payment mail links it; the link works without any other proof, a wrong token does not.
    const [mail] = await db.db.select().from(outgoingMail).where(and(eq(outgoingMail.orderId, order.orderId), eq(outgoingMail.template, 'payment-confirmed')));
    const link = /http:\/\/shop\.test(\/api\/orders\/[^"\s]+\/invoices\/[^"\s?]+\?token=[\w.-]+)/.exec(mail!.text)![1]!;
    const download = await t.app.inject({ method: 'GET', url: link });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(download.headers['content-disposition']).toBe(`attachment; filename="Rechnung-${invoice!.number}.pdf"`);
    expect((await t.app.inject({ method: 'GET', url: link.replace(/token=.*/, 'token=forged') })).statusCode).toBe(404);

    const text = await pdfText(download.rawPayload);
    for (const field of [
      'Rechnung',
      invoice!.number,
      'Bewerbungsfoto Studio GmbH',
      'Musterstraße 1',
      '10115 Berlin',
      'USt-IdNr.: DE123456789',
      'Amtsgericht Berlin-Charlottenburg, HRB 123456',
      'Erika Mustermann',
      'Hauptstraße 5',
      '80331 München',
      'Rechnungsdatum',
      '23. November 2026',
      // Invoiced on payment: the service is due by the delivery time (express: the same day).
      'Leistung bis',
      row!.orderNumber,
      'Pro Paket: 10 KI-Bewerbungsfotos in 300 DPI, Stil Professionell',
      'Extra Varianten',
      'Express-Lieferung',
      euro(2792),
      euro(999),
      euro(1499),
      'Nettobetrag',
      euro(invoice!.netCents),
      'Umsatzsteuer 19 %',
      euro(invoice!.vatCents),
      'Gesamtbetrag',
      euro(5290),
    ]) {
      expect(text, field).toContain(field);
    }
    // The lines add up to the total that was charged.
    expect(2792 + 999 + 1499).toBe(invoice!.grossCents);
    // The status view lists it with its link.
    const view = await t.app.inject({ method: 'POST', url: '/api/tracking', payload: { orderId: row!.orderNumber, email: order.email }, remoteAddress: '10.90.1.1' });
    expect(view.json().order.invoices).toEqual([expect.objectContaining({ number: invoice!.number, kind: 'invoice', grossCents: 5290, url: expect.stringContaining(`/invoices/${invoice!.id}?token=`) })]);

    // A link from a mail that ran out, opened in a browser: the tracking page with its note, not an API error.
    const stale = invoiceToken(t.config.appSecret, row!.id, invoice!.id, new Date(clock.getTime() - STATUS_LINK_LIFETIME_MS - 60_000));
    const url = `/api/orders/${row!.id}/invoices/${invoice!.id}?token=${stale}`;
    const inBrowser = await t.app.inject({ method: 'GET', url, headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    expect(inBrowser.statusCode).toBe(303);
    expect(inBrowser.headers.location).toBe(`/tracking?order_id=${row!.id}&link=expired`);
    // A made-up link: the tracking page without a note. A program still gets our error shape.
    const madeUp = await t.app.inject({ method: 'GET', url: `/api/orders/${row!.id}/invoices/${invoice!.id}?token=x`, headers: { accept: 'text/html' } });
    expect(madeUp.headers.location).toBe('/tracking');
    const byProgram = await t.app.inject({ method: 'GET', url });
    expect(byProgram.statusCode).toBe(403);
    expect(byProgram.json().error.code).toBe('linkExpired');
  });

  test('names in any Latin, Greek or Cyrillic script and long address lines are printed whole', async () => {
    const address = 'Ayşe Yılmaz c/o Ζωή Παπαδοπούλου und Ольга Иванова, Hinterhaus, 3. Obergeschoss links, Apartment 14b\nul. Żółkiewskiego 12\n00-001 Warszawa';
    const order = await placeOrder(t.app, { billing: { billingName: 'Łukasz Żółć', billingAddress: address } });
    await payOrder(t.app, order);
    const [invoice] = await invoicesOf(order.orderId);
    const text = (await pdfText((await t.app.invoices.file(order.orderId, invoice!.id)).buffer)).replace(/\s+/g, ' ');
    for (const part of ['Łukasz Żółć', 'Ayşe Yılmaz', 'Ζωή Παπαδοπούλου', 'Ольга Иванова', 'Apartment 14b', 'ul. Żółkiewskiego 12', '00-001 Warszawa']) expect(text, part).toContain(part);
  });

  test('in English the invoice speaks English; without billing details the e-mail address is the recipient', async () => {
    const order = await placeOrder(t.app, { language: 'en' });
    await payOrder(t.app, order);
    const [invoice] = await invoicesOf(order.orderId);
    const file = await t.app.invoices.file(order.orderId, invoice!.id);
    expect(file.fileName).toBe(`Invoice-${invoice!.number}.pdf`);
    const text = await pdfText(file.buffer);
    expect(text).toContain('Invoice');
    expect(text).toContain('Billed to');
    expect(text).toContain(order.email);
    expect(text).toContain('VAT 19 %');
  });

  test('20 parallel payments: 20 invoices with unique numbers and no gap', async () => {
    const placed = [];
    for (let i = 0; i < 20; i++) placed.push(await placeOrder(t.app));
    await Promise.all(placed.map((order) => payOrder(t.app, order)));
    const all = await db.db.select({ sequence: invoices.sequence, number: invoices.number }).from(invoices).where(eq(invoices.year, 2026));
    const sequences = all.map((row) => row.sequence).sort((a, b) => a - b);
    expect(sequences).toEqual(Array.from({ length: sequences.length }, (_, i) => i + 1));
    expect(new Set(all.map((row) => row.number)).size).toBe(all.length);
    for (const order of placed) expect(await invoicesOf(order.orderId)).toHaveLength(1);
    // Placing 20 orders (each with its photos through the face gate) takes 25–35 s on a 2-core CI machine.
  }, 120_000);

  test('invoices are kept apart from the photos: 8 years after them and at least to the end of the 8th year after issue', async () => {
    const order = await placeOrder(t.app);
    await payOrder(t.app, order);
    const [invoice] = await invoicesOf(order.orderId);
    // From issue: the statutory period runs from the end of the calendar year (§ 147 (4) AO, § 14b UStG).
    expect(invoice!.retainUntil).toEqual(new Date('2034-12-31T23:00:00Z'));
    await t.app.invoices.file(order.orderId, invoice!.id);
    const deleted = await t.app.inject({ method: 'POST', url: `/api/orders/${order.orderId}/delete-photos`, payload: { confirm: true }, headers: { 'x-status-token': statusToken(t.config.appSecret, order.orderId, t.app.now()) } });
    expect(deleted.statusCode).toBe(200);
    const [kept] = await invoicesOf(order.orderId);
    // 8 years after the photos (2034-11-23) would be earlier than the statutory end: the later one counts.
    expect(kept!.retainUntil).toEqual(new Date('2034-12-31T23:00:00Z'));
    expect(await t.app.storage.exists(kept!.storageKey!)).toBe(true);
    clock = new Date('2034-12-01T00:00:00Z');
    await t.app.retention.run();
    expect(await invoicesOf(order.orderId)).toHaveLength(1);
    clock = new Date('2035-01-02T00:00:00Z');
    await t.app.retention.run();
    expect(await invoicesOf(order.orderId)).toEqual([]);
    expect(await t.app.storage.exists(kept!.storageKey!)).toBe(false);
    clock = new Date('2026-11-23T10:00:00Z');
  });

  test('a company with a German VAT ID: the company is billed with its VAT ID, seats × package at 19 %', async () => {
    const order = await payTeamOrder({ vatId: 'DE 136 695 976', seats: 5 });
    const [invoice] = await invoicesOf(order.orderId);
    // 5 × 27,92 € (the campaign's 20 % per seat) = 139,60 € including 22,29 € VAT.
    expect(invoice).toMatchObject({ kind: 'invoice', grossCents: 13960, netCents: 11731, vatCents: 2229, vatRatePercent: 19 });
    expect(invoice!.customer).toEqual({ name: 'Muster Consulting GmbH', address: 'Friedrichstraße 100\n10117 Berlin', email: order.email, kind: 'business', vatId: 'DE136695976', vatTreatment: 'standard' });
    const [row] = await db.db.select().from(orders).where(eq(orders.id, order.orderId));
    const text = (await pdfText((await t.app.invoices.file(order.orderId, invoice!.id)).buffer)).replace(/\s+/g, ' ');
    // Every field of § 14 (4) UStG: seller, its VAT ID, buyer, date, number, quantity and kind, time of service, net, rate, tax.
    for (const field of [
      `Rechnung ${invoice!.number}`,
      'Bewerbungsfoto Studio GmbH',
      'Musterstraße 1',
      'USt-IdNr.: DE123456789',
      'Muster Consulting GmbH',
      'Friedrichstraße 100',
      '10117 Berlin',
      'USt-IdNr. des Leistungsempfängers: DE136695976',
      'Rechnungsdatum 23. November 2026',
      // The seats are the service, provided with the payment.
      'Leistungsdatum (Teamplätze bereitgestellt) 23. November 2026',
      row!.orderNumber,
      '5 × Pro Paket (Team): je Person 10 KI-Bewerbungsfotos in 300 DPI, Stil Professionell',
      `Nettobetrag ${euro(11731)}`,
      `Umsatzsteuer 19 % ${euro(2229)}`,
      `Gesamtbetrag ${euro(13960)}`,
      'Alle Einzelbeträge enthalten die gesetzliche Umsatzsteuer.',
    ]) {
      expect(text, field).toContain(field);
    }
    expect(text).not.toContain('Steuerschuldnerschaft');
  });

  test('a company with an Austrian VAT ID: reverse charge, the net only, 0 % and the note that the buyer owes the tax', async () => {
    const order = await payTeamOrder({ vatId: 'ATU12345678', seats: 5, company: { billingName: 'Alpenblick Beratung GmbH', billingAddress: 'Mariahilfer Straße 1\n1060 Wien\nÖsterreich' } });
    const [invoice] = await invoicesOf(order.orderId);
    // The standard net of 139,60 €, and nothing on top.
    expect(invoice).toMatchObject({ kind: 'invoice', grossCents: 11731, netCents: 11731, vatCents: 0, vatRatePercent: 0 });
    expect(invoice!.grossCents).toBe(order.price.grossCents);
    expect(invoice!.customer).toMatchObject({ kind: 'business', vatId: 'ATU12345678', vatTreatment: 'reverse_charge' });
    const text = (await pdfText((await t.app.invoices.file(order.orderId, invoice!.id)).buffer)).replace(/\s+/g, ' ');
    for (const field of [
      `Rechnung ${invoice!.number}`,
      'Bewerbungsfoto Studio GmbH',
      // Both VAT IDs (§ 14a (1) UStG): ours and the buyer's.
      'USt-IdNr.: DE123456789',
      'Alpenblick Beratung GmbH',
      'Mariahilfer Straße 1',
      '1060 Wien',
      'USt-IdNr. des Leistungsempfängers: ATU12345678',
      'Rechnungsdatum 23. November 2026',
      'Leistungsdatum (Teamplätze bereitgestellt) 23. November 2026',
      `1 ${euro(11731)} 5 × Pro Paket (Team): je Person 10 KI-Bewerbungsfotos in 300 DPI, Stil Professionell`,
      `Nettobetrag ${euro(11731)}`,
      `Umsatzsteuer 0 % ${euro(0)}`,
      `Gesamtbetrag ${euro(11731)}`,
      'Steuerschuldnerschaft des Leistungsempfängers (Reverse-Charge-Verfahren)',
      'Art. 196 MwStSystRL',
    ]) {
      expect(text, field).toContain(field);
    }
    // Nothing claims VAT is included.
    expect(text).not.toContain('enthalten die gesetzliche Umsatzsteuer');
  });

  test('the reverse-charge note and the buyer\'s VAT ID in English and Spanish', async () => {
    for (const [language, expected] of [
      ['en', ['Customer VAT ID: EL123456789', '5 × Pro package (team)', 'VAT 0 %', 'Reverse charge', 'Art. 196 Council Directive 2006/112/EC']],
      ['es', ['NIF-IVA del destinatario: EL123456789', '5 × Paquete Pro (equipo)', 'IVA 0 %', 'Inversión del sujeto pasivo', 'art. 196 de la Directiva 2006/112/CE']],
    ] as const) {
      const order = await payTeamOrder({ vatId: 'EL123456789', seats: 5, language });
      const [invoice] = await invoicesOf(order.orderId);
      expect(invoice).toMatchObject({ language, vatRatePercent: 0, vatCents: 0 });
      const text = (await pdfText((await t.app.invoices.file(order.orderId, invoice!.id)).buffer)).replace(/\s+/g, ' ');
      for (const field of expected) expect(text, `${language}: ${field}`).toContain(field);
      expect(text).not.toMatch(/include statutory VAT|incluyen el IVA/);
    }
  });

  test('a team member\'s order never gets an invoice, not even if a payment reached it', async () => {
    const team = await payTeamOrder({ vatId: null, seats: 3 });
    const [teamInvoice] = await invoicesOf(team.orderId);
    expect(teamInvoice).toMatchObject({ grossCents: 3 * 2792, vatRatePercent: 19 });
    expect(teamInvoice!.customer).toMatchObject({ kind: 'business', vatId: null, vatTreatment: 'standard' });
    // A member's order: a row of its own pointing at the team order. Were it ever paid through the
    // provider, the payment's invoice step still leaves it without one.
    const member = await placeOrder(t.app, { selection: PRO_TEAM });
    await setOrder(t.app, member.orderId, { teamOrderId: team.orderId });
    await payOrder(t.app, member);
    const [paid] = await db.db.select().from(orders).where(eq(orders.id, member.orderId));
    expect(paid!.paymentStatus).toBe('paid');
    expect(await invoicesOf(member.orderId)).toEqual([]);
    // Asked directly, too: nothing, and the numbering goes on without a gap.
    expect(await t.app.invoices.issueForPaidOrder(db.db, paid!)).toBeNull();
    expect(await invoicesOf(member.orderId)).toEqual([]);
    expect(await invoicesOf(team.orderId)).toHaveLength(1);
  });
});
