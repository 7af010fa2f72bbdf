import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { DatabaseHandle } from '../../db/client.js';
import { siteMetrics } from '../../db/schema.js';
import { buildTestApp, type TestApp } from '../../test/app.js';
import { testDatabases } from '../../test/databases.js';
import { signInStaff } from '../../test/staff.js';
import { payOrder, placeOrder } from '../../test/seed.js';
import { METRICS_LIMIT, pageViewName } from './routes.js';


test('page views count under the page, never an order id or a query', () => {
  expect(pageViewName('/')).toBe('/');
  expect(pageViewName('/kontakt/?utm=x')).toBe('/kontakt');
  expect(pageViewName('/order/upload')).toBe('/order');
  expect(pageViewName('/order-status/6f1c2a9e-3b4d-4c5e-8f70-123456789abc')).toBe('/order-status');
  expect(pageViewName('/bewerbungsfotos-erstellen')).toBe('/bewerbungsfotos-erstellen');
  expect(pageViewName('/admin/orders')).toBeNull();
  expect(pageViewName('/nowhere')).toBeNull();
});

describe.each(testDatabases())('first-party counting on $name', (testDb) => {
  let db: DatabaseHandle;
  let t: TestApp;
  // 23:30 in Berlin on 22 November is still the 22nd there (UTC is already the 23rd at 23:30+1).
  let clock = new Date('2026-11-22T22:30:00Z');

  beforeAll(async () => {
    db = await testDb.open();
    t = await buildTestApp(db, {}, { now: () => clock });
  });
  afterAll(async () => {
    await t.close();
    await db.close();
  });

  const send = (payload: object, remoteAddress = '10.70.0.1') => t.app.inject({ method: 'POST', url: '/api/metrics', payload, remoteAddress });

  async function rows() {
    return (await db.db.select().from(siteMetrics)).map((r) => `${r.day} ${r.kind} ${r.name} ${r.detail} ${r.count}`).sort();
  }

  test('page views and events become daily totals without anything about the visitor', async () => {
    expect((await send({ kind: 'page_view', path: '/', language: 'de' })).statusCode).toBe(204);
    expect((await send({ kind: 'page_view', path: '/', language: 'de' }, '10.70.0.2')).statusCode).toBe(204);
    expect((await send({ kind: 'page_view', path: '/order-status/6f1c2a9e-3b4d-4c5e-8f70-123456789abc', language: 'en' })).statusCode).toBe(204);
    expect((await send({ kind: 'event', name: 'package_selected', detail: 'pro' })).statusCode).toBe(204);
    expect((await send({ kind: 'event', name: 'upload_count', detail: 4 })).statusCode).toBe(204);
    expect((await send({ kind: 'event', name: 'final_cta' })).statusCode).toBe(204);
    expect(await rows()).toEqual([
      '2026-11-22 event final_cta  1',
      '2026-11-22 event package_selected pro 1',
      '2026-11-22 event upload_count 4 1',
      '2026-11-22 page_view / de 2',
      '2026-11-22 page_view /order-status en 1',
    ]);
    // The table has no column that could hold an address, an id or a browser.
    const columns = Object.keys((await db.db.select().from(siteMetrics).limit(1))[0]!);
    expect(columns.sort()).toEqual(['count', 'day', 'detail', 'kind', 'name']);
  });

  test('free text, unknown events, staff pages and the server-only purchase are refused', async () => {
    const before = await rows();
    for (const payload of [
      { kind: 'event', name: 'package_selected', detail: 'gold' },
      { kind: 'event', name: 'upload_count', detail: 99 },
      { kind: 'event', name: 'error_occurred', detail: 'max@example.de' },
      { kind: 'event', name: 'purchase', detail: 'pro' },
      { kind: 'event', name: 'tracked_you' },
      { kind: 'page_view', path: '/admin/orders', language: 'de' },
      { kind: 'page_view', path: '/', language: 'de', email: 'max@example.de' },
    ]) {
      expect((await send(payload)).statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect(await rows()).toEqual(before);
  });

  test('one address cannot fill the counters: over the limit it is not counted', async () => {
    clock = new Date('2026-11-24T10:00:00Z');
    for (let i = 0; i < METRICS_LIMIT.hits + 5; i++) expect((await send({ kind: 'event', name: 'main_pricing_cta' }, '10.70.9.9')).statusCode).toBe(204);
    expect((await rows()).filter((r) => r.startsWith('2026-11-24'))).toEqual([`2026-11-24 event main_pricing_cta  ${METRICS_LIMIT.hits}`]);
  });

  test('a payment confirmed by the provider counts one purchase, however often the event arrives', async () => {
    clock = new Date('2026-11-25T10:00:00Z');
    const order = await placeOrder(t.app, { selection: { gender: 'female', style: 'casual', package: 'basic', location: null, outfit: null, extras: [] } });
    await payOrder(t.app, order);
    await payOrder(t.app, order);
    expect((await rows()).filter((r) => r.startsWith('2026-11-25'))).toEqual(['2026-11-25 event purchase basic 1']);
  });

  test('staff see the totals of the last days; visitors do not', async () => {
    clock = new Date('2026-11-25T12:00:00Z');
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/metrics' })).statusCode).toBe(401);
    const staff = await signInStaff(t.app, '10.70.1.1');
    const summary = (await staff.request('GET', '/api/admin/metrics?days=7')).json();
    expect(summary.since).toBe('2026-11-19');
    expect(summary.pageViews).toEqual([
      { path: '/', count: 2 },
      { path: '/order-status', count: 1 },
    ]);
    expect(summary.pageViewsByDay).toEqual([{ day: '2026-11-22', count: 3 }]);
    expect(summary.events[0]).toEqual({ name: 'main_pricing_cta', detail: '', count: METRICS_LIMIT.hits });
    expect(summary.events).toContainEqual({ name: 'purchase', detail: 'basic', count: 1 });
    const short = (await staff.request('GET', '/api/admin/metrics?days=1')).json();
    expect(short.pageViews).toEqual([]);
  });
});
