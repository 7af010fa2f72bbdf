// Tracking an order with its number or id and the e-mail: the form's checks, one answer for every miss, the
// limits per address and per order, and the guard that mails the link instead of answering.
import { and, eq } from 'drizzle-orm';
import { describe, expect, test, vi } from 'vitest';
import { outgoingMail } from '../../db/schema.js';
import { testDatabases } from '../../test/databases.js';
import { afterTheSale } from './test-after-sale.js';

describe.each(testDatabases())('after the sale on $name', (testDb) => {
  const sale = afterTheSale(testDb);
  const { track, token, status, paidOrder } = sale;

  test('tracking validates like the spec: required, id shape, e-mail shape, length', async () => {
    const cases: [object, Record<string, string>][] = [
      [{ orderId: '', email: '' }, { _: 'required' }],
      [{ orderId: 'abc', email: 'a@b.de' }, { orderId: 'invalidOrderId' }],
      [{ orderId: '6f1c2a9e-3b4d-4c5e-8f70-123456789abc', email: 'nope' }, { email: 'invalidEmail' }],
      [{ orderId: 'x'.repeat(37), email: 'a@b.de' }, { orderId: 'inputTooLong' }],
    ];
    for (const [payload, fields] of cases) {
      const response = await sale.t.app.inject({ method: 'POST', url: '/api/tracking', payload, remoteAddress: '10.9.9.9' });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.fields).toEqual(fields);
    }
  });

  test('a wrong id/e-mail pair gets one generic not-found, never a hint which half was wrong', async () => {
    const order = await paidOrder();
    const wrongEmail = await track(order.orderId, 'someone@example.de', '10.1.0.1');
    const wrongId = await track('6f1c2a9e-3b4d-4c5e-8f70-123456789abc', order.email, '10.1.0.2');
    const wrongNumber = await track('BF-22222222', order.email, '10.1.0.3');
    for (const response of [wrongEmail, wrongId, wrongNumber]) {
      expect(response.statusCode).toBe(404);
      expect(Object.keys(response.json().error).sort()).toEqual(['code', 'requestId']);
      expect(response.json().error.code).toBe('notFound');
    }
  });

  test('tracking finds the order by id or short number with the e-mail in any case, and hands out the status token', async () => {
    const order = await paidOrder();
    const byId = await track(order.orderId, order.email.toUpperCase(), '10.2.0.1');
    expect(byId.statusCode).toBe(200);
    expect(byId.json().order).toMatchObject({ orderNumber: order.orderNumber, status: 'paid', paymentStatus: 'paid', deliveryHours: 48, results: [] });
    expect(byId.json().order.uploads).toHaveLength(3);
    expect(byId.json().statusToken).toBe(token(order.orderId));
    const byNumber = await track(order.orderNumber.toLowerCase(), order.email, '10.2.0.2');
    expect(byNumber.json().order.orderId).toBe(order.orderId);
  });

  test('an address gets 5 failed lookups in 15 minutes, then 429 for any order; its own successes do not count', async () => {
    const order = await paidOrder();
    const other = await paidOrder();
    for (let i = 0; i < 5; i++) expect((await track(`BF-${'23456789'.slice(i)}${'2'.repeat(i)}`, `guess${i}@example.de`, '10.3.0.1')).statusCode).toBe(404);
    const sixth = await track(order.orderId, order.email, '10.3.0.1');
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json().error.code).toBe('rateLimited');
    expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(800);
    expect((await track(other.orderId, other.email, '10.3.0.1')).statusCode).toBe(429);
    // Another address is not affected, and a customer tracking their own order again and again is never locked.
    for (let i = 0; i < 8; i++) expect((await track(order.orderId, order.email, '10.3.0.2')).statusCode).toBe(200);
    sale.clock = new Date(sale.clock.getTime() + 16 * 60 * 1000);
    expect((await track(order.orderId, order.email, '10.3.0.1')).statusCode).toBe(200);
  });

  test('a guesser cannot lock a customer out: after 5 failed lookups of an order every answer is the same, and the right e-mail gets the link by mail', async () => {
    const order = await paidOrder();
    const linkMails = () => sale.db.db.select().from(outgoingMail).where(and(eq(outgoingMail.orderId, order.orderId), eq(outgoingMail.template, 'tracking-link')));
    // Five guesses at the e-mail, each from its own address (a botnet does not care about the per-address limit).
    for (let i = 0; i < 5; i++) expect((await track(order.orderNumber, `guess${i}@example.de`, `10.4.0.${i + 1}`)).statusCode).toBe(404);
    // From now on the order is under guard: a wrong guess and the right e-mail get the very same answer.
    const guess = await track(order.orderNumber, 'guess9@example.de', '10.4.0.9');
    const customer = await track(order.orderId, order.email, '10.4.1.1');
    for (const response of [guess, customer]) {
      expect(response.statusCode).toBe(202);
      expect(response.json()).toEqual({ outcome: 'linkSent' });
    }
    // Only the right pair sends mail (after the answer), to the order's own address, with a link that opens the status page.
    await vi.waitFor(async () => expect(await linkMails()).toHaveLength(1));
    const [mail] = await linkMails();
    expect(await linkMails()).toHaveLength(1);
    expect(mail).toMatchObject({ toAddress: order.email, subject: expect.stringContaining(order.orderNumber) });
    const link = /\/order-status\/[0-9a-f-]{36}\?token=([0-9a-z]+\.[A-Za-z0-9_-]{32})/.exec(mail!.text)!;
    expect((await status(order.orderId, link[1]!)).statusCode).toBe(200);
    // Asking again in the same window sends no second mail (no mail flood); the answer stays the same.
    expect((await track(order.orderId, order.email, '10.4.1.2')).json()).toEqual({ outcome: 'linkSent' });
    expect(await linkMails()).toHaveLength(1);
    // After the window the order answers normally again.
    sale.clock = new Date(sale.clock.getTime() + 16 * 60 * 1000);
    expect((await track(order.orderNumber, order.email, '10.4.1.3')).statusCode).toBe(200);
  });

  test('the customer\'s own lookup clears the order\'s count: misses before it never add up to a guard', async () => {
    const order = await paidOrder();
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 4; i++) expect((await track(order.orderNumber, `miss${round}${i}@example.de`, `10.16.${round}.${i + 1}`)).statusCode).toBe(404);
      expect((await track(order.orderNumber, order.email, `10.16.${round}.9`)).statusCode).toBe(200);
    }
    // Without the clearing these would be misses 13 to 17: under guard, not "not found".
    for (let i = 0; i < 5; i++) expect((await track(order.orderId, `late${i}@example.de`, `10.16.9.${i + 1}`)).statusCode).toBe(404);
    expect((await track(order.orderId, 'late9@example.de', '10.16.9.9')).statusCode).toBe(202);
  });

  test('under guard nothing tells a match: the address keeps every attempt, matched or not; number and id count together; concurrent guesses cannot slip past the count', async () => {
    const order = await paidOrder();
    // Three guesses by number and two by id: one counter, the order's.
    for (let i = 0; i < 3; i++) expect((await track(order.orderNumber, `guess${i}@example.de`, `10.6.0.${i + 1}`)).statusCode).toBe(404);
    for (let i = 3; i < 5; i++) expect((await track(order.orderId, `guess${i}@example.de`, `10.6.0.${i + 1}`)).statusCode).toBe(404);
    // Guarded now. One address asking with the right pair five times and another with wrong pairs five times
    // see the same answers, and both are slowed the same way (a match is no longer given back to the address).
    const matched: number[] = [];
    const guessed: number[] = [];
    for (let i = 0; i < 6; i++) {
      matched.push((await track(order.orderNumber, order.email, '10.6.1.1')).statusCode);
      guessed.push((await track(order.orderNumber, `other${i}@example.de`, '10.6.1.2')).statusCode);
    }
    expect(matched).toEqual([202, 202, 202, 202, 202, 429]);
    expect(guessed).toEqual(matched);

    // Twenty guesses at once at a fresh order, each from its own address: exactly five are answered "not found".
    const fresh = await paidOrder();
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => track(fresh.orderNumber, `rush${i}@example.de`, `10.6.2.${i + 1}`)));
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((c) => c === 404)).toHaveLength(5);
    expect(codes.filter((c) => c === 202)).toHaveLength(15);
  });
});
