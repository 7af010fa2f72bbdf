import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { DatabaseHandle } from '../../db/client.js';
import { outgoingMail, staffSessions } from '../../db/schema.js';
import { buildTestApp, type TestApp } from '../../test/app.js';
import { COUNT_LIMIT } from './admin-service.js';
import { testDatabases } from '../../test/databases.js';
import { multipart, portraitJpeg } from '../../../testing/images.js';
import { payOrder, placeOrder, type SeededOrder } from '../../test/seed.js';

const STAFF = { email: 'team@example.de', password: 'ein-langes-passwort-1' };

describe.each(testDatabases())('back office on $name', (testDb) => {
  let db: DatabaseHandle;
  let t: TestApp;
  let clock = new Date();
  let cookie = '';
  let csrf = '';

  beforeAll(async () => {
    db = await testDb.open();
    t = await buildTestApp(db, { CAMPAIGN_PERCENT: '0' }, { now: () => clock });
    await t.app.auth.createStaff({ ...STAFF, name: 'Team' });
    const login = await signIn(STAFF.email, STAFF.password, '10.50.0.1');
    expect(login.statusCode).toBe(200);
    cookie = String(login.headers['set-cookie']).split(';')[0]!;
    csrf = login.json().csrfToken;
  });
  afterAll(async () => {
    await t.close();
    await db.close();
  });

  function signIn(email: string, password: string, remoteAddress = '10.50.0.9', extraCookie?: string) {
    return t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password }, remoteAddress, headers: extraCookie ? { cookie: extraCookie } : {} });
  }
  const admin = (method: 'GET' | 'POST', url: string, payload?: object, headers: Record<string, string> = {}) =>
    t.app.inject({ method, url, payload, headers: { cookie, 'x-csrf-token': csrf, ...headers } });

  async function paidOrder(): Promise<SeededOrder> {
    const order = await placeOrder(t.app);
    await payOrder(t.app, order);
    return order;
  }

  async function uploadResult(orderId: string, buffer: Buffer, name = 'ergebnis.jpg', type = 'image/jpeg') {
    const body = multipart({ buffer, fileName: name, contentType: type });
    return t.app.inject({ method: 'POST', url: `/api/admin/orders/${orderId}/results`, headers: { cookie, 'x-csrf-token': csrf, 'content-type': body.contentType }, payload: body.body });
  }

  test('every route under /api/admin answers 401 without a session', async () => {
    const routes = t.app.routeTable.filter((r) => r.url.startsWith('/api/admin') && r.method !== 'HEAD');
    expect(routes.length).toBeGreaterThanOrEqual(6);
    for (const route of routes) {
      const url = route.url.replace(':id', '6f1c2a9e-3b4d-4c5e-8f70-123456789abc').replace(':resultId', '6f1c2a9e-3b4d-4c5e-8f70-123456789abd');
      const response = await t.app.inject({ method: route.method as 'GET', url, payload: route.method === 'GET' ? undefined : {} });
      expect({ route: `${route.method} ${route.url}`, status: response.statusCode }).toEqual({ route: `${route.method} ${route.url}`, status: 401 });
    }
    // Percent-encoded paths reach the same routes and get the same answer.
    for (const url of ['/api/%61dmin/dashboard', '/%61pi/admin/dashboard', '/api/adm%69n/orders?page=1', '/api/ADMIN/dashboard']) {
      expect({ url, status: (await t.app.inject({ method: 'GET', url })).statusCode }).not.toEqual({ url, status: 200 });
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/%61dmin/dashboard' })).statusCode).toBe(401);
    // A forged cookie is no session either.
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/orders', headers: { cookie: 'staff_session=forged' } })).statusCode).toBe(401);
  });

  test('a state change without the CSRF token is refused', async () => {
    const order = await paidOrder();
    const without = await t.app.inject({ method: 'POST', url: `/api/admin/orders/${order.orderId}/status`, payload: { status: 'in_progress' }, headers: { cookie } });
    expect(without.statusCode).toBe(403);
    expect(without.json().error.code).toBe('csrfFailed');
    const wrong = await admin('POST', `/api/admin/orders/${order.orderId}/status`, { status: 'in_progress' }, { 'x-csrf-token': 'x'.repeat(csrf.length) });
    expect(wrong.statusCode).toBe(403);
    expect((await admin('GET', `/api/admin/orders/${order.orderId}`)).json().order.status).toBe('paid');
  });

  test('staff see whom the invoice is made out to', async () => {
    const order = await placeOrder(t.app, { billing: { billingName: 'Musterfirma GmbH', billingAddress: 'Hauptstraße 5\n10115 Berlin' } });
    await payOrder(t.app, order);
    expect((await admin('GET', `/api/admin/orders/${order.orderId}`)).json().order).toMatchObject({ billingName: 'Musterfirma GmbH', billingAddress: 'Hauptstraße 5\n10115 Berlin' });
  });

  test('the session cookie is HttpOnly and SameSite, and sign-in rotates it', async () => {
    const first = await signIn(STAFF.email, STAFF.password, '10.50.1.1');
    const setCookie = String(first.headers['set-cookie']);
    expect(setCookie).toMatch(/^staff_session=[\w-]{40,}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=43200$/);
    const oldCookie = setCookie.split(';')[0]!;
    const second = await signIn(STAFF.email, STAFF.password, '10.50.1.1', oldCookie);
    expect(String(second.headers['set-cookie']).split(';')[0]).not.toBe(oldCookie);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/session', headers: { cookie: oldCookie } })).statusCode).toBe(401);
  });

  test('wrong passwords lock the account for a while, the same way whether it exists or not, and the lock lifts', async () => {
    await t.app.auth.createStaff({ email: 'lock@example.de', password: 'das-richtige-passwort' });
    for (let i = 0; i < 5; i++) {
      const wrong = await signIn('lock@example.de', 'falsch', `10.60.0.${i}`);
      const unknown = await signIn('niemand@example.de', 'falsch', `10.61.0.${i}`);
      expect([wrong.statusCode, unknown.statusCode]).toEqual([401, 401]);
      expect(wrong.json().error.code).toBe(unknown.json().error.code);
    }
    const locked = await signIn('lock@example.de', 'das-richtige-passwort', '10.60.0.99');
    const lockedUnknown = await signIn('niemand@example.de', 'falsch', '10.61.0.99');
    expect([locked.statusCode, lockedUnknown.statusCode]).toEqual([429, 429]);
    expect(locked.json().error.code).toBe('tooManyAttempts');
    clock = new Date(clock.getTime() + 16 * 60 * 1000);
    expect((await signIn('lock@example.de', 'das-richtige-passwort', '10.60.0.99')).statusCode).toBe(200);
  });

  test('sessions end after the idle time and on logout', async () => {
    const login = await signIn(STAFF.email, STAFF.password, '10.70.0.1');
    const own = String(login.headers['set-cookie']).split(';')[0]!;
    const saved = clock;
    clock = new Date(clock.getTime() + 3 * 3600 * 1000);
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/dashboard', headers: { cookie: own } })).statusCode).toBe(401);
    clock = saved;
    const again = await signIn(STAFF.email, STAFF.password, '10.70.0.1');
    const next = String(again.headers['set-cookie']).split(';')[0]!;
    const before = (await db.db.select().from(staffSessions)).length;
    const logout = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie: next, 'x-csrf-token': again.json().csrfToken } });
    expect(logout.statusCode).toBe(204);
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/dashboard', headers: { cookie: next } })).statusCode).toBe(401);
    // The signed-out session is gone from the database, not just from the browser.
    expect((await db.db.select().from(staffSessions)).length).toBe(before - 1);
  });

  test('a transition the state machine forbids is refused, allowed ones pass, and the menu offers only those', async () => {
    const order = await paidOrder();
    const view = (await admin('GET', `/api/admin/orders/${order.orderId}`)).json();
    expect(view.nextStatuses.sort()).toEqual(['cancelled', 'in_progress']);
    const skip = await admin('POST', `/api/admin/orders/${order.orderId}/status`, { status: 'completed' });
    expect(skip.statusCode).toBe(409);
    expect(skip.json().error.code).toBe('transitionNotAllowed');
    const back = await admin('POST', `/api/admin/orders/${order.orderId}/status`, { status: 'created' });
    expect(back.json().error.code).toBe('transitionNotAllowed');
    const ok = await admin('POST', `/api/admin/orders/${order.orderId}/status`, { status: 'in_progress' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().order.status).toBe('in_progress');
    expect(ok.json().audit[0]).toMatchObject({ action: 'order.status', staffEmail: STAFF.email, details: { from: 'paid', to: 'in_progress' } });
  });

  test('results: decoding checks on upload, publish, too few active results refused, completion mails once', async () => {
    const order = await paidOrder();
    await admin('POST', `/api/admin/orders/${order.orderId}/status`, { status: 'in_progress' });
    const text = await uploadResult(order.orderId, Buffer.from('kein Bild'.repeat(100)), 'fake.jpg');
    expect(text.statusCode).toBe(415);
    expect(text.json().error.code).toBe('notAnImage');
    const jpeg = await portraitJpeg(800, 1000);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const response = await uploadResult(order.orderId, jpeg, `Bild ${i + 1} (final).jpg`);
      expect(response.statusCode).toBe(201);
      expect(response.json().fileName).toBe(`Bild-${i + 1}-final-.jpg`);
      ids.push(response.json().id);
    }
    let view = (await admin('GET', `/api/admin/orders/${order.orderId}`)).json();
    expect(view.results.map((r: { status: string }) => r.status)).toEqual(['draft', 'draft', 'draft']);
    await admin('POST', `/api/admin/orders/${order.orderId}/results/${ids[0]}/status`, { status: 'active' });
    await admin('POST', `/api/admin/orders/${order.orderId}/results/${ids[1]}/status`, { status: 'active' });
    const early = await admin('POST', `/api/admin/orders/${order.orderId}/status`, { status: 'completed' });
    expect(early.statusCode).toBe(409);
    expect(early.json().error).toMatchObject({ code: 'notEnoughResults', details: { required: 3 } });
    // Customers never see drafts.
    const tracking = await t.app.inject({ method: 'POST', url: '/api/tracking', payload: { orderId: order.orderId, email: order.email }, remoteAddress: '10.80.0.1' });
    expect(tracking.json().order.results).toHaveLength(2);
    view = (await admin('POST', `/api/admin/orders/${order.orderId}/results/${ids[2]}/status`, { status: 'active' })).json();
    expect(view.activeResults).toBe(3);
    const [done, twice] = await Promise.all([
      admin('POST', `/api/admin/orders/${order.orderId}/status`, { status: 'completed' }),
      admin('POST', `/api/admin/orders/${order.orderId}/status`, { status: 'completed' }),
    ]);
    expect([done.statusCode, twice.statusCode].sort()).toEqual([200, 409]);
    const mails = await db.db.select().from(outgoingMail).where(eq(outgoingMail.orderId, order.orderId));
    const ready = mails.filter((m) => m.template === 'photos-ready');
    expect(ready).toHaveLength(1);
    expect(ready[0]!.text).toContain(`/order-status/${order.orderId}?token=`);
    // A completed order cannot drop below its count of published images.
    const archive = await admin('POST', `/api/admin/orders/${order.orderId}/results/${ids[0]}/status`, { status: 'archived' });
    expect(archive.json().error.code).toBe('notEnoughResults');
  });

  test('list: newest first, 25 per page with the total, filter and search; dashboard: due order and counts', async () => {
    clock = new Date(clock.getTime() + 60_000);
    const a = await paidOrder();
    clock = new Date(clock.getTime() + 60_000);
    const b = await paidOrder();
    const list = (await admin('GET', '/api/admin/orders?page=1')).json();
    expect(list.pageSize).toBe(25);
    expect(list.total).toBeGreaterThanOrEqual(2);
    expect(list.orders[0].id).toBe(b.orderId);
    expect(list.orders[1].id).toBe(a.orderId);
    expect(list.orders[0]).toMatchObject({ status: 'paid', paymentStatus: 'paid', totalCents: 1490, activeResults: 0, requiredResults: 3 });
    const byNumber = (await admin('GET', `/api/admin/orders?q=${a.orderNumber.toLowerCase()}`)).json();
    expect(byNumber.orders.map((o: { id: string }) => o.id)).toEqual([a.orderId]);
    const byEmail = (await admin('GET', `/api/admin/orders?q=${encodeURIComponent(b.email)}`)).json();
    expect(byEmail.orders.map((o: { id: string }) => o.id)).toEqual([b.orderId]);
    const completed = (await admin('GET', '/api/admin/orders?status=completed')).json();
    expect(completed.orders.length).toBeGreaterThan(0);
    expect(completed.orders.every((o: { status: string }) => o.status === 'completed')).toBe(true);
    // The completed order of the results test shows its published images as x/N.
    expect(completed.orders[0]).toMatchObject({ activeResults: 3, requiredResults: 3 });
    const dashboard = (await admin('GET', '/api/admin/dashboard')).json();
    expect(dashboard.counts.paid).toBeGreaterThanOrEqual(2);
    const due = dashboard.waiting.map((w: { dueAt: string }) => w.dueAt);
    expect(due).toEqual([...due].sort());
    expect(dashboard.waiting.some((w: { id: string }) => w.id === a.orderId)).toBe(true);
  });

  test('a year of orders: the list counts up to its limit, then says "more than", and still pages on', async () => {
    const many = COUNT_LIMIT + 5;
    await t.app.db.db.execute(
      sql.raw(`insert into orders (id, order_number, status, payment_status, email, package, total_cents, package_cents, ordered_at, created_at)
       select gen_random_uuid(),
              'BF-Z' || (select string_agg(substr('23456789ABCDEFGHJKMNPQRSTVWXYZ', 1 + ((i / power(30, k)::bigint) % 30)::int, 1), '' order by k) from generate_series(0, 6) as k),
              'cancelled', 'pending', 'jahr' || i || '@example.de', 'basic', 1490, 1490,
              now() - interval '400 days' + (i || ' seconds')::interval, now() - interval '400 days' + (i || ' seconds')::interval
       from generate_series(1, ${many}) as i`),
    );
    try {
      const all = (await admin('GET', '/api/admin/orders')).json();
      expect(all).toMatchObject({ total: COUNT_LIMIT, totalExact: false });
      // A page deep in the uncounted part is still served, oldest orders last.
      const last = (await admin('GET', `/api/admin/orders?page=${Math.ceil((many + 10) / 25) + 40}`)).json();
      expect(last.orders).toEqual([]);
      const deep = (await admin('GET', `/api/admin/orders?page=${COUNT_LIMIT / 25 + 1}`)).json();
      expect(deep.orders.length).toBeGreaterThanOrEqual(5);
      // Fewer matches are counted exactly, and the published-result count is per order of the page.
      const paid = (await admin('GET', '/api/admin/orders?status=completed')).json();
      expect(paid.totalExact).toBe(true);
      expect(paid.total).toBe(paid.orders.length);
      expect(paid.orders[0]).toMatchObject({ activeResults: 3 });
      const one = (await admin('GET', '/api/admin/orders?q=jahr471%40')).json();
      expect(one).toMatchObject({ total: 1, totalExact: true });
      expect(one.orders[0].email).toBe('jahr471@example.de');
    } finally {
      await t.app.db.db.execute(sql.raw(`delete from orders where email like 'jahr%@example.de'`));
    }
  });
});
