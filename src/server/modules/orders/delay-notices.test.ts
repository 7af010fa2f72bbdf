// The promised time, owned up to: one mail per paid order past its time, none for what is done or stopped, none
// for a team order itself, and never a second. A redo owes its own mail when its own due time passes, and none
// for the order's first delivery while it is open.
import { randomUUID } from 'node:crypto';
import { and, eq, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { DatabaseHandle } from '../../db/client.js';
import { jobs, outgoingMail, revisionRequests } from '../../db/schema.js';
import { buildTestApp, type TestApp } from '../../test/app.js';
import { testDatabases } from '../../test/databases.js';
import { addResults, BASIC_SELECTION, payOrder, placeOrder, setOrder } from '../../test/seed.js';
import { statusToken } from './order-tokens.js';
import { franckJpeg } from '../../../testing/images.js';

const WEEKS_AGO = new Date(Date.now() - 21 * 24 * 3600 * 1000);

describe.each(testDatabases())('delay notices on $name', (testDb) => {
  let db: DatabaseHandle;
  let t: TestApp;
  beforeAll(async () => {
    db = await testDb.open();
    t = await buildTestApp(db, { CAMPAIGN_PERCENT: '0' });
  });
  afterAll(async () => {
    await t.close();
    await db.close();
  });

  /** Only the owed mails run now (the orders' draft jobs wait: this is about the mails). */
  const mailsNow = async () => {
    await db.db.update(jobs).set({ runAt: new Date(Date.now() + 24 * 3600 * 1000) }).where(and(ne(jobs.queue, 'mail'), eq(jobs.status, 'pending')));
    await db.db.update(jobs).set({ runAt: new Date() }).where(eq(jobs.queue, 'mail'));
    await t.app.jobRunner!.drain();
  };

  test('one mail for a paid order past its promised time; none for a recent, completed, stopped or team order; never twice', { timeout: 120_000 }, async () => {
    const paid = async (values: Parameters<typeof setOrder>[2] = {}) => {
      const order = await placeOrder(t.app, { selection: BASIC_SELECTION, photo: franckJpeg });
      await payOrder(t.app, order);
      await setOrder(t.app, order.orderId, { paidAt: WEEKS_AGO, ...values });
      return order.orderId;
    };
    const late = await paid();
    const recent = await paid({ paidAt: new Date() });
    const completed = await paid({ status: 'completed', completedAt: new Date() });
    const stopped = await paid({ photosDeletedAt: new Date() });
    const team = await paid({ seats: 3 });
    expect(await t.app.delayNotices.run()).toBe(1);
    expect(await t.app.delayNotices.run()).toBe(1);
    await mailsNow();
    const sent = (await db.db.select().from(outgoingMail)).filter((mail) => mail.template === 'production-delayed');
    expect(sent.map((mail) => mail.orderId)).toEqual([late]);
    for (const id of [recent, completed, stopped, team]) expect(sent.some((mail) => mail.orderId === id)).toBe(false);
    // Released meanwhile: the owed mail, if still waiting, finds nothing to apologise for.
    const released = await paid();
    await t.app.delayNotices.run();
    await setOrder(t.app, released, { status: 'completed', completedAt: new Date() });
    await mailsNow();
    expect((await db.db.select().from(outgoingMail).where(eq(outgoingMail.orderId, released))).filter((mail) => mail.template === 'production-delayed')).toEqual([]);
  });

  test('a redo past its own due time owes one mail and shows as late; a redo within its time, or answered, owes none', { timeout: 120_000 }, async () => {
    const templates = async (orderId: string) => (await db.db.select().from(outgoingMail).where(eq(outgoingMail.orderId, orderId))).map((mail) => mail.template);
    /** Delivered weeks ago, then a redo of its first picture asked for, due at `dueAt`. */
    const redone = async (dueAt: Date, status: 'open' | 'done' = 'open') => {
      const order = await placeOrder(t.app, { selection: BASIC_SELECTION, photo: franckJpeg });
      await payOrder(t.app, order);
      const [picture] = await addResults(t.app, order.orderId, ['active']);
      await setOrder(t.app, order.orderId, { paidAt: WEEKS_AGO, status: status === 'open' ? 'in_progress' : 'completed', completedAt: WEEKS_AGO });
      const id = randomUUID();
      await db.db.insert(revisionRequests).values({ id, orderId: order.orderId, message: 'Weniger Platz über dem Kopf.', imageIds: [picture!], dueAt, status, createdAt: WEEKS_AGO });
      return order.orderId;
    };
    const late = await redone(new Date(Date.now() - 3600 * 1000));
    const inTime = await redone(new Date(Date.now() + 24 * 3600 * 1000));
    const answered = await redone(new Date(Date.now() - 3600 * 1000), 'done');
    await t.app.delayNotices.run();
    await mailsNow();
    expect(await templates(late)).toContain('redo-delayed');
    // The order's first delivery was weeks ago, but it is the redo that is late: never the first delivery's mail.
    for (const id of [late, inTime]) expect(await templates(id)).not.toContain('production-delayed');
    for (const id of [inTime, answered]) expect(await templates(id)).not.toContain('redo-delayed');
    const [mail] = (await db.db.select().from(outgoingMail).where(eq(outgoingMail.orderId, late))).filter((row) => row.template === 'redo-delayed');
    expect(mail!.subject).toContain('neu gemachten Bilder');
    expect(mail!.text).toContain('Das Bild, das Sie zur Bestellung');
    // Once only.
    await t.app.delayNotices.run();
    await mailsNow();
    expect((await templates(late)).filter((name) => name === 'redo-delayed')).toHaveLength(1);
    // The status page says the same.
    const view = async (orderId: string) =>
      (await t.app.inject({ method: 'GET', url: `/api/orders/${orderId}/status`, headers: { 'x-status-token': statusToken(t.config.appSecret, orderId, t.app.now()) } })).json();
    expect((await view(late)).revision.current.overdue).toBe(true);
    expect((await view(inTime)).revision.current.overdue).toBe(false);
    expect((await view(late)).overdue).toBe(false);
  });
});
