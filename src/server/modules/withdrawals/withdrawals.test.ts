// "Vertrag widerrufen": without login, stored, confirmed by mail with date and time, shown to staff.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { DatabaseHandle } from '../../db/client.js';
import { jobs, orderHistory, orders, outgoingMail, withdrawals } from '../../db/schema.js';
import type { SandboxPaymentProvider } from '../../payment-providers/sandbox-provider.js';
import { buildTestApp, type TestApp } from '../../test/app.js';
import { testDatabases } from '../../test/databases.js';
import { signInStaff } from '../../test/staff.js';
import { deliverEvent, payOrder, placeOrder, setOrder } from '../../test/seed.js';
import { WITHDRAWAL_LIMIT, WITHDRAWAL_TARGET_LIMIT } from './routes.js';


describe.each(testDatabases())('withdrawals on $name', (testDb) => {
  let db: DatabaseHandle;
  let t: TestApp;
  const clock = new Date('2026-11-23T13:05:00Z');
  beforeAll(async () => {
    db = await testDb.open();
    t = await buildTestApp(db, { SUPPORT_EMAIL: 'hilfe@example.de' }, { now: () => clock });
  });
  afterAll(async () => {
    await t.close();
    await db.close();
  });

  const declare = (payload: object, remoteAddress = '10.95.0.1') => t.app.inject({ method: 'POST', url: '/api/withdrawals', payload, remoteAddress });
  const mailsTo = (to: string, template: string) => db.db.select().from(outgoingMail).where(and(eq(outgoingMail.toAddress, to), eq(outgoingMail.template, template)));

  test('a customer withdraws without login: stored, in the order\'s history, a receipt with date and time by mail, staff told', async () => {
    const order = await placeOrder(t.app);
    await payOrder(t.app, order);
    const response = await declare({ name: 'Erika Mustermann', reference: ` ${order.orderNumber.toLowerCase()} `, email: order.email.toUpperCase(), language: 'de' });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ outcome: 'withdrawn', orderNumber: order.orderNumber, receivedAt: clock.toISOString() });

    const [stored] = await db.db.select().from(withdrawals).where(eq(withdrawals.orderId, order.orderId));
    expect(stored).toMatchObject({ name: 'Erika Mustermann', outcome: 'withdrawn', status: 'new', email: order.email });
    const history = await db.db.select().from(orderHistory).where(eq(orderHistory.orderId, order.orderId));
    expect(history.map((h) => h.event)).toContain('withdrawal_received');

    const [receipt] = await mailsTo(order.email, 'withdrawal-receipt');
    expect(receipt!.subject).toBe('Eingangsbestätigung Ihres Widerrufs');
    expect(receipt!.text).toContain('23. November 2026, 14:05');
    expect(receipt!.text).toContain('Hiermit widerrufe ich den von mir abgeschlossenen Vertrag');
    expect(receipt!.text).toContain(order.orderNumber);
    expect(receipt!.text).toContain('spätestens binnen vierzehn Tagen');
    const [staffMail] = await mailsTo('hilfe@example.de', 'withdrawal-staff');
    expect(staffMail!.subject).toBe(`Widerruf eingegangen: ${order.orderNumber}`);

    // Staff see it on the dashboard's list and mark it handled.
    const staff = await signInStaff(t.app, '10.95.9.1');
    const list = (await staff.request('GET', '/api/admin/withdrawals')).json().withdrawals;
    expect(list.map((w: { id: string }) => w.id)).toContain(stored!.id);
    expect((await staff.request('POST', `/api/admin/withdrawals/${stored!.id}/handled`)).statusCode).toBe(200);
    expect((await staff.request('GET', '/api/admin/withdrawals')).json().withdrawals.map((w: { id: string }) => w.id)).not.toContain(stored!.id);
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/withdrawals' })).statusCode).toBe(401);
  });

  test('the form works without script: sent to /widerruf, the page answers with the errors (what was typed kept), then with the receipt', async () => {
    const order = await placeOrder(t.app);
    await payOrder(t.app, order);
    const form = (fields: Record<string, string>) =>
      t.app.inject({ method: 'POST', url: '/widerruf', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(fields).toString(), remoteAddress: '10.95.7.1' });
    const stored = () => db.db.select().from(withdrawals).where(eq(withdrawals.orderId, order.orderId));

    const wrong = await form({ name: 'Erika Mustermann', reference: order.orderNumber, email: 'not-an-address', language: 'en' });
    expect(wrong.statusCode).toBe(200);
    expect(wrong.headers['content-type']).toContain('text/html');
    expect(wrong.headers['cache-control']).toBe('no-store');
    expect(wrong.headers['content-language']).toBe('en');
    expect(wrong.body).toContain('Please enter a valid email address.');
    expect(wrong.body).toMatch(/<input[^>]*id="withdrawal-email"[^>]*aria-invalid="true"/);
    // The page opens on the field in error.
    expect(wrong.body.match(/<input[^>]*autofocus/g)?.map((tag) => /id="([^"]+)"/.exec(tag)![1])).toEqual(['withdrawal-email']);
    expect(wrong.body).toMatch(new RegExp(`<input[^>]*name="reference"[^>]*value="${order.orderNumber}"`));
    const formTag = /<form[^>]*>/.exec(wrong.body)![0];
    expect(formTag).toContain('method="post"');
    expect(formTag).toContain('action="/widerruf"');
    // The answer is the page itself, without the client application.
    expect(wrong.body).not.toContain('id="app-data"');
    expect(await stored()).toHaveLength(0);

    const right = await form({ name: 'Erika Mustermann', reference: order.orderNumber.toLowerCase(), email: order.email, language: 'de' });
    expect(right.statusCode).toBe(200);
    expect(right.body).toContain('data-testid="withdrawal-receipt"');
    expect(right.body).toContain('Ihr Widerruf ist eingegangen');
    expect(right.body).toContain('23. November 2026 um 14:05 Uhr');
    expect(right.body).toMatch(/<a[^>]*href="\/widerruf"[^>]*>Weiteren Widerruf erklären<\/a>/);
    expect(await stored()).toHaveLength(1);
    expect(await mailsTo(order.email, 'withdrawal-receipt')).toHaveLength(1);
  });

  test('the form sent without script is limited per address like the API, and says so in the visitor\'s language', async () => {
    const form = (language: string) =>
      t.app.inject({
        method: 'POST',
        url: '/widerruf',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ name: 'Ana García', reference: 'BF-2026-000000', email: 'ana@example.es', language }).toString(),
        remoteAddress: '10.95.7.2',
      });
    for (let i = 0; i < WITHDRAWAL_LIMIT.attempts; i++) expect((await form('es')).statusCode).toBe(200);
    const limited = await form('es');
    expect(limited.statusCode).toBe(429);
    expect(limited.body).toContain('Demasiados intentos. Espera 15 minutos o escríbenos un correo electrónico.');
    expect(limited.body).toMatch(/<input[^>]*name="name"[^>]*value="Ana García"/);
    // Not a form's body: the shop's JSON error.
    const other = await t.app.inject({ method: 'POST', url: '/widerruf', headers: { 'content-type': 'application/xml' }, payload: '<name>x</name>', remoteAddress: '10.95.7.3' });
    expect(other.statusCode).toBe(415);
    // The form body is taken on this page's address only: the JSON API stays out of reach of a form on another site.
    const api = await t.app.inject({ method: 'POST', url: '/api/withdrawals', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'name=x', remoteAddress: '10.95.7.3' });
    expect(api.statusCode).toBe(415);
  });

  test('after full performance with the early-start consent the receipt says politely that the right has expired', async () => {
    const order = await placeOrder(t.app, { language: 'en' });
    await payOrder(t.app, order);
    await setOrder(t.app, order.orderId, { status: 'completed', completedAt: clock });
    const response = await declare({ name: 'Max Muster', reference: order.orderId, email: order.email, language: 'en' });
    expect(response.json().outcome).toBe('expired');
    const [receipt] = await mailsTo(order.email, 'withdrawal-receipt');
    expect(receipt!.subject).toBe('Receipt of your withdrawal');
    expect(receipt!.text).toContain('a right of withdrawal therefore no longer exists');
    expect(receipt!.text).toContain('23 November 2026, 14:05');
    const [row] = await db.db.select().from(orders).where(eq(orders.id, order.orderId));
    expect(row!.status).toBe('completed');
  });

  test('a declaration that matches no order is kept and confirmed too; the form is checked on the server and rate-limited', async () => {
    const unmatched = await declare({ name: 'Jemand', reference: 'BF-NICHTDA1', email: 'jemand@example.de', language: 'es' });
    expect(unmatched.json()).toMatchObject({ outcome: 'unmatched', orderNumber: null });
    const [receipt] = await mailsTo('jemand@example.de', 'withdrawal-receipt');
    expect(receipt!.text).toContain('Todavía no hemos podido asignar tus datos a un pedido');
    const invalid = await declare({ name: ' ', reference: '', email: 'nope' });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().error.fields).toEqual({ name: 'nameRequired', reference: 'referenceRequired', email: 'emailInvalid' });
    expect((await declare({ name: 'A', reference: 'B', email: 'a@b.de', extra: 1 })).statusCode).toBe(400);
    for (let i = 0; i < WITHDRAWAL_LIMIT.attempts; i++) await declare({ name: 'Flut', reference: `x${i}`, email: `f${i}@example.de` }, '10.95.7.7');
    expect((await declare({ name: 'Flut', reference: 'y', email: 'g@example.de' }, '10.95.7.7')).statusCode).toBe(429);
  });

  test('one order number or one address is limited from any network address: no guessing, no mail flood', async () => {
    const order = await placeOrder(t.app);
    await payOrder(t.app, order);
    for (let i = 0; i < WITHDRAWAL_TARGET_LIMIT.attempts; i++) {
      expect((await declare({ name: 'Rater', reference: order.orderNumber, email: `rate${i}@example.de` }, `10.96.0.${i + 1}`)).json().outcome).toBe('unmatched');
    }
    // Past the limit the answer says nothing about the order, but the declaration counts: nobody can block
    // a customer's withdrawal by sending declarations for their order first.
    const guessed = await declare({ name: 'Rater', reference: order.orderNumber.toLowerCase(), email: order.email }, '10.96.1.1');
    expect(guessed.statusCode).toBe(201);
    expect(guessed.json()).toMatchObject({ outcome: 'received', orderNumber: null, deadline: null });
    const [stored] = await db.db.select().from(withdrawals).where(eq(withdrawals.orderId, order.orderId));
    expect(stored).toMatchObject({ outcome: 'withdrawn', email: order.email });
    expect(await mailsTo(order.email, 'withdrawal-receipt')).toHaveLength(1);
    // An address that belongs to no order gets no more than the limit of mails.
    for (let i = 0; i < WITHDRAWAL_TARGET_LIMIT.attempts; i++) await declare({ name: 'Spam', reference: `BF-SPAM000${i}`, email: 'opfer@example.de' }, `10.96.2.${i + 1}`);
    const flood = await declare({ name: 'Spam', reference: 'BF-SPAM0009', email: 'OPFER@example.de' }, '10.96.3.1');
    expect(flood.json()).toMatchObject({ outcome: 'received' });
    expect(await mailsTo('opfer@example.de', 'withdrawal-receipt')).toHaveLength(WITHDRAWAL_TARGET_LIMIT.attempts);
  });

  test('after the 14 days the receipt says the period has ended (with its date); an unpaid order has nothing to refund', async () => {
    const late = await placeOrder(t.app);
    await payOrder(t.app, late);
    await setOrder(t.app, late.orderId, { orderedAt: new Date('2026-11-05T09:00:00Z') });
    const answer = await declare({ name: 'Spät', reference: late.orderNumber, email: late.email, language: 'de' }, '10.97.0.1');
    expect(answer.json()).toMatchObject({ outcome: 'late', deadline: '2026-11-19' });
    const [lateMail] = await mailsTo(late.email, 'withdrawal-receipt');
    expect(lateMail!.text).toContain('am 19. November 2026 abgelaufen');

    const unpaid = await placeOrder(t.app, { language: 'es' });
    const [placed] = await db.db.select().from(orders).where(eq(orders.id, unpaid.orderId));
    // A payment already under way (a SEPA debit) whose success arrives after the withdrawal.
    const underWay = await (t.app.payments as SandboxPaymentProvider).simulate(placed!.providerSessionId!, 'pay');
    const answerUnpaid = await declare({ name: 'Sin pago', reference: unpaid.orderNumber, email: unpaid.email, language: 'es' }, '10.97.0.2');
    expect(answerUnpaid.json().outcome).toBe('unpaid');
    const [unpaidMail] = await mailsTo(unpaid.email, 'withdrawal-receipt');
    expect(unpaidMail!.text).toContain('no hay nada que reembolsar');
    const stored = await db.db.select().from(withdrawals).where(eq(withdrawals.orderId, unpaid.orderId));
    expect(stored.map((w) => w.outcome)).toEqual(['unpaid']);
    // The order is not carried out.
    const [cancelled] = await db.db.select().from(orders).where(eq(orders.id, unpaid.orderId));
    expect(cancelled!.status).toBe('cancelled');
    // The late money is held for staff to refund: no production, no payment mail, staff told.
    for (const event of underWay!.events) {
      await deliverEvent(t.app, event);
    }
    const [paidLate] = await db.db.select().from(orders).where(eq(orders.id, unpaid.orderId));
    expect(paidLate).toMatchObject({ status: 'cancelled', paymentStatus: 'paid' });
    expect(await db.db.select().from(jobs).where(eq(jobs.orderId, unpaid.orderId))).toEqual([]);
    expect(await mailsTo(unpaid.email, 'payment-confirmed')).toEqual([]);
    expect(await mailsTo('hilfe@example.de', 'paid-after-cancel-staff')).toHaveLength(1);
  });
});
