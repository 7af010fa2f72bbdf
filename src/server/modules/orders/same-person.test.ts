// The same person on every photo of an order, over HTTP: real photos of one man pass, another person is
// refused with `differentPerson` and leaves nothing behind; the face descriptor stays inside the database.
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { DatabaseHandle } from '../../db/client.js';
import { orderUploads } from '../../db/schema.js';
import { buildTestApp, type TestApp } from '../../test/app.js';
import { createDraft, sendPhoto } from '../../test/seed.js';
import { testDatabases } from '../../test/databases.js';
import { phoneJpeg } from '../../../testing/images.js';

const BASIC = { gender: 'male', style: 'casual', package: 'basic', location: null, outfit: null, extras: [] };


describe.each(testDatabases())('same person on every photo on $name', (testDb) => {
  let db: DatabaseHandle;
  let t: TestApp;
  let franck: Buffer[];
  let hopper: Buffer;
  let astronaut: Buffer;

  beforeAll(async () => {
    db = await testDb.open();
    t = await buildTestApp(db);
    franck = await Promise.all(['01829', '02683', '04117'].map((frame) => phoneJpeg(`faces/franck_${frame}.jpg`)));
    hopper = await phoneJpeg('portrait-hopper.jpg');
    astronaut = await phoneJpeg('portrait-astronaut.png');
  });
  afterAll(async () => {
    await t.close();
    await db.close();
  });

  const draft = () => createDraft(t.app, { selection: BASIC, photos: 0 });
  const upload = (order: { orderId: string; draftToken: string }, buffer: Buffer, fileName?: string) => sendPhoto(t.app, order, buffer, fileName);

  async function rows(orderId: string) {
    const [row] = await db.db.select({ n: count() }).from(orderUploads).where(eq(orderUploads.orderId, orderId));
    return Number(row!.n);
  }
  const files = (orderId: string) => t.app.storage.listKeys(`uploads/${orderId}/`);

  test('three different photos of one man are accepted; a photo of another person is refused and leaves no row and no file', { timeout: 120_000 }, async () => {
    const order = await draft();
    for (const photo of franck) {
      const response = await upload(order, photo);
      expect(response.statusCode, response.body).toBe(201);
      // The descriptor is biometric data: it never leaves the server.
      expect(response.body).not.toContain('descriptor');
    }
    const stored = await db.db.select().from(orderUploads).where(eq(orderUploads.orderId, order.orderId));
    for (const row of stored) expect((row.quality as { descriptor?: number[] }).descriptor).toHaveLength(128);
    const draftView = await t.app.inject({ method: 'GET', url: `/api/orders/${order.orderId}/draft`, headers: { 'x-draft-token': order.draftToken } });
    expect(draftView.body).not.toContain('descriptor');

    const refused = await upload(order, hopper);
    expect({ status: refused.statusCode, code: refused.json().error.code }).toEqual({ status: 422, code: 'differentPerson' });
    expect(await rows(order.orderId)).toBe(3);
    expect(await files(order.orderId)).toHaveLength(6);
  });

  test('three different people in one order no longer all pass: the first is the reference, the others are refused', { timeout: 120_000 }, async () => {
    const order = await draft();
    expect((await upload(order, franck[0]!)).statusCode).toBe(201);
    for (const other of [hopper, astronaut]) {
      const response = await upload(order, other);
      expect({ status: response.statusCode, code: response.json().error.code }).toEqual({ status: 422, code: 'differentPerson' });
    }
    expect(await rows(order.orderId)).toBe(1);
    expect(await files(order.orderId)).toHaveLength(2);
  });

  test('two people sent at once into an empty order: one is kept, the other refused, nothing else stays', { timeout: 120_000 }, async () => {
    const order = await draft();
    const responses = await Promise.all([upload(order, franck[1]!), upload(order, hopper)]);
    expect(responses.map((r) => r.statusCode).sort()).toEqual([201, 422]);
    expect(responses.find((r) => r.statusCode === 422)!.json().error.code).toBe('differentPerson');
    expect(await rows(order.orderId)).toBe(1);
    expect(await files(order.orderId)).toHaveLength(2);
  });

  test('the reference goes with its photo: after deleting the only photo, another person starts the order afresh', { timeout: 120_000 }, async () => {
    const order = await draft();
    const first = (await upload(order, franck[2]!)).json() as { id: string };
    expect((await upload(order, astronaut)).statusCode).toBe(422);
    const removed = await t.app.inject({ method: 'DELETE', url: `/api/orders/${order.orderId}/uploads/${first.id}`, headers: { 'x-draft-token': order.draftToken } });
    expect(removed.statusCode).toBe(204);
    expect((await upload(order, astronaut)).statusCode).toBe(201);
    expect(await rows(order.orderId)).toBe(1);
  });
});
