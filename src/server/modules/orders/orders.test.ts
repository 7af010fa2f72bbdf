// The money path over HTTP, money in: checkout, prices from the catalogue, and payment events in every order.
import { count, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, test } from 'vitest';
import { WAIVER_TEXT_VERSION } from '../../../domain/order-selection.js';
import { orderHistory, orders, paymentEvents, sandboxCheckoutSessions } from '../../db/schema.js';
import { testDatabases } from '../../test/databases.js';
import { portraitJpeg } from '../../../testing/images.js';
import { WEBHOOK_PATH } from '../payments/routes.js';
import { CHECKOUT_PROOF_GRACE_MS } from './routes.js';
import { BASIC, orderFlow, PRO } from './test-order-flow.js';

describe.each(testDatabases())('order checkout and payment on $name', (testDb) => {
  const { t, draft, upload, readyOrder, checkout, deliver, sandbox, orderRow, mails } = orderFlow(testDb);
  let jpeg: Buffer;

  beforeAll(async () => {
    jpeg = await portraitJpeg();
  });

  test('checkout needs 3 photos, a complete selection and the waiver', async () => {
    const few = await readyOrder(BASIC, 2);
    expect((await checkout(few)).json().error.code).toBe('notEnoughPhotos');
    const order = await readyOrder(BASIC, 3);
    expect((await checkout(order, { selection: { ...PRO, location: null } })).json().error.code).toBe('refinementRequired');
    expect((await checkout(order, { selection: { ...PRO, package: 'premium' } })).json().error.code).toBe('extraNotOffered');
    // Without a generator nobody can dress the customer anew: an outfit is refused, not silently sold.
    const outfit = await checkout(order, { selection: { ...PRO, outfit: 'business' } });
    expect(outfit.statusCode).toBe(422);
    expect(outfit.json().error.code).toBe('outfitNotOffered');
    // Nor does the studio draw a room: an office is refused the same way.
    const office = await checkout(order, { selection: { ...PRO, location: 'office' } });
    expect(office.statusCode).toBe(422);
    expect(office.json().error.code).toBe('locationNotOffered');
    const noWaiver = await checkout(order, { waiverAccepted: false });
    expect(noWaiver.statusCode).toBe(400);
    expect(noWaiver.json().error.fields.waiverAccepted).toBe('waiverRequired');
    expect((await checkout(order, { email: 'nope' })).json().error.fields.email).toBe('invalidEmail');
  });

  test('without a generator a draft keeps no outfit and no office: a tab from before saves without them instead of failing', async () => {
    const order = await draft({ ...PRO, outfit: 'business' });
    expect(await orderRow(order.orderId)).toMatchObject({ refineLocation: 'creative', refineOutfit: null });
    expect(await orderRow((await draft({ ...PRO, location: 'office' })).orderId)).toMatchObject({ refineLocation: null });
    const saved = await t.app.inject({
      method: 'PUT',
      url: `/api/orders/${order.orderId}/selection`,
      headers: { 'x-draft-token': order.draftToken },
      payload: { language: 'de', selection: { ...PRO, location: 'studio', outfit: 'casual' } },
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().selection).toMatchObject({ location: 'studio', outfit: null });
    expect(await orderRow(order.orderId)).toMatchObject({ refineLocation: 'studio', refineOutfit: null });
  });

  test('prices come from the catalogue: a price in the body is refused and the provider gets catalogue amounts', async () => {
    const order = await readyOrder(PRO, 3);
    const tampered = await checkout(order, { selection: PRO, totalCents: 100 });
    expect(tampered.statusCode).toBe(400);
    const tamperedSelection = await checkout(order, { selection: { ...PRO, priceCents: 1 } });
    expect(tamperedSelection.statusCode).toBe(400);

    const response = await checkout(order, { selection: PRO });
    expect(response.statusCode).toBe(200);
    const { url, sessionId } = response.json();
    expect(url).toBe(`http://shop.test/sandbox/checkout/${sessionId}`);
    const [session] = await t.db.db.select().from(sandboxCheckoutSessions).where(eq(sandboxCheckoutSessions.id, sessionId));
    expect(session!.amountTotal).toBe(2792 + 999 + 1499);
    expect((session!.lineItems as { amountCents: number }[]).map((l) => l.amountCents)).toEqual([2792, 999, 1499]);
    const row = await orderRow(order.orderId);
    expect(row).toMatchObject({
      email: 'kundin@example.de',
      package: 'pro',
      packageListCents: 3490,
      discountPercent: 20,
      discountCents: 698,
      packageCents: 2792,
      featureExtraVariantsCents: 999,
      featureExpressDeliveryCents: 1499,
      extrasCents: 2498,
      totalCents: 5290,
      vatCents: 845,
      netCents: 4445,
      taxRatePercent: 19,
      waiverTextVersion: WAIVER_TEXT_VERSION,
      status: 'created',
      paymentStatus: 'pending',
    });
    expect(row.waiverAcceptedAt).toBeInstanceOf(Date);
    expect(row.orderedAt).toBeInstanceOf(Date);
    const received = await mails(order.orderId, 'order-received');
    expect(received).toHaveLength(1);
    expect(received[0]!.toAddress).toBe('kundin@example.de');
    expect(received[0]!.text).toContain('52,90');
    expect(received[0]!.text).toContain(`/order-status/${order.orderId}?token=`);
  });

  test('the status link in a Spanish or English mail opens the status page in that language', async () => {
    for (const language of ['es', 'en'] as const) {
      const order = await readyOrder(BASIC, 3);
      expect((await checkout(order, { language })).statusCode).toBe(200);
      const [received] = await mails(order.orderId, 'order-received');
      const link = /https?:\/\/\S+\/order-status\/\S+/.exec(received!.text)![0];
      expect(link, language).toContain(`&lang=${language}`);
      const page = await t.app.inject({ method: 'GET', url: link.replace(/^https?:\/\/[^/]+/, '') });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain(`<html lang="${language}"`);
    }
  });

  test('a double click makes one payment session', async () => {
    const order = await readyOrder(BASIC, 3);
    const [a, b] = await Promise.all([checkout(order), checkout(order)]);
    expect(a.statusCode).toBe(200);
    expect(b.statusCode).toBe(200);
    expect(a.json().sessionId).toBe(b.json().sessionId);
    const again = await checkout(order);
    expect(again.json().sessionId).toBe(a.json().sessionId);
    const sessions = await t.db.db.select().from(sandboxCheckoutSessions).where(eq(sandboxCheckoutSessions.orderId, order.orderId));
    expect(sessions).toHaveLength(1);
    expect(await mails(order.orderId, 'order-received')).toHaveLength(1);
  });

  test('paid only through a verified event; the same event twice changes nothing', async () => {
    const order = await readyOrder(BASIC, 3);
    const { sessionId } = (await checkout(order)).json();
    const result = (await sandbox().simulate(sessionId, 'pay'))!;
    expect(result.events).toHaveLength(1);
    const first = await deliver(result.events[0]!);
    expect(first.json()).toEqual({ received: true, outcome: 'paid' });
    const paid = await orderRow(order.orderId);
    expect(paid).toMatchObject({ status: 'paid', paymentStatus: 'paid' });
    const second = await deliver(result.events[0]!);
    expect(second.statusCode).toBe(200);
    expect(second.json().outcome).toBe('duplicate');
    expect(await orderRow(order.orderId)).toEqual(paid);
    expect(await mails(order.orderId, 'payment-confirmed')).toHaveLength(1);
    const history = await t.db.db.select().from(orderHistory).where(eq(orderHistory.orderId, order.orderId));
    expect(history.map((h) => h.event)).toEqual(['order_created', 'order_placed', 'payment_received']);
    // Paid orders cannot be changed or paid again.
    expect((await checkout(order)).json().error.code).toBe('alreadyPaid');
    expect((await upload(order, jpeg)).json().error.code).toBe('orderLocked');
  });

  test('events out of order end in the right state (SEPA: success before completion, failure after success)', async () => {
    const order = await readyOrder(BASIC, 3);
    const { sessionId } = (await checkout(order)).json();
    const pending = (await sandbox().simulate(sessionId, 'sepaPending'))!;
    const succeeded = (await sandbox().simulate(sessionId, 'sepaSucceed'))!;
    expect((await deliver(succeeded.events[0]!)).json().outcome).toBe('paid');
    expect((await deliver(pending.events[0]!)).json().outcome).toBe('ignored');
    expect(await orderRow(order.orderId)).toMatchObject({ status: 'paid', paymentStatus: 'paid' });
  });

  test('a pending SEPA payment stays pending until its success event', async () => {
    const order = await readyOrder(BASIC, 3);
    const { sessionId } = (await checkout(order)).json();
    const pending = (await sandbox().simulate(sessionId, 'sepaPending'))!;
    expect((await deliver(pending.events[0]!)).json().outcome).toBe('pending');
    expect(await orderRow(order.orderId)).toMatchObject({ status: 'created', paymentStatus: 'pending' });
    const confirmation = await t.app.inject({ method: 'GET', url: `/api/orders/${order.orderId}/confirmation?session_id=${sessionId}` });
    expect(confirmation.json()).toMatchObject({ paymentStatus: 'pending', totalCents: 1490 });
  });

  test('a failed payment leaves the order unpaid and a retry makes a new session', async () => {
    const order = await readyOrder(BASIC, 3);
    const { sessionId } = (await checkout(order)).json();
    const failed = (await sandbox().simulate(sessionId, 'fail'))!;
    expect(failed.redirectTo).toContain('payment=failed');
    for (const event of failed.events) await deliver(event);
    expect(await orderRow(order.orderId)).toMatchObject({ status: 'created', paymentStatus: 'failed', providerSessionId: null });
    expect(await mails(order.orderId, 'payment-failed')).toHaveLength(1);
    const retry = await checkout(order);
    expect(retry.statusCode).toBe(200);
    expect(retry.json().sessionId).not.toBe(sessionId);
    const paid = (await sandbox().simulate(retry.json().sessionId, 'pay'))!;
    expect((await deliver(paid.events[0]!)).json().outcome).toBe('paid');
    expect(await orderRow(order.orderId)).toMatchObject({ status: 'paid', paymentStatus: 'paid' });
  });

  test('after the order button, a change first closes the payment page: the old contract can no longer be paid', async () => {
    const order = await readyOrder(BASIC, 3);
    const { sessionId } = (await checkout(order)).json();
    const change = await t.app.inject({
      method: 'PUT',
      url: `/api/orders/${order.orderId}/selection`,
      headers: { 'x-draft-token': order.draftToken },
      payload: { language: 'de', selection: { ...PRO, extras: [] } },
    });
    expect(change.statusCode).toBe(200);
    expect(await orderRow(order.orderId)).toMatchObject({ providerSessionId: null, package: 'pro' });
    // The old page is closed: paying it is no longer possible.
    const late = (await sandbox().simulate(sessionId, 'pay'))!;
    expect(late.events.map((e) => JSON.parse(e.body).type)).not.toContain('checkout.session.completed');
    const retry = await checkout(order, { selection: { ...PRO, extras: [] } });
    expect(retry.json().sessionId).not.toBe(sessionId);
    const [session] = await t.db.db.select().from(sandboxCheckoutSessions).where(eq(sandboxCheckoutSessions.id, retry.json().sessionId));
    expect(session!.amountTotal).toBe(2792);
    // Removing a photo below the minimum after ordering closes the page too, and checkout then refuses.
    const uploads = (await t.app.inject({ method: 'GET', url: `/api/orders/${order.orderId}/draft`, headers: { 'x-draft-token': order.draftToken } })).json().uploads;
    await t.app.inject({ method: 'DELETE', url: `/api/orders/${order.orderId}/uploads/${uploads[0].id}`, headers: { 'x-draft-token': order.draftToken } });
    expect(await orderRow(order.orderId)).toMatchObject({ providerSessionId: null });
    expect((await checkout(order, { selection: { ...PRO, extras: [] } })).json().error.code).toBe('notEnoughPhotos');
  });

  test('a bad signature is refused with 400 and changes nothing', async () => {
    const order = await readyOrder(BASIC, 3);
    const { sessionId } = (await checkout(order)).json();
    const [event] = (await sandbox().simulate(sessionId, 'pay'))!.events;
    const before = await t.db.db.select({ n: count() }).from(paymentEvents);
    const forged = await deliver({ body: event!.body.replace('"paid"', '"paid" '), signature: event!.signature });
    expect(forged.statusCode).toBe(400);
    expect(forged.json().error.code).toBe('invalidSignature');
    const unsigned = await t.app.inject({ method: 'POST', url: WEBHOOK_PATH, headers: { 'content-type': 'application/json' }, payload: event!.body });
    expect(unsigned.statusCode).toBe(400);
    expect(await t.db.db.select({ n: count() }).from(paymentEvents)).toEqual(before);
    expect(await orderRow(order.orderId)).toMatchObject({ paymentStatus: 'pending' });
  });

  test('the sandbox checkout page is marked as a test and its buttons lead through the webhook', async () => {
    const order = await readyOrder(BASIC, 3);
    const { sessionId } = (await checkout(order)).json();
    const page = await t.app.inject({ method: 'GET', url: `/sandbox/checkout/${sessionId}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('TESTMODUS');
    const pay = await t.app.inject({ method: 'POST', url: `/sandbox/checkout/${sessionId}/pay`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: '' });
    expect(pay.statusCode).toBe(303);
    expect(pay.headers.location).toBe(`http://shop.test/success?order_id=${order.orderId}&session_id=${sessionId}`);
    expect(await orderRow(order.orderId)).toMatchObject({ paymentStatus: 'paid' });
  });

  test('the success page data needs proof: draft token, session id or status token', async () => {
    const order = await readyOrder(BASIC, 3);
    const { sessionId } = (await checkout(order)).json();
    expect((await t.app.inject({ method: 'GET', url: `/api/orders/${order.orderId}/confirmation` })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/api/orders/${order.orderId}/confirmation?session_id=cs_wrong` })).statusCode).toBe(404);
    const bySession = await t.app.inject({ method: 'GET', url: `/api/orders/${order.orderId}/confirmation?session_id=${sessionId}` });
    expect(bySession.json()).toMatchObject({ orderNumber: order.orderNumber, email: 'kundin@example.de', package: 'basic', totalCents: 1490 });
    const byToken = await t.app.inject({ method: 'GET', url: `/api/orders/${order.orderId}/confirmation`, headers: { 'x-draft-token': order.draftToken } });
    expect(byToken.statusCode).toBe(200);
    const statusUrl = new URL(bySession.json().statusUrl);

    // The checkout's proofs are not lasting access: a week after the provider's session expired they open nothing.
    await t.db.db.update(orders).set({ providerSessionExpiresAt: new Date(Date.now() - CHECKOUT_PROOF_GRACE_MS - 60_000) }).where(eq(orders.id, order.orderId));
    expect((await t.app.inject({ method: 'GET', url: `/api/orders/${order.orderId}/confirmation?session_id=${sessionId}` })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/api/orders/${order.orderId}/confirmation`, headers: { 'x-draft-token': order.draftToken } })).statusCode).toBe(404);
    // The status link it handed out still does.
    const byStatus = await t.app.inject({ method: 'GET', url: `/api/orders/${order.orderId}/confirmation?token=${statusUrl.searchParams.get('token')}` });
    expect(byStatus.statusCode).toBe(200);

    // Within the window, but the photos were deleted (which revokes status links): the proofs open nothing either.
    await t.db.db.update(orders).set({ providerSessionExpiresAt: new Date(), photosDeletedAt: new Date() }).where(eq(orders.id, order.orderId));
    expect((await t.app.inject({ method: 'GET', url: `/api/orders/${order.orderId}/confirmation?session_id=${sessionId}` })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/api/orders/${order.orderId}/confirmation`, headers: { 'x-draft-token': order.draftToken } })).statusCode).toBe(404);
  });

  test('the success page may ask the server to look again at the provider, never tell it', async () => {
    const order = await readyOrder(BASIC, 3);
    const { sessionId } = (await checkout(order)).json();
    // The customer paid but the event has not arrived: the provider's own answer marks it paid.
    await sandbox().simulate(sessionId, 'pay');
    const refreshed = await t.app.inject({ method: 'POST', url: `/api/orders/${order.orderId}/confirmation/refresh?session_id=${sessionId}` });
    expect(refreshed.json().paymentStatus).toBe('paid');
    // With the payment's id, which a refund needs later.
    expect((await orderRow(order.orderId)).providerPaymentId).toMatch(/^pi_sandbox_/);
    const other = await readyOrder(BASIC, 3);
    const { sessionId: unpaidSession } = (await checkout(other)).json();
    const notPaid = await t.app.inject({ method: 'POST', url: `/api/orders/${other.orderId}/confirmation/refresh?session_id=${unpaidSession}` });
    expect(notPaid.json().paymentStatus).toBe('pending');
  });
});
