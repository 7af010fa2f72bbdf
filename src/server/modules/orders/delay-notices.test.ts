// The promised time, owned up to: one mail per paid order past its time, none for what is done or stopped, none
// for a team order itself, and never a second.
import { and, eq, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { DatabaseHandle } from '../../db/client.js';
import { jobs, outgoingMail } from '../../db/schema.js';
import { buildTestApp, type TestApp } from '../../test/app.js';
import { testDatabases } from '../../test/databases.js';
import { BASIC_SELECTION, payOrder, placeOrder, setOrder } from '../../test/seed.js';
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
});
