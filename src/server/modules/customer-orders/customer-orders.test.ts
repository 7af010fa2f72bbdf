import { createHmac, randomUUID } from 'node:crypto';
import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import yauzl from 'yauzl';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { DatabaseHandle } from '../../db/client.js';
import { auditLog, generatedImages, imageDownloads, invoices, jobs, orderHistory, orderUploads, orders, outgoingMail, revisionRequests } from '../../db/schema.js';
import { buildTestApp, type TestApp } from '../../test/app.js';
import { testDatabases } from '../../test/databases.js';
import { addResults, payOrder, placeOrder, setOrder, variantWith, type SeededOrder } from '../../test/seed.js';
import { statusToken } from '../orders/order-tokens.js';
import { signInStaff } from '../../test/staff.js';

function zipEntries(buffer: Buffer): Promise<{ name: string; size: number }[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buffer, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error);
      const entries: { name: string; size: number }[] = [];
      zip.on('entry', (entry: yauzl.Entry) => {
        entries.push({ name: entry.fileName, size: entry.uncompressedSize });
        zip.readEntry();
      });
      zip.on('end', () => resolve(entries));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

const DAY = 24 * 3600 * 1000;

describe.each(testDatabases())('after the sale on $name', (testDb) => {
  let db: DatabaseHandle;
  let t: TestApp;
  let clock = new Date();

  beforeAll(async () => {
    db = await testDb.open();
    t = await buildTestApp(db, { CAMPAIGN_PERCENT: '0' }, { now: () => clock });
  });
  afterAll(async () => {
    await t.close();
    await db.close();
  });

  const track = (orderId: string, email: string, remoteAddress = '10.0.0.1') =>
    t.app.inject({ method: 'POST', url: '/api/tracking', payload: { orderId, email }, remoteAddress });
  const token = (orderId: string) => statusToken(t.config.appSecret, orderId, t.app.now());
  const status = (orderId: string, proof = token(orderId)) =>
    t.app.inject({ method: 'GET', url: `/api/orders/${orderId}/status`, headers: { 'x-status-token': proof } });

  async function paidOrder(): Promise<SeededOrder> {
    const order = await placeOrder(t.app);
    await payOrder(t.app, order);
    return order;
  }

  async function completedOrder(completedAt = clock) {
    const order = await paidOrder();
    const ids = await addResults(t.app, order.orderId, ['active', 'draft', 'active', 'archived', 'active']);
    await setOrder(t.app, order.orderId, { status: 'completed', completedAt });
    return { order, ids };
  }

  test('due times count business hours: a Saturday-evening order, a Sunday one and one before Christmas; the dashboard agrees', async () => {
    const staff = await signInStaff(t.app, '10.90.0.2');
    const cases: [string, string, string][] = [
      // Basic (48 business hours) paid Saturday 28 Nov 2026 20:00, after closing: Mon to Fri 9–18 (45 h), Sat 5 Dec 10:00 + 3 h.
      ['2026-11-28T20:00:00+01:00', 'basic', '2026-12-05T13:00:00+01:00'],
      // Sunday 29 Nov 10:00: the same, counted from Monday 9:00.
      ['2026-11-29T10:00:00+01:00', 'basic', '2026-12-05T13:00:00+01:00'],
      // Wednesday 23 Dec 17:00: 1 h that day, Thu 24 Dec 9 h, 25 and 26 Dec holidays, a Sunday, Mon 28 to Thu 31 36 h,
      // Fri 1 Jan New Year, Sat 2 Jan 10:00 + 2 h.
      ['2026-12-23T17:00:00+01:00', 'basic', '2027-01-02T12:00:00+01:00'],
    ];
    for (const [paidAt, , due] of cases) {
      const order = await paidOrder();
      await setOrder(t.app, order.orderId, { paidAt: new Date(paidAt), status: 'paid' });
      expect((await status(order.orderId)).json().dueAt, paidAt).toBe(new Date(due).toISOString());
      const waiting = (await staff.request('GET', '/api/admin/dashboard')).json().waiting as { id: string; dueAt: string }[];
      expect(waiting.find((w) => w.id === order.orderId)?.dueAt, paidAt).toBe(new Date(due).toISOString());
    }
  });

  test('tracking validates like the spec: required, id shape, e-mail shape, length', async () => {
    const cases: [object, Record<string, string>][] = [
      [{ orderId: '', email: '' }, { _: 'required' }],
      [{ orderId: 'abc', email: 'a@b.de' }, { orderId: 'invalidOrderId' }],
      [{ orderId: '6f1c2a9e-3b4d-4c5e-8f70-123456789abc', email: 'nope' }, { email: 'invalidEmail' }],
      [{ orderId: 'x'.repeat(37), email: 'a@b.de' }, { orderId: 'inputTooLong' }],
    ];
    for (const [payload, fields] of cases) {
      const response = await t.app.inject({ method: 'POST', url: '/api/tracking', payload, remoteAddress: '10.9.9.9' });
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
    clock = new Date(clock.getTime() + 16 * 60 * 1000);
    expect((await track(order.orderId, order.email, '10.3.0.1')).statusCode).toBe(200);
  });

  test('a guesser cannot lock a customer out: after 5 failed lookups of an order every answer is the same, and the right e-mail gets the link by mail', async () => {
    const order = await paidOrder();
    const linkMails = () => db.db.select().from(outgoingMail).where(and(eq(outgoingMail.orderId, order.orderId), eq(outgoingMail.template, 'tracking-link')));
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
    clock = new Date(clock.getTime() + 16 * 60 * 1000);
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

  test('the status page needs proof: the signed link or the token from tracking', async () => {
    const order = await paidOrder();
    expect((await t.app.inject({ method: 'GET', url: `/api/orders/${order.orderId}/status` })).statusCode).toBe(404);
    expect((await status(order.orderId, 'x'.repeat(32))).statusCode).toBe(404);
    const other = await paidOrder();
    expect((await status(order.orderId, token(other.orderId))).statusCode).toBe(404);
    const ok = await t.app.inject({ method: 'GET', url: `/api/orders/${order.orderId}/status?token=${token(order.orderId)}` });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().history.map((h: { event: string }) => h.event)).toEqual(['order_created', 'order_placed', 'payment_received']);
  });

  test('status links expire after 60 days; a link from an old mail (without its time) counts from the order day; each mail and tracking renews them', async () => {
    const order = await paidOrder();
    const madeNow = token(order.orderId);
    const legacy = createHmac('sha256', t.config.appSecret).update(`status:${order.orderId}`).digest('base64url').slice(0, 32);
    expect((await status(order.orderId, legacy)).statusCode).toBe(200);
    const start = clock;
    try {
      clock = new Date(start.getTime() + 59 * DAY);
      expect((await status(order.orderId, madeNow)).statusCode).toBe(200);
      clock = new Date(start.getTime() + 61 * DAY);
      for (const old of [madeNow, legacy]) {
        const expired = await status(order.orderId, old);
        expect(expired.statusCode).toBe(403);
        expect(expired.json().error.code).toBe('linkExpired');
      }
      // A lookup with the e-mail hands out a fresh one.
      const fresh = (await track(order.orderId, order.email, '10.5.0.1')).json().statusToken as string;
      expect((await status(order.orderId, fresh)).statusCode).toBe(200);
      // A forged time is no link at all.
      const forged = `${clock.getTime().toString(36)}.${madeNow.split('.')[1]}`;
      expect((await status(order.orderId, forged)).statusCode).toBe(404);
    } finally {
      clock = start;
    }
  });

  test('the ZIP holds exactly the published images with the right names, and downloads are recorded', async () => {
    const { order, ids } = await completedOrder();
    const view = (await status(order.orderId)).json();
    expect(view.results.map((r: { id: string; n: number }) => [r.id, r.n])).toEqual([
      [ids[0], 1],
      [ids[2], 2],
      [ids[4], 3],
    ]);
    expect(view.uploads).toEqual([]);
    const zip = await t.app.inject({ method: 'GET', url: view.zipUrl });
    expect(zip.statusCode).toBe(200);
    expect(zip.headers['content-type']).toBe('application/zip');
    expect(zip.headers['content-disposition']).toBe(`attachment; filename="bewerbungsfotos-${order.orderNumber}.zip"`);
    const entries = await zipEntries(zip.rawPayload);
    expect(entries.map((e) => e.name)).toEqual(['headshot-1-ergebnis-1.jpg', 'headshot-2-ergebnis-3.jpg', 'headshot-3-ergebnis-5.jpg']);
    expect(entries.every((e) => e.size > 10_000)).toBe(true);
    const recorded = await db.db.select().from(imageDownloads).where(eq(imageDownloads.orderId, order.orderId));
    expect(recorded.map((r) => [r.generatedImageId, r.kind]).sort()).toEqual([ids[0], ids[2], ids[4]].map((id) => [id, 'zip']).sort());
  });

  test('pictures in several formats also come as one ZIP per format, numbered as on the page; a link for one format opens no other', async () => {
    const { order, ids } = await completedOrder();
    expect((await status(order.orderId)).json().formatZips).toEqual([]);
    await db.db.update(generatedImages).set({ variant: variantWith({ format: 'portrait' }) }).where(eq(generatedImages.id, ids[0]!));
    await db.db.update(generatedImages).set({ variant: variantWith({ format: 'square' }) }).where(eq(generatedImages.id, ids[2]!));
    await db.db.update(generatedImages).set({ variant: variantWith({ format: 'portrait' }) }).where(eq(generatedImages.id, ids[4]!));
    const view = (await status(order.orderId)).json();
    expect(view.formatZips.map((z: { format: string; count: number }) => [z.format, z.count])).toEqual([
      ['portrait', 2],
      ['square', 1],
    ]);
    const portrait = await t.app.inject({ method: 'GET', url: view.formatZips[0].url });
    expect(portrait.headers['content-disposition']).toBe(`attachment; filename="bewerbungsfotos-${order.orderNumber}-4x5.zip"`);
    expect((await zipEntries(portrait.rawPayload)).map((e) => e.name)).toEqual(['headshot-1-ergebnis-1.jpg', 'headshot-3-ergebnis-5.jpg']);
    // The signature covers the format: swapped, or dropped (which would mean all pictures), the link is refused.
    const swapped = (view.formatZips[0].url as string).replace('format=portrait', 'format=square');
    expect((await t.app.inject({ method: 'GET', url: swapped })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: (view.formatZips[0].url as string).replace('format=portrait&', '') })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: (view.formatZips[0].url as string).replace('format=portrait', 'format=poster') })).statusCode).toBe(400);
  });

  test('one image downloads as headshot-{n}-{file} through a signed link, and is recorded', async () => {
    const { order, ids } = await completedOrder();
    const view = (await status(order.orderId)).json();
    const response = await t.app.inject({ method: 'GET', url: view.results[1].downloadUrl });
    expect(response.statusCode).toBe(302);
    const file = await t.app.inject({ method: 'GET', url: response.headers.location as string });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toContain('headshot-2-ergebnis-3.jpg');
    const recorded = await db.db.select().from(imageDownloads).where(eq(imageDownloads.generatedImageId, ids[2]!));
    expect(recorded.map((r) => r.kind)).toEqual(['single']);
  });

  test('an expired or altered download link is refused', async () => {
    const { order } = await completedOrder();
    const view = (await status(order.orderId)).json();
    const zipUrl: string = view.zipUrl;
    const altered = zipUrl.replace(/sig=([0-9a-f])/, (_m, c: string) => `sig=${c === 'a' ? 'b' : 'a'}`);
    expect((await t.app.inject({ method: 'GET', url: altered })).json().error.code).toBe('linkInvalid');
    const otherOrder = zipUrl.replace(order.orderId, (await paidOrder()).orderId);
    expect((await t.app.inject({ method: 'GET', url: otherOrder })).statusCode).toBe(403);
    const unsigned = zipUrl.split('?')[0]!;
    expect((await t.app.inject({ method: 'GET', url: unsigned })).statusCode).toBe(403);
    const saved = clock;
    clock = new Date(clock.getTime() + 2 * 3600 * 1000);
    const expired = await t.app.inject({ method: 'GET', url: zipUrl });
    clock = saved;
    expect(expired.statusCode).toBe(403);
    expect(expired.json().error.code).toBe('linkExpired');
  });

  test('a person who opens a run-out or broken download link lands on the status page, which says why; a script gets JSON', async () => {
    const { order } = await completedOrder();
    const view = (await status(order.orderId)).json();
    const browser = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
    const saved = clock;
    clock = new Date(clock.getTime() + 2 * 3600 * 1000);
    const expiredZip = await t.app.inject({ method: 'GET', url: view.zipUrl, headers: browser });
    const expiredImage = await t.app.inject({ method: 'GET', url: view.results[0].downloadUrl, headers: browser });
    clock = saved;
    for (const response of [expiredZip, expiredImage]) {
      expect(response.statusCode).toBe(303);
      expect(response.headers.location).toBe(`/order-status/${order.orderId}?download=link`);
    }
    const altered = (view.zipUrl as string).replace(/sig=([0-9a-f])/, (_m, c: string) => `sig=${c === 'a' ? 'b' : 'a'}`);
    expect((await t.app.inject({ method: 'GET', url: altered, headers: browser })).headers.location).toBe(`/order-status/${order.orderId}?download=link`);
    // The page's own script (or any client asking for JSON) still gets the error in our shape.
    expect((await t.app.inject({ method: 'GET', url: altered, headers: { accept: 'application/json' } })).json().error.code).toBe('linkInvalid');
  });

  test('the customer keeps favourites among the published pictures, each labelled with its format; staff see them', async () => {
    const { order, ids } = await completedOrder();
    await db.db.update(generatedImages).set({ variant: variantWith({ format: 'square' }) }).where(eq(generatedImages.id, ids[0]!));
    const favourite = (imageId: string, value: boolean, proof = token(order.orderId)) =>
      t.app.inject({ method: 'POST', url: `/api/orders/${order.orderId}/results/${imageId}/favourite`, headers: { 'x-status-token': proof }, payload: { favourite: value } });
    const marked = await favourite(ids[2]!, true);
    expect(marked.statusCode).toBe(200);
    const results = marked.json().results as { id: string; favourite: boolean; format: string | null }[];
    expect(results.map((r) => [r.id, r.favourite, r.format])).toEqual([
      [ids[0], false, 'square'],
      [ids[2], true, null],
      [ids[4], false, null],
    ]);
    // Kept on the order: the next visit shows it, and staff see it.
    expect((await status(order.orderId)).json().results.find((r: { id: string }) => r.id === ids[2]).favourite).toBe(true);
    const staffView = await (await signInStaff(t.app, '10.90.0.1')).request('GET', `/api/admin/orders/${order.orderId}`);
    expect(staffView.json().results.find((r: { id: string }) => r.id === ids[2]).favourite).toBe(true);
    expect((await favourite(ids[2]!, false)).json().results.every((r: { favourite: boolean }) => !r.favourite)).toBe(true);
    // Only published pictures of this order, and only with the order's proof.
    expect((await favourite(ids[1]!, true)).statusCode).toBe(404);
    const other = await completedOrder();
    expect((await favourite(other.ids[0]!, true)).statusCode).toBe(404);
    expect((await favourite(ids[0]!, true, 'x'.repeat(40))).statusCode).toBe(404);
  });

  test('a redo names published pictures within 7 days, counted against the package budget; it reopens the order on its own due time and makes new drafts the order way', async () => {
    // Basic: 3 pictures, 2 redos. Completed six days ago on Friday 27 Nov 2026; the redo comes on Saturday 28 Nov at 20:00.
    const requestedAt = new Date('2026-11-28T20:00:00+01:00');
    clock = requestedAt;
    const { order, ids } = await completedOrder(new Date(requestedAt.getTime() - 6 * DAY));
    const redo = (body: object, orderId = order.orderId) =>
      t.app.inject({ method: 'POST', url: `/api/orders/${orderId}/revision`, headers: { 'x-status-token': token(orderId) }, payload: body });
    const before = (await status(order.orderId)).json();
    expect(before.revision).toMatchObject({ open: false, budget: 2, remaining: 2, current: null, answers: [] });

    expect((await redo({ imageIds: [] })).json().error.fields.imageIds).toBe('picturesRequired');
    // Three pictures are more than the budget; a draft, an archived picture or another order's picture is no published picture of this order.
    const tooMany = await redo({ imageIds: [ids[0], ids[2], ids[4]] });
    expect([tooMany.statusCode, tooMany.json().error.code, tooMany.json().error.details]).toEqual([409, 'redoBudgetExceeded', { remaining: 2 }]);
    expect((await redo({ imageIds: [ids[1]] })).statusCode).toBe(404);
    expect((await redo({ imageIds: [ids[3]] })).statusCode).toBe(404);
    const other = await completedOrder(new Date(requestedAt.getTime() - DAY));
    expect((await redo({ imageIds: [other.ids[0]] })).statusCode).toBe(404);
    expect(await db.db.select().from(revisionRequests).where(eq(revisionRequests.orderId, order.orderId))).toEqual([]);

    const accepted = await redo({ imageIds: [ids[0], ids[4]], message: 'Bitte ohne Glanz auf der Stirn.' });
    expect(accepted.statusCode).toBe(200);
    // Due after the package's 48 business hours, counted from Monday 9:00 (the studio is closed on Saturday evening and Sunday).
    const due = new Date('2026-12-05T13:00:00+01:00').toISOString();
    expect(accepted.json()).toMatchObject({
      status: 'in_progress',
      dueAt: due,
      revision: { open: true, remaining: 0, current: { pictures: 2, dueAt: due, message: 'Bitte ohne Glanz auf der Stirn.' } },
    });
    expect(accepted.json().results.filter((r: { redo: boolean }) => r.redo).map((r: { id: string }) => r.id)).toEqual([ids[0], ids[4]]);
    // One at a time, and the budget is used up.
    await setOrder(t.app, order.orderId, { status: 'completed', completedAt: requestedAt });
    expect((await redo({ imageIds: [ids[2]] })).json().error.code).toBe('redoBudgetExceeded');
    await setOrder(t.app, order.orderId, { status: 'in_progress', completedAt: null });

    const history = await db.db.select().from(orderHistory).where(eq(orderHistory.orderId, order.orderId));
    expect(history.at(-1)).toMatchObject({ event: 'revision_requested', fromStatus: 'completed', toStatus: 'in_progress', actorType: 'customer' });
    // The studio makes this order: one new draft per named picture, in its format, in a new generation.
    const redoJobs = (await db.db.select().from(jobs).where(eq(jobs.orderId, order.orderId))).filter((job) => (job.payload as { formats?: string[] }).formats);
    // Each with the photo and backdrop of the picture it replaces (none: staff uploaded these); the reason names
    // nothing the studio can change.
    expect(redoJobs.map((job) => job.payload)).toEqual([{ orderId: order.orderId, generation: 1, formats: ['portrait', 'portrait'], from: [expect.any(Object), expect.any(Object)], changes: {} }]);
    // The acknowledgement, in the order's language, with the due time and the reason.
    const [ack] = await db.db.select().from(outgoingMail).where(and(eq(outgoingMail.orderId, order.orderId), eq(outgoingMail.template, 'revision-received')));
    expect(ack?.subject).toContain(order.orderNumber);
    expect(ack?.text).toContain('2 Bilder');
    expect(ack?.text).toContain('5. Dezember 2026, 13:00');
    expect(ack?.text).toContain('Bitte ohne Glanz auf der Stirn.');
    // Staff see it on the dashboard with its due time; the order waits on the redo's due time.
    const staff = await signInStaff(t.app, '10.90.0.3');
    const dashboard = (await staff.request('GET', '/api/admin/dashboard')).json();
    expect(dashboard.revisions.find((r: { orderId: string }) => r.orderId === order.orderId)).toMatchObject({ pictures: 2, dueAt: due, message: 'Bitte ohne Glanz auf der Stirn.' });
    expect(dashboard.waiting.find((w: { id: string }) => w.id === order.orderId)).toMatchObject({ dueAt: due, redo: true });

    // Eight days after delivery it is too late.
    const late = await completedOrder(new Date(requestedAt.getTime() - 8 * DAY));
    const refused = await redo({ imageIds: [late.ids[0]] }, late.order.orderId);
    expect([refused.statusCode, refused.json().error.code]).toEqual([409, 'revisionNotAllowed']);
    clock = new Date();
  });

  test('a redo of a generator order asks for the named pictures\' slots again; an order made by hand starts no job', async () => {
    for (const mode of ['generator', 'manual'] as const) {
      const { order, ids } = await completedOrder(new Date(clock.getTime() - DAY));
      await setOrder(t.app, order.orderId, { productionMode: mode });
      // Generated pictures carry their slot (the picture index of their run).
      await db.db.update(generatedImages).set({ variant: variantWith({ index: 4, format: 'square' }) }).where(eq(generatedImages.id, ids[2]!));
      await db.db.update(generatedImages).set({ variant: variantWith({ index: 1, format: 'portrait' }) }).where(eq(generatedImages.id, ids[4]!));
      const before = await db.db.select().from(jobs).where(eq(jobs.orderId, order.orderId));
      const response = await t.app.inject({ method: 'POST', url: `/api/orders/${order.orderId}/revision`, headers: { 'x-status-token': token(order.orderId) }, payload: { imageIds: [ids[2], ids[4]] } });
      expect(response.statusCode).toBe(200);
      const added = (await db.db.select().from(jobs).where(eq(jobs.orderId, order.orderId))).filter((job) => !before.some((b) => b.id === job.id));
      if (mode === 'generator') expect(added.map((job) => [job.queue, job.payload])).toEqual([['generator.predict', { orderId: order.orderId, generation: 1, indices: [1, 4] }]]);
      else expect(added).toEqual([]);
    }
  });

  test('staff answer and close a redo: new pictures replace the named ones, the order is complete again, the customer gets the answer', async () => {
    const { order, ids } = await completedOrder(new Date(clock.getTime() - DAY));
    const requested = await t.app.inject({
      method: 'POST',
      url: `/api/orders/${order.orderId}/revision`,
      headers: { 'x-status-token': token(order.orderId), 'accept-language': 'de' },
      payload: { imageIds: [ids[0], ids[2]] },
    });
    expect(requested.statusCode).toBe(200);
    const [revision] = await db.db.select().from(revisionRequests).where(eq(revisionRequests.orderId, order.orderId));
    const staff = await signInStaff(t.app, '10.90.0.4');
    const close = (message: string) => staff.request('POST', `/api/admin/orders/${order.orderId}/revisions/${revision!.id}/close`, { message });
    expect((await close('')).json().error.fields.message).toBe('messageRequired');
    // Two new pictures, published after the request.
    clock = new Date(clock.getTime() + 3600 * 1000);
    const fresh = await addResults(t.app, order.orderId, ['draft', 'draft']);
    for (const id of fresh) expect((await staff.request('POST', `/api/admin/orders/${order.orderId}/results/${id}/status`, { status: 'active' })).statusCode).toBe(200);
    const closed = await close('Hier sind zwei neue Fassungen mit weicherem Licht.');
    expect(closed.statusCode).toBe(200);
    expect(closed.json().revisions[0]).toMatchObject({ status: 'done', answer: 'Hier sind zwei neue Fassungen mit weicherem Licht.', imageIds: [ids[0], ids[2]] });
    expect((await close('Noch einmal.')).json().error.code).toBe('revisionClosed');

    const view = (await status(order.orderId)).json();
    expect(view.status).toBe('completed');
    // The named pictures are replaced: the third stays, the two new ones join it.
    expect(view.results.map((r: { id: string }) => r.id).sort()).toEqual([ids[4], ...fresh].sort());
    expect(view.revision).toMatchObject({ open: false, current: null, answers: [{ message: 'Hier sind zwei neue Fassungen mit weicherem Licht.', pictures: 2 }] });
    const [answer] = await db.db.select().from(outgoingMail).where(and(eq(outgoingMail.orderId, order.orderId), eq(outgoingMail.template, 'revision-answered')));
    expect(answer?.text).toContain('2 neue Bilder');
    expect(answer?.text).toContain('Hier sind zwei neue Fassungen mit weicherem Licht.');
    expect(answer?.text).toMatch(/\/order-status\/[0-9a-f-]+\?token=/);
    clock = new Date();
  });

  test('the status view shows every row of the order in its order and at its stored time, in each state, the same through tracking', async () => {
    clock = new Date();
    /** The view as each table read on its own gives it (the driver cuts microseconds off a time). */
    async function expectViewOfRows(orderId: string, email: string, remoteAddress: string, proof = token(orderId)) {
      const view = (await status(orderId, proof)).json();
      const [order] = await db.db.select().from(orders).where(eq(orders.id, orderId));
      const uploads = order!.status !== 'completed' && !order!.photosDeletedAt
        ? await db.db.select().from(orderUploads).where(eq(orderUploads.orderId, orderId)).orderBy(asc(orderUploads.uploadOrder))
        : [];
      const results = await db.db.select().from(generatedImages).where(and(eq(generatedImages.orderId, orderId), eq(generatedImages.status, 'active'))).orderBy(asc(generatedImages.createdAt), asc(generatedImages.id));
      const history = await db.db.select().from(orderHistory).where(eq(orderHistory.orderId, orderId)).orderBy(asc(orderHistory.createdAt), asc(orderHistory.id));
      const revisions = await db.db.select().from(revisionRequests).where(eq(revisionRequests.orderId, orderId)).orderBy(desc(revisionRequests.createdAt));
      const invoiceRows = await db.db.select().from(invoices).where(eq(invoices.orderId, orderId)).orderBy(asc(invoices.year), asc(invoices.sequence));
      const open = revisions.find((r) => r.status === 'open');
      expect(view.uploads.map((u: { id: string; fileName: string }) => [u.id, u.fileName])).toEqual(uploads.map((u) => [u.id, u.fileName]));
      expect(view.results.map((r: Record<string, unknown>) => [r.id, r.n, r.fileName, r.format, r.favourite, r.redo])).toEqual(
        results.map((r, index) => [r.id, index + 1, r.fileName, (r.variant as { format?: string } | null)?.format ?? null, r.favouriteAt !== null, open?.imageIds.includes(r.id) ?? false]),
      );
      expect(view.history).toEqual(history.map((h) => ({ event: h.event, at: h.createdAt.toISOString(), fromStatus: h.fromStatus, toStatus: h.toStatus })));
      expect(view.revision.current).toEqual(open ? { createdAt: open.createdAt.toISOString(), dueAt: open.dueAt?.toISOString() ?? null, overdue: open.dueAt !== null && open.dueAt < t.app.now(), pictures: open.imageIds.length, message: open.message } : null);
      expect(view.revision.answers).toEqual(revisions.filter((r) => r.answer && r.resolvedAt).map((r) => ({ at: r.resolvedAt!.toISOString(), message: r.answer, pictures: r.imageIds.length })));
      expect(view.invoices.map((i: Record<string, unknown>) => [i.id, i.number, i.kind, i.issuedAt, i.grossCents])).toEqual(
        invoiceRows.map((i) => [i.id, i.number, i.kind, i.issuedAt.toISOString(), i.grossCents]),
      );
      const tracked = await track(orderId, email, remoteAddress);
      expect(tracked.statusCode).toBe(200);
      // Storage links are signed on the wall clock, which may have ticked between the two answers.
      const unsigned = (v: typeof view) => ({ ...v, uploads: v.uploads.map((u: object) => ({ ...u, thumbnailUrl: '' })), results: v.results.map((r: object) => ({ ...r, url: '' })) });
      expect(unsigned(tracked.json().order)).toEqual(unsigned(view));
      return view;
    }

    const { order, ids } = await completedOrder(new Date(clock.getTime() - DAY));
    await setOrder(t.app, order.orderId, { status: 'in_progress', completedAt: null });
    // Times with microseconds, and ties that only the id breaks.
    await db.db.update(generatedImages).set({ createdAt: sql`'2026-11-01 12:00:00.123999+00'`, variant: variantWith({ format: 'square' }) }).where(inArray(generatedImages.id, [ids[2]!, ids[4]!]));
    await db.db.update(generatedImages).set({ favouriteAt: clock }).where(eq(generatedImages.id, ids[4]!));
    await db.db.insert(orderHistory).values(['note_a', 'note_b'].map((event) => ({ orderId: order.orderId, event, actorType: 'staff', createdAt: sql`'2026-11-02 08:00:00.456789+00'` })));
    const [original] = await db.db.select().from(invoices).where(eq(invoices.orderId, order.orderId));
    expect(original).toBeDefined();
    // A second invoice sorted before the first by its year, whatever order the table returns them in.
    await db.db.insert(invoices).values({ ...original!, id: randomUUID(), number: `${original!.number}-B`, year: original!.year - 1, kind: 'cancellation', grossCents: -100, refundId: null, issuedAt: sql`'2026-11-03 09:00:00.999999+00'` });
    const inProgress = await expectViewOfRows(order.orderId, order.email, '10.15.0.1');
    expect(inProgress.uploads).toHaveLength(3);
    expect(inProgress.results.map((r: { id: string }) => r.id)).toEqual([ids[0], ...[ids[2], ids[4]].sort()]);
    expect(inProgress.history.slice(0, 2).map((h: { event: string; at: string }) => [h.event, h.at])).toEqual([['note_a', '2026-11-02T08:00:00.456Z'], ['note_b', '2026-11-02T08:00:00.456Z']]);
    expect(inProgress.invoices.map((i: { kind: string; issuedAt: string }) => [i.kind, i.issuedAt])[0]).toEqual(['cancellation', '2026-11-03T09:00:00.999Z']);

    // Completed (no uploads shown), with an answered redo and an open one.
    await setOrder(t.app, order.orderId, { status: 'completed', completedAt: clock });
    await db.db.insert(revisionRequests).values({
      id: randomUUID(), orderId: order.orderId, message: 'Heller bitte.', imageIds: [ids[0]!], status: 'done', answer: 'Erledigt.',
      createdAt: sql`'2026-11-04 10:00:00.000500+00'`, dueAt: sql`'2026-11-05 10:00:00.777777+00'`, resolvedAt: sql`'2026-11-04 18:30:00.250001+00'`,
    });
    const redo = await t.app.inject({ method: 'POST', url: `/api/orders/${order.orderId}/revision`, headers: { 'x-status-token': token(order.orderId) }, payload: { imageIds: [ids[2]], message: 'Ohne Glanz.' } });
    expect(redo.statusCode).toBe(200);
    await setOrder(t.app, order.orderId, { status: 'completed', completedAt: clock });
    const completed = await expectViewOfRows(order.orderId, order.email, '10.15.0.2');
    expect(completed.uploads).toEqual([]);
    expect(completed.revision.answers).toEqual([{ at: '2026-11-04T18:30:00.250Z', message: 'Erledigt.', pictures: 1 }]);
    expect(completed.revision.current).toMatchObject({ message: 'Ohne Glanz.', pictures: 1 });
    expect(completed.results.filter((r: { redo: boolean }) => r.redo).map((r: { id: string }) => r.id)).toEqual([ids[2]]);

    // A fresh paid order (no results, no revisions), an unpaid one, and one whose photos are deleted.
    const paid = await paidOrder();
    expect((await expectViewOfRows(paid.orderId, paid.email, '10.15.0.3')).results).toEqual([]);
    const unpaid = await placeOrder(t.app);
    expect((await expectViewOfRows(unpaid.orderId, unpaid.email, '10.15.0.4')).invoices).toEqual([]);
    const deleted = await t.app.inject({ method: 'POST', url: `/api/orders/${order.orderId}/delete-photos`, headers: { 'x-status-token': token(order.orderId) }, payload: { confirm: true } });
    expect(deleted.statusCode).toBe(200);
    const gone = await expectViewOfRows(order.orderId, order.email, '10.15.0.5', deleted.json().statusToken);
    expect([gone.uploads, gone.results]).toEqual([[], []]);
    expect(gone.invoices).toHaveLength(2);
  });

  test('the customer deletes the photos early: files and rows gone, recorded, shown', async () => {
    const { order } = await completedOrder();
    const withoutConfirm = await t.app.inject({ method: 'POST', url: `/api/orders/${order.orderId}/delete-photos`, headers: { 'x-status-token': token(order.orderId) }, payload: {} });
    expect(withoutConfirm.statusCode).toBe(400);
    const before = token(order.orderId);
    const response = await t.app.inject({ method: 'POST', url: `/api/orders/${order.orderId}/delete-photos`, headers: { 'x-status-token': before }, payload: { confirm: true } });
    expect(response.statusCode).toBe(200);
    expect(response.json().order).toMatchObject({ results: [], uploads: [], zipUrl: null, photosDeleteAfter: null });
    expect(response.json().order.photosDeletedAt).not.toBeNull();
    // Deleting revoked every link made before (those in the mails too); the page got a new one.
    expect((await status(order.orderId, before)).json().error.code).toBe('linkExpired');
    expect((await status(order.orderId, response.json().statusToken)).statusCode).toBe(200);
    expect(await t.app.storage.listKeys(`uploads/${order.orderId}/`)).toEqual([]);
    expect(await t.app.storage.listKeys(`results/${order.orderId}/`)).toEqual([]);
    expect((await db.db.select({ n: count() }).from(orderUploads).where(eq(orderUploads.orderId, order.orderId)))[0]!.n).toBe(0);
    const audit = await db.db.select().from(auditLog).where(eq(auditLog.orderId, order.orderId));
    expect(audit.map((a) => [a.action, a.actorType])).toEqual([['order.photos_deleted', 'customer']]);
  });

  test('the deletion job removes exactly what is due, files and rows, and nothing else, across a restart', async () => {
    const start = clock;
    const due = await completedOrder(new Date(start.getTime() - 31 * DAY));
    const notYet = await completedOrder(new Date(start.getTime() - 29 * DAY));
    const working = await paidOrder();
    await addResults(t.app, working.orderId, ['draft']);
    await setOrder(t.app, working.orderId, { status: 'in_progress', createdAt: new Date(start.getTime() - 40 * DAY) });
    // Placed a day ago; its payment page expired without payment.
    const placedUnpaid = await placeOrder(t.app);
    await setOrder(t.app, placedUnpaid.orderId, {
      createdAt: new Date(start.getTime() - 26 * 3600 * 1000),
      orderedAt: new Date(start.getTime() - 25 * 3600 * 1000),
      providerSessionId: null,
    });
    // Placed a day ago and still paying (a SEPA debit takes days): kept.
    const stillPaying = await placeOrder(t.app);
    await setOrder(t.app, stillPaying.orderId, { createdAt: new Date(start.getTime() - 26 * 3600 * 1000), orderedAt: new Date(start.getTime() - 25 * 3600 * 1000) });
    const freshUnpaid = await placeOrder(t.app);
    // A draft that never reached the order button, a day old.
    const draft = (await t.app.inject({ method: 'POST', url: '/api/orders', payload: { language: 'de', selection: { gender: null, style: null, package: null, location: null, outfit: null, extras: [] }, photoConsent: true, photoConsentVersion: '2026-11-01' } })).json();
    await setOrder(t.app, draft.orderId, { createdAt: new Date(start.getTime() - 25 * 3600 * 1000) });

    const keys = async (orderId: string) => [...(await t.app.storage.listKeys(`uploads/${orderId}/`)), ...(await t.app.storage.listKeys(`results/${orderId}/`))];
    const run = await t.app.retention.run();
    const purged = Object.fromEntries(run.purged.map((p) => [p.orderId, p.reason]));
    expect(purged[due.order.orderId]).toBe('retention');
    expect(purged[placedUnpaid.orderId]).toBe('unpaidDraft');
    expect(purged[draft.orderId]).toBe('unpaidDraft');
    for (const kept of [notYet.order.orderId, working.orderId, freshUnpaid.orderId, stillPaying.orderId]) expect(purged[kept]).toBeUndefined();
    expect(await keys(stillPaying.orderId)).toHaveLength(6);

    expect(await keys(due.order.orderId)).toEqual([]);
    expect(await keys(placedUnpaid.orderId)).toEqual([]);
    expect(await keys(notYet.order.orderId)).toHaveLength(3 * 2 + 5);
    expect(await keys(working.orderId)).toHaveLength(3 * 2 + 1);
    expect(await keys(freshUnpaid.orderId)).toHaveLength(6);
    expect((await db.db.select().from(orders).where(eq(orders.id, draft.orderId))).length).toBe(0);
    expect((await db.db.select().from(orders).where(eq(orders.id, placedUnpaid.orderId)))[0]!.photosDeletedAt).not.toBeNull();
    expect((await db.db.select({ n: count() }).from(generatedImages).where(eq(generatedImages.orderId, due.order.orderId)))[0]!.n).toBe(0);
    const records = await db.db.select().from(auditLog).where(eq(auditLog.actorType, 'system'));
    expect(records.some((r) => r.action === 'order.deleted' && (r.details as { orderNumber: string }).orderNumber === draft.orderNumber)).toBe(true);

    // Running again changes nothing.
    expect((await t.app.retention.run()).purged.filter((p) => [due.order.orderId, placedUnpaid.orderId].includes(p.orderId))).toEqual([]);

    // A restart two days later: the app is built anew on the same database and storage.
    const later = new Date(start.getTime() + 2 * DAY);
    const restarted = await buildTestApp(db, { CAMPAIGN_PERCENT: '0', DATA_DIR: t.dataDir }, { now: () => later });
    try {
      const second = await restarted.app.retention.run();
      const ids = second.purged.map((p) => p.orderId);
      expect(ids).toContain(notYet.order.orderId);
      // Its payment page is still open two days later: kept until the payment ends or the grace period is over.
      expect(ids).not.toContain(freshUnpaid.orderId);
      expect(ids).not.toContain(working.orderId);
      expect(await restarted.app.storage.listKeys(`results/${notYet.order.orderId}/`)).toEqual([]);
      expect(await restarted.app.storage.listKeys(`uploads/${working.orderId}/`)).toHaveLength(6);
    } finally {
      await restarted.app.close();
    }
  });
});
