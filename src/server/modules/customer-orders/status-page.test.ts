// The customer's status page: the proof it needs, how long its links live, the due times it shows, and every
// row of the order it shows, as stored.
import { createHmac, randomUUID } from 'node:crypto';
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import { generatedImages, invoices, orderHistory, orderUploads, orders, revisionRequests } from '../../db/schema.js';
import { testDatabases } from '../../test/databases.js';
import { placeOrder, setOrder, variantWith } from '../../test/seed.js';
import { signInStaff } from '../../test/staff.js';
import { afterTheSale, DAY } from './test-after-sale.js';

describe.each(testDatabases())('after the sale on $name', (testDb) => {
  const sale = afterTheSale(testDb);
  const { track, token, status, paidOrder, completedOrder } = sale;

  test('due times count business hours: a Saturday-evening order, a Sunday one and one before Christmas; the dashboard agrees', async () => {
    const staff = await signInStaff(sale.t.app, '10.90.0.2');
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
      await setOrder(sale.t.app, order.orderId, { paidAt: new Date(paidAt), status: 'paid' });
      expect((await status(order.orderId)).json().dueAt, paidAt).toBe(new Date(due).toISOString());
      const waiting = (await staff.request('GET', '/api/admin/dashboard')).json().waiting as { id: string; dueAt: string }[];
      expect(waiting.find((w) => w.id === order.orderId)?.dueAt, paidAt).toBe(new Date(due).toISOString());
    }
  });

  test('the status page needs proof: the signed link or the token from tracking', async () => {
    const order = await paidOrder();
    expect((await sale.t.app.inject({ method: 'GET', url: `/api/orders/${order.orderId}/status` })).statusCode).toBe(404);
    expect((await status(order.orderId, 'x'.repeat(32))).statusCode).toBe(404);
    const other = await paidOrder();
    expect((await status(order.orderId, token(other.orderId))).statusCode).toBe(404);
    const ok = await sale.t.app.inject({ method: 'GET', url: `/api/orders/${order.orderId}/status?token=${token(order.orderId)}` });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().history.map((h: { event: string }) => h.event)).toEqual(['order_created', 'order_placed', 'payment_received']);
  });

  test('status links expire after 60 days; a link from an old mail (without its time) counts from the order day; each mail and tracking renews them', async () => {
    const order = await paidOrder();
    const madeNow = token(order.orderId);
    const legacy = createHmac('sha256', sale.t.config.appSecret).update(`status:${order.orderId}`).digest('base64url').slice(0, 32);
    expect((await status(order.orderId, legacy)).statusCode).toBe(200);
    const start = sale.clock;
    try {
      sale.clock = new Date(start.getTime() + 59 * DAY);
      expect((await status(order.orderId, madeNow)).statusCode).toBe(200);
      sale.clock = new Date(start.getTime() + 61 * DAY);
      for (const old of [madeNow, legacy]) {
        const expired = await status(order.orderId, old);
        expect(expired.statusCode).toBe(403);
        expect(expired.json().error.code).toBe('linkExpired');
      }
      // A lookup with the e-mail hands out a fresh one.
      const fresh = (await track(order.orderId, order.email, '10.5.0.1')).json().statusToken as string;
      expect((await status(order.orderId, fresh)).statusCode).toBe(200);
      // A forged time is no link at all.
      const forged = `${sale.clock.getTime().toString(36)}.${madeNow.split('.')[1]}`;
      expect((await status(order.orderId, forged)).statusCode).toBe(404);
    } finally {
      sale.clock = start;
    }
  });

  test('the status view shows every row of the order in its order and at its stored time, in each state, the same through tracking', async () => {
    sale.clock = new Date();
    /** The view as each table read on its own gives it (the driver cuts microseconds off a time). */
    async function expectViewOfRows(orderId: string, email: string, remoteAddress: string, proof = token(orderId)) {
      const view = (await status(orderId, proof)).json();
      const [order] = await sale.db.db.select().from(orders).where(eq(orders.id, orderId));
      const uploads = order!.status !== 'completed' && !order!.photosDeletedAt
        ? await sale.db.db.select().from(orderUploads).where(eq(orderUploads.orderId, orderId)).orderBy(asc(orderUploads.uploadOrder))
        : [];
      const results = await sale.db.db.select().from(generatedImages).where(and(eq(generatedImages.orderId, orderId), eq(generatedImages.status, 'active'))).orderBy(asc(generatedImages.createdAt), asc(generatedImages.id));
      const history = await sale.db.db.select().from(orderHistory).where(eq(orderHistory.orderId, orderId)).orderBy(asc(orderHistory.createdAt), asc(orderHistory.id));
      const revisions = await sale.db.db.select().from(revisionRequests).where(eq(revisionRequests.orderId, orderId)).orderBy(desc(revisionRequests.createdAt));
      const invoiceRows = await sale.db.db.select().from(invoices).where(eq(invoices.orderId, orderId)).orderBy(asc(invoices.year), asc(invoices.sequence));
      const open = revisions.find((r) => r.status === 'open');
      expect(view.uploads.map((u: { id: string; fileName: string }) => [u.id, u.fileName])).toEqual(uploads.map((u) => [u.id, u.fileName]));
      expect(view.results.map((r: Record<string, unknown>) => [r.id, r.n, r.fileName, r.format, r.favourite, r.redo])).toEqual(
        results.map((r, index) => [r.id, index + 1, r.fileName, (r.variant as { format?: string } | null)?.format ?? null, r.favouriteAt !== null, open?.imageIds.includes(r.id) ?? false]),
      );
      expect(view.history).toEqual(history.map((h) => ({ event: h.event, at: h.createdAt.toISOString(), fromStatus: h.fromStatus, toStatus: h.toStatus })));
      expect(view.revision.current).toEqual(open ? { createdAt: open.createdAt.toISOString(), dueAt: open.dueAt?.toISOString() ?? null, overdue: open.dueAt !== null && open.dueAt < sale.t.app.now(), pictures: open.imageIds.length, message: open.message } : null);
      expect(view.revision.answers).toEqual(revisions.filter((r) => r.answer && r.resolvedAt).map((r) => ({ at: r.resolvedAt!.toISOString(), message: r.answer, pictures: r.imageIds.length })));
      expect(view.invoices.map((i: Record<string, unknown>) => [i.id, i.number, i.kind, i.issuedAt, i.grossCents])).toEqual(
        invoiceRows.map((i) => [i.id, i.number, i.kind, i.issuedAt.toISOString(), i.grossCents]),
      );
      const tracked = await track(orderId, email, remoteAddress);
      expect(tracked.statusCode).toBe(200);
      // Storage links are signed on the wall sale.clock, which may have ticked between the two answers.
      const unsigned = (v: typeof view) => ({ ...v, uploads: v.uploads.map((u: object) => ({ ...u, thumbnailUrl: '' })), results: v.results.map((r: object) => ({ ...r, url: '' })) });
      expect(unsigned(tracked.json().order)).toEqual(unsigned(view));
      return view;
    }

    const { order, ids } = await completedOrder(new Date(sale.clock.getTime() - DAY));
    await setOrder(sale.t.app, order.orderId, { status: 'in_progress', completedAt: null });
    // Times with microseconds, and ties that only the id breaks.
    await sale.db.db.update(generatedImages).set({ createdAt: sql`'2026-11-01 12:00:00.123999+00'`, variant: variantWith({ format: 'square' }) }).where(inArray(generatedImages.id, [ids[2]!, ids[4]!]));
    await sale.db.db.update(generatedImages).set({ favouriteAt: sale.clock }).where(eq(generatedImages.id, ids[4]!));
    await sale.db.db.insert(orderHistory).values(['note_a', 'note_b'].map((event) => ({ orderId: order.orderId, event, actorType: 'staff', createdAt: sql`'2026-11-02 08:00:00.456789+00'` })));
    const [original] = await sale.db.db.select().from(invoices).where(eq(invoices.orderId, order.orderId));
    expect(original).toBeDefined();
    // A second invoice sorted before the first by its year, whatever order the table returns them in.
    await sale.db.db.insert(invoices).values({ ...original!, id: randomUUID(), number: `${original!.number}-B`, year: original!.year - 1, kind: 'cancellation', grossCents: -100, refundId: null, issuedAt: sql`'2026-11-03 09:00:00.999999+00'` });
    const inProgress = await expectViewOfRows(order.orderId, order.email, '10.15.0.1');
    expect(inProgress.uploads).toHaveLength(3);
    expect(inProgress.results.map((r: { id: string }) => r.id)).toEqual([ids[0], ...[ids[2], ids[4]].sort()]);
    expect(inProgress.history.slice(0, 2).map((h: { event: string; at: string }) => [h.event, h.at])).toEqual([['note_a', '2026-11-02T08:00:00.456Z'], ['note_b', '2026-11-02T08:00:00.456Z']]);
    expect(inProgress.invoices.map((i: { kind: string; issuedAt: string }) => [i.kind, i.issuedAt])[0]).toEqual(['cancellation', '2026-11-03T09:00:00.999Z']);

    // Completed (no uploads shown), with an answered redo and an open one.
    await setOrder(sale.t.app, order.orderId, { status: 'completed', completedAt: sale.clock });
    await sale.db.db.insert(revisionRequests).values({
      id: randomUUID(), orderId: order.orderId, message: 'Heller bitte.', imageIds: [ids[0]!], status: 'done', answer: 'Erledigt.',
      createdAt: sql`'2026-11-04 10:00:00.000500+00'`, dueAt: sql`'2026-11-05 10:00:00.777777+00'`, resolvedAt: sql`'2026-11-04 18:30:00.250001+00'`,
    });
    const redo = await sale.t.app.inject({ method: 'POST', url: `/api/orders/${order.orderId}/revision`, headers: { 'x-status-token': token(order.orderId) }, payload: { imageIds: [ids[2]], message: 'Ohne Glanz.' } });
    expect(redo.statusCode).toBe(200);
    await setOrder(sale.t.app, order.orderId, { status: 'completed', completedAt: sale.clock });
    const completed = await expectViewOfRows(order.orderId, order.email, '10.15.0.2');
    expect(completed.uploads).toEqual([]);
    expect(completed.revision.answers).toEqual([{ at: '2026-11-04T18:30:00.250Z', message: 'Erledigt.', pictures: 1 }]);
    expect(completed.revision.current).toMatchObject({ message: 'Ohne Glanz.', pictures: 1 });
    expect(completed.results.filter((r: { redo: boolean }) => r.redo).map((r: { id: string }) => r.id)).toEqual([ids[2]]);

    // A fresh paid order (no results, no revisions), an unpaid one, and one whose photos are deleted.
    const paid = await paidOrder();
    expect((await expectViewOfRows(paid.orderId, paid.email, '10.15.0.3')).results).toEqual([]);
    const unpaid = await placeOrder(sale.t.app);
    expect((await expectViewOfRows(unpaid.orderId, unpaid.email, '10.15.0.4')).invoices).toEqual([]);
    const deleted = await sale.t.app.inject({ method: 'POST', url: `/api/orders/${order.orderId}/delete-photos`, headers: { 'x-status-token': token(order.orderId) }, payload: { confirm: true } });
    expect(deleted.statusCode).toBe(200);
    const gone = await expectViewOfRows(order.orderId, order.email, '10.15.0.5', deleted.json().statusToken);
    expect([gone.uploads, gone.results]).toEqual([[], []]);
    expect(gone.invoices).toHaveLength(2);
  });
});
