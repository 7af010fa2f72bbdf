// The customer's photos deleted: early by the customer, and by the deletion job when they are due.
import { count, eq } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import { auditLog, generatedImages, orderUploads, orders } from '../../db/schema.js';
import { buildTestApp } from '../../test/app.js';
import { testDatabases } from '../../test/databases.js';
import { addResults, placeOrder, setOrder } from '../../test/seed.js';
import { afterTheSale, DAY } from './test-after-sale.js';

describe.each(testDatabases())('after the sale on $name', (testDb) => {
  const sale = afterTheSale(testDb);
  const { token, status, paidOrder, completedOrder } = sale;

  test('the customer deletes the photos early: files and rows gone, recorded, shown', async () => {
    const { order } = await completedOrder();
    const withoutConfirm = await sale.t.app.inject({ method: 'POST', url: `/api/orders/${order.orderId}/delete-photos`, headers: { 'x-status-token': token(order.orderId) }, payload: {} });
    expect(withoutConfirm.statusCode).toBe(400);
    const before = token(order.orderId);
    const response = await sale.t.app.inject({ method: 'POST', url: `/api/orders/${order.orderId}/delete-photos`, headers: { 'x-status-token': before }, payload: { confirm: true } });
    expect(response.statusCode).toBe(200);
    expect(response.json().order).toMatchObject({ results: [], uploads: [], zipUrl: null, photosDeleteAfter: null });
    expect(response.json().order.photosDeletedAt).not.toBeNull();
    // Deleting revoked every link made before (those in the mails too); the page got a new one.
    expect((await status(order.orderId, before)).json().error.code).toBe('linkExpired');
    expect((await status(order.orderId, response.json().statusToken)).statusCode).toBe(200);
    expect(await sale.t.app.storage.listKeys(`uploads/${order.orderId}/`)).toEqual([]);
    expect(await sale.t.app.storage.listKeys(`results/${order.orderId}/`)).toEqual([]);
    expect((await sale.db.db.select({ n: count() }).from(orderUploads).where(eq(orderUploads.orderId, order.orderId)))[0]!.n).toBe(0);
    const audit = await sale.db.db.select().from(auditLog).where(eq(auditLog.orderId, order.orderId));
    expect(audit.map((a) => [a.action, a.actorType])).toEqual([['order.photos_deleted', 'customer']]);
  });

  test('the deletion job removes exactly what is due, files and rows, and nothing else, across a restart', async () => {
    const start = sale.clock;
    const due = await completedOrder(new Date(start.getTime() - 31 * DAY));
    const notYet = await completedOrder(new Date(start.getTime() - 29 * DAY));
    const working = await paidOrder();
    await addResults(sale.t.app, working.orderId, ['draft']);
    await setOrder(sale.t.app, working.orderId, { status: 'in_progress', createdAt: new Date(start.getTime() - 40 * DAY) });
    // Placed a day ago; its payment page expired without payment.
    const placedUnpaid = await placeOrder(sale.t.app);
    await setOrder(sale.t.app, placedUnpaid.orderId, {
      createdAt: new Date(start.getTime() - 26 * 3600 * 1000),
      orderedAt: new Date(start.getTime() - 25 * 3600 * 1000),
      providerSessionId: null,
    });
    // Placed a day ago and still paying (a SEPA debit takes days): kept.
    const stillPaying = await placeOrder(sale.t.app);
    await setOrder(sale.t.app, stillPaying.orderId, { createdAt: new Date(start.getTime() - 26 * 3600 * 1000), orderedAt: new Date(start.getTime() - 25 * 3600 * 1000) });
    const freshUnpaid = await placeOrder(sale.t.app);
    // A draft that never reached the order button, a day old.
    const draft = (await sale.t.app.inject({ method: 'POST', url: '/api/orders', payload: { language: 'de', selection: { gender: null, style: null, package: null, location: null, outfit: null, extras: [] }, photoConsent: true, photoConsentVersion: '2026-11-01' } })).json();
    await setOrder(sale.t.app, draft.orderId, { createdAt: new Date(start.getTime() - 25 * 3600 * 1000) });

    const keys = async (orderId: string) => [...(await sale.t.app.storage.listKeys(`uploads/${orderId}/`)), ...(await sale.t.app.storage.listKeys(`results/${orderId}/`))];
    const run = await sale.t.app.retention.run();
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
    expect((await sale.db.db.select().from(orders).where(eq(orders.id, draft.orderId))).length).toBe(0);
    expect((await sale.db.db.select().from(orders).where(eq(orders.id, placedUnpaid.orderId)))[0]!.photosDeletedAt).not.toBeNull();
    expect((await sale.db.db.select({ n: count() }).from(generatedImages).where(eq(generatedImages.orderId, due.order.orderId)))[0]!.n).toBe(0);
    const records = await sale.db.db.select().from(auditLog).where(eq(auditLog.actorType, 'system'));
    expect(records.some((r) => r.action === 'order.deleted' && (r.details as { orderNumber: string }).orderNumber === draft.orderNumber)).toBe(true);

    // Running again changes nothing.
    expect((await sale.t.app.retention.run()).purged.filter((p) => [due.order.orderId, placedUnpaid.orderId].includes(p.orderId))).toEqual([]);

    // A restart two days later: the app is built anew on the same database and storage.
    const later = new Date(start.getTime() + 2 * DAY);
    const restarted = await buildTestApp(sale.db, { CAMPAIGN_PERCENT: '0', DATA_DIR: sale.t.dataDir }, { now: () => later });
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
