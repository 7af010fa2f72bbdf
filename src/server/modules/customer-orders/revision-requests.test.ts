// A redo the customer asks for after delivery: the budget and the time it has, the order back in production with
// new drafts made its way, and staff's answer that completes it again.
import { and, eq } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import { generatedImages, jobs, orderHistory, outgoingMail, revisionRequests } from '../../db/schema.js';
import { testDatabases } from '../../test/databases.js';
import { addResults, setOrder, variantWith } from '../../test/seed.js';
import { signInStaff } from '../../test/staff.js';
import { afterTheSale, DAY } from './test-after-sale.js';

describe.each(testDatabases())('after the sale on $name', (testDb) => {
  const sale = afterTheSale(testDb);
  const { token, status, completedOrder } = sale;

  test('a redo names published pictures within 7 days, counted against the package budget; it reopens the order on its own due time and makes new drafts the order way', async () => {
    // Basic: 3 pictures, 2 redos. Completed six days ago on Friday 27 Nov 2026; the redo comes on Saturday 28 Nov at 20:00.
    const requestedAt = new Date('2026-11-28T20:00:00+01:00');
    sale.clock = requestedAt;
    const { order, ids } = await completedOrder(new Date(requestedAt.getTime() - 6 * DAY));
    const redo = (body: object, orderId = order.orderId) =>
      sale.t.app.inject({ method: 'POST', url: `/api/orders/${orderId}/revision`, headers: { 'x-status-token': token(orderId) }, payload: body });
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
    expect(await sale.db.db.select().from(revisionRequests).where(eq(revisionRequests.orderId, order.orderId))).toEqual([]);

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
    await setOrder(sale.t.app, order.orderId, { status: 'completed', completedAt: requestedAt });
    expect((await redo({ imageIds: [ids[2]] })).json().error.code).toBe('redoBudgetExceeded');
    await setOrder(sale.t.app, order.orderId, { status: 'in_progress', completedAt: null });

    const history = await sale.db.db.select().from(orderHistory).where(eq(orderHistory.orderId, order.orderId));
    expect(history.at(-1)).toMatchObject({ event: 'revision_requested', fromStatus: 'completed', toStatus: 'in_progress', actorType: 'customer' });
    // The studio makes this order: one new draft per named picture, in its format, in a new generation.
    const redoJobs = (await sale.db.db.select().from(jobs).where(eq(jobs.orderId, order.orderId))).filter((job) => (job.payload as { formats?: string[] }).formats);
    // Each with the photo and backdrop of the picture it replaces (none: staff uploaded these); the reason names
    // nothing the studio can change.
    expect(redoJobs.map((job) => job.payload)).toEqual([{ orderId: order.orderId, generation: 1, formats: ['portrait', 'portrait'], from: [expect.any(Object), expect.any(Object)], changes: {} }]);
    // The acknowledgement, in the order's language, with the due time and the reason.
    const [ack] = await sale.db.db.select().from(outgoingMail).where(and(eq(outgoingMail.orderId, order.orderId), eq(outgoingMail.template, 'revision-received')));
    expect(ack?.subject).toContain(order.orderNumber);
    expect(ack?.text).toContain('2 Bilder');
    expect(ack?.text).toContain('5. Dezember 2026, 13:00');
    expect(ack?.text).toContain('Bitte ohne Glanz auf der Stirn.');
    // Staff see it on the dashboard with its due time; the order waits on the redo's due time.
    const staff = await signInStaff(sale.t.app, '10.90.0.3');
    const dashboard = (await staff.request('GET', '/api/admin/dashboard')).json();
    expect(dashboard.revisions.find((r: { orderId: string }) => r.orderId === order.orderId)).toMatchObject({ pictures: 2, dueAt: due, message: 'Bitte ohne Glanz auf der Stirn.' });
    expect(dashboard.waiting.find((w: { id: string }) => w.id === order.orderId)).toMatchObject({ dueAt: due, redo: true });

    // Eight days after delivery it is too late.
    const late = await completedOrder(new Date(requestedAt.getTime() - 8 * DAY));
    const refused = await redo({ imageIds: [late.ids[0]] }, late.order.orderId);
    expect([refused.statusCode, refused.json().error.code]).toEqual([409, 'revisionNotAllowed']);
    sale.clock = new Date();
  });

  test('a redo of a generator order asks for the named pictures\' slots again; an order made by hand starts no job', async () => {
    for (const mode of ['generator', 'manual'] as const) {
      const { order, ids } = await completedOrder(new Date(sale.clock.getTime() - DAY));
      await setOrder(sale.t.app, order.orderId, { productionMode: mode });
      // Generated pictures carry their slot (the picture index of their run).
      await sale.db.db.update(generatedImages).set({ variant: variantWith({ index: 4, format: 'square' }) }).where(eq(generatedImages.id, ids[2]!));
      await sale.db.db.update(generatedImages).set({ variant: variantWith({ index: 1, format: 'portrait' }) }).where(eq(generatedImages.id, ids[4]!));
      const before = await sale.db.db.select().from(jobs).where(eq(jobs.orderId, order.orderId));
      const response = await sale.t.app.inject({ method: 'POST', url: `/api/orders/${order.orderId}/revision`, headers: { 'x-status-token': token(order.orderId) }, payload: { imageIds: [ids[2], ids[4]] } });
      expect(response.statusCode).toBe(200);
      const added = (await sale.db.db.select().from(jobs).where(eq(jobs.orderId, order.orderId))).filter((job) => !before.some((b) => b.id === job.id));
      if (mode === 'generator') expect(added.map((job) => [job.queue, job.payload])).toEqual([['generator.predict', { orderId: order.orderId, generation: 1, indices: [1, 4] }]]);
      else expect(added).toEqual([]);
    }
  });

  test('staff answer and close a redo: new pictures replace the named ones, the order is complete again, the customer gets the answer', async () => {
    const { order, ids } = await completedOrder(new Date(sale.clock.getTime() - DAY));
    const requested = await sale.t.app.inject({
      method: 'POST',
      url: `/api/orders/${order.orderId}/revision`,
      headers: { 'x-status-token': token(order.orderId), 'accept-language': 'de' },
      payload: { imageIds: [ids[0], ids[2]] },
    });
    expect(requested.statusCode).toBe(200);
    const [revision] = await sale.db.db.select().from(revisionRequests).where(eq(revisionRequests.orderId, order.orderId));
    const staff = await signInStaff(sale.t.app, '10.90.0.4');
    const close = (message: string) => staff.request('POST', `/api/admin/orders/${order.orderId}/revisions/${revision!.id}/close`, { message });
    expect((await close('')).json().error.fields.message).toBe('messageRequired');
    // Two new pictures, published after the request.
    sale.clock = new Date(sale.clock.getTime() + 3600 * 1000);
    const fresh = await addResults(sale.t.app, order.orderId, ['draft', 'draft']);
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
    const [answer] = await sale.db.db.select().from(outgoingMail).where(and(eq(outgoingMail.orderId, order.orderId), eq(outgoingMail.template, 'revision-answered')));
    expect(answer?.text).toContain('2 neue Bilder');
    expect(answer?.text).toContain('Hier sind zwei neue Fassungen mit weicherem Licht.');
    expect(answer?.text).toMatch(/\/order-status\/[0-9a-f-]+\?token=/);
    sale.clock = new Date();
  });
});
