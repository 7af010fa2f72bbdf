// What the tests of the customer's side after the sale share (tracking, status-page, results,
// revision-requests and photo-deletion tests): a shop on the test file's own database with a clock the tests
// move, the customer's lookups, and paid and completed orders.
import { afterAll, beforeAll } from 'vitest';
import type { DatabaseHandle } from '../../db/client.js';
import { buildTestApp, type TestApp } from '../../test/app.js';
import type { TestDatabase } from '../../test/databases.js';
import { addResults, payOrder, placeOrder, setOrder, type SeededOrder } from '../../test/seed.js';
import { statusToken } from '../orders/order-tokens.js';

export const DAY = 24 * 3600 * 1000;

/** The shop of one test file, built before its tests and closed after them. */
export function afterTheSale(testDb: TestDatabase) {
  let db: DatabaseHandle;
  let t: TestApp;

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

  async function completedOrder(completedAt = sale.clock) {
    const order = await paidOrder();
    const ids = await addResults(t.app, order.orderId, ['active', 'draft', 'active', 'archived', 'active']);
    await setOrder(t.app, order.orderId, { status: 'completed', completedAt });
    return { order, ids };
  }

  const sale = {
    /** The shop's clock: a test moves it. */
    clock: new Date(),
    get db() {
      return db;
    },
    get t() {
      return t;
    },
    track,
    token,
    status,
    paidOrder,
    completedOrder,
  };

  beforeAll(async () => {
    db = await testDb.open();
    t = await buildTestApp(db, { CAMPAIGN_PERCENT: '0' }, { now: () => sale.clock });
  });
  afterAll(async () => {
    await t.close();
    await db.close();
  });

  return sale;
}
