// A busy shop checks photos in a worker (draft-uploads.ts): the upload is answered at once (202, "checking"),
// the wizard asks for the verdict, and the worker's check is the same as an upload checked at once: the same
// person on every photo, refusals with their reason, nothing of a refused or removed photo left behind, and
// no order placed while a photo still waits. Here every photo waits (inlineUploads: 0); real photographs.
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import net, { type AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { UPLOAD_LIMITS } from '../../../domain/catalog.js';
import type { PhotoState, UploadAnswer } from '../../../domain/order-views.js';
import { WAIVER_TEXT_VERSION } from '../../../domain/order-selection.js';
import type { DatabaseHandle } from '../../db/client.js';
import { jobs, orderHistory, orderUploads, orders, photoChecks, storageIntents } from '../../db/schema.js';
import type { SandboxPaymentProvider } from '../../payment-providers/sandbox-provider.js';
import { buildTestApp, type TestApp } from '../../test/app.js';
import { createDraft, sendPhoto, setOrder } from '../../test/seed.js';
import { testDatabases } from '../../test/databases.js';
import { multipart, phoneJpeg } from '../../../testing/images.js';
import { FIXTURES_DIR } from '../../../testing/project-root.js';
import { ORDER_STATUSES, PAYMENT_STATUSES } from '../../../domain/order-state.js';
import { queryRows } from '../../db/client.js';
import { PHOTO_CHECK_QUEUE } from './draft-uploads.js';
import { isEditable } from './order-context.js';
import { createOrderRepository } from './order-repository.js';

const BASIC = { gender: 'male', style: 'casual', package: 'basic', location: null, outfit: null, extras: [] };

async function until(condition: () => Promise<boolean>, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('waited in vain');
    await sleep(20);
  }
}


describe.each(testDatabases())('photos checked by a worker on $name', (testDb) => {
  let db: DatabaseHandle;
  let t: TestApp;
  let franck: Buffer[];
  let hopper: Buffer;

  beforeAll(async () => {
    db = await testDb.open();
    t = await buildTestApp(db, {}, { inlineUploads: 0 });
    franck = await Promise.all(['01829', '02683', '04117'].map((frame) => phoneJpeg(`faces/franck_${frame}.jpg`)));
    hopper = await phoneJpeg('portrait-hopper.jpg');
  });
  afterAll(async () => {
    await t.close();
    await db.close();
  });

  const draft = () => createDraft(t.app, { selection: BASIC, photos: 0 });
  const upload = (order: { orderId: string; draftToken: string }, buffer: Buffer, fileName?: string) => sendPhoto(t.app, order, buffer, fileName);

  async function waiting(order: { orderId: string; draftToken: string }, buffer: Buffer, fileName?: string) {
    const response = await upload(order, buffer, fileName);
    expect(response.statusCode, response.body).toBe(202);
    const answer = response.json() as UploadAnswer;
    expect('state' in answer && answer.state).toBe('checking');
    return answer as Extract<UploadAnswer, { state: 'checking' }>;
  }

  async function state(order: { orderId: string; draftToken: string }, id: string) {
    const response = await t.app.inject({ method: 'GET', url: `/api/orders/${order.orderId}/uploads/${id}`, headers: { 'x-draft-token': order.draftToken } });
    return { status: response.statusCode, body: response.json() as PhotoState & { error?: { code: string } } };
  }

  const draftView = async (order: { orderId: string; draftToken: string }) =>
    (await t.app.inject({ method: 'GET', url: `/api/orders/${order.orderId}/draft`, headers: { 'x-draft-token': order.draftToken } })).json() as {
      uploads: { id: string }[];
      checking: { id: string; fileName: string; state: string }[];
    };

  const files = (orderId: string) => t.app.storage.listKeys(`uploads/${orderId}/`);
  const uploadRows = (orderId: string) => db.db.select().from(orderUploads).where(eq(orderUploads.orderId, orderId));
  const checkRows = (orderId: string) => db.db.select().from(photoChecks).where(eq(photoChecks.orderId, orderId));
  const orderRow = async (orderId: string) => (await db.db.select().from(orders).where(eq(orders.id, orderId)))[0]!;
  const intents = async () => (await db.db.select().from(storageIntents)).map((row) => row.key);

  function checkout(order: { orderId: string; draftToken: string }) {
    return t.app.inject({
      method: 'POST',
      url: `/api/orders/${order.orderId}/checkout`,
      headers: { 'x-draft-token': order.draftToken },
      payload: { language: 'de', selection: BASIC, email: 'kundin@example.de', waiverAccepted: true, waiverTextVersion: WAIVER_TEXT_VERSION },
    });
  }

  test('photos of one man wait, are accepted by the worker under the same ids, and only then can the order be placed', { timeout: 120_000 }, async () => {
    const order = await draft();
    const answers = [];
    for (const [i, photo] of franck.entries()) answers.push(await waiting(order, photo, `franck-${i}.jpg`));
    // Stored as sent, nothing decoded yet: the draft lists them as waiting, and the order cannot be placed.
    expect((await draftView(order)).checking.map((check) => check.fileName)).toEqual(['franck-0.jpg', 'franck-1.jpg', 'franck-2.jpg']);
    expect((await state(order, answers[0]!.id)).body).toEqual({ state: 'checking', id: answers[0]!.id, fileName: 'franck-0.jpg' });
    expect(await files(order.orderId)).toHaveLength(3);
    expect(await uploadRows(order.orderId)).toHaveLength(0);
    const early = await checkout(order);
    expect(early.statusCode).toBe(409);
    expect(early.json().error.code).toBe('photosChecking');

    expect(await t.app.jobRunner!.drain()).toBe(3);
    for (const answer of answers) {
      const { status, body } = await state(order, answer.id);
      expect(status).toBe(200);
      expect(body.state).toBe('accepted');
      if (body.state !== 'accepted') continue;
      expect(body.upload.id).toBe(answer.id);
      expect(body.upload.quality.verdict).not.toBe('unchecked');
      // The face descriptor is biometric data: it never leaves the server.
      expect(JSON.stringify(body)).not.toContain('descriptor');
    }
    const view = await draftView(order);
    expect(view.checking).toEqual([]);
    expect(view.uploads.map((u) => u.id).sort()).toEqual(answers.map((a) => a.id).sort());
    // The files as sent are gone; each photo has its re-encoded file and thumbnail, and no note is left over.
    const stored = await files(order.orderId);
    expect(stored.filter((key) => key.includes('/incoming/'))).toEqual([]);
    expect(stored).toHaveLength(6);
    expect(await checkRows(order.orderId)).toEqual([]);
    expect((await intents()).filter((key) => key.includes(order.orderId))).toEqual([]);
    expect((await checkout(order)).statusCode).toBe(200);
  });

  test('another person is refused by the worker with the reason, leaves no photo and no file, and can be dismissed', { timeout: 120_000 }, async () => {
    const order = await draft();
    for (const photo of franck.slice(0, 2)) await waiting(order, photo);
    const other = await waiting(order, hopper, 'hopper.jpg');
    await t.app.jobRunner!.drain();
    const { body } = await state(order, other.id);
    expect(body).toMatchObject({ state: 'refused', id: other.id, fileName: 'hopper.jpg', code: 'differentPerson' });
    expect((await uploadRows(order.orderId)).map((row) => row.id)).not.toContain(other.id);
    expect(await uploadRows(order.orderId)).toHaveLength(2);
    expect((await files(order.orderId)).filter((key) => key.includes('/incoming/'))).toEqual([]);
    expect((await files(order.orderId)).length).toBe(4);
    // A refused photo does not count, and the draft does not list it as waiting.
    expect((await draftView(order)).checking).toEqual([]);
    const dismissed = await t.app.inject({ method: 'DELETE', url: `/api/orders/${order.orderId}/uploads/${other.id}`, headers: { 'x-draft-token': order.draftToken } });
    expect(dismissed.statusCode).toBe(204);
    expect((await state(order, other.id)).status).toBe(404);
  });

  test('what the header tells is refused at once, even when the shop is busy: nothing is stored', async () => {
    const order = await draft();
    const small = await sharp(franck[0]!).resize({ width: 600 }).jpeg().toBuffer();
    const tooSmall = await upload(order, small);
    expect(tooSmall.statusCode).toBe(422);
    expect(tooSmall.json().error.code).toBe('resolutionTooLow');
    const text = await upload(order, Buffer.from('not a photo at all, just some text in a file called selfie.jpg'));
    expect(text.statusCode).toBe(415);
    expect(await files(order.orderId)).toEqual([]);
    expect(await checkRows(order.orderId)).toEqual([]);
  });

  test('a waiting photo goes to storage as it arrives: a HEIC and a JPEG with a large EXIF block are read as well as a plain one', { timeout: 120_000 }, async () => {
    const order = await draft();
    // The HEIC's index points behind the first bytes: it is read whole from storage for its header.
    const heic = await readFile(path.join(FIXTURES_DIR, 'faces/franck_04117.heic'));
    await waiting(order, heic, 'IMG_4117.HEIC');
    // A phone's JPEG whose EXIF block comes before the image header.
    const exif = await sharp(franck[1]!).withExif({ IFD0: { Make: 'Markermann', ImageDescription: 'x'.repeat(60_000) } }).jpeg().toBuffer();
    await waiting(order, exif, 'exif.jpg');
    const stored = await files(order.orderId);
    expect(stored).toHaveLength(2);
    expect(stored.every((key) => key.includes('/incoming/'))).toBe(true);
    // What was stored is what was sent, byte for byte.
    const kept = await Promise.all(stored.map((key) => t.app.storage.getBuffer(key)));
    expect(kept.map((buffer) => buffer.length).sort()).toEqual([heic.length, exif.length].sort());
    await t.app.jobRunner!.drain();
    expect((await uploadRows(order.orderId)).map((row) => row.fileName).sort()).toEqual(['IMG_4117.HEIC', 'exif.jpg']);
  });

  test('a body that breaks off, a file over the size limit or one that is not a photo leaves no file, row or note behind', async () => {
    const order = await draft();
    const before = await intents();
    const good = multipart({ buffer: franck[0]!, fileName: 'selfie.jpg', contentType: 'image/jpeg' });
    const cut = await t.app.inject({
      method: 'POST',
      url: `/api/orders/${order.orderId}/uploads`,
      headers: { 'content-type': good.contentType, 'x-draft-token': order.draftToken },
      payload: good.body.subarray(0, Math.floor(good.body.length / 2)),
    });
    expect(cut.statusCode).toBe(400);
    expect(cut.json().error.code).toBe('malformedUpload');
    const huge = await upload(order, Buffer.concat([franck[0]!, Buffer.alloc(UPLOAD_LIMITS.maxFileBytes)]));
    expect(huge.statusCode).toBe(413);
    expect(huge.json().error.code).toBe('fileTooLarge');
    const text = await upload(order, Buffer.alloc(400_000, 'Markermann '));
    expect(text.statusCode).toBe(415);
    expect(await files(order.orderId)).toEqual([]);
    expect(await checkRows(order.orderId)).toEqual([]);
    expect(await intents()).toEqual(before);
  });

  test('a photo sent as the body whose connection drops half-way leaves no file, row or note behind', async () => {
    const order = await draft();
    const before = await intents();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const photo = franck[0]!;
    const socket = net.connect(port, '127.0.0.1');
    await once(socket, 'connect');
    socket.write(
      `POST /api/orders/${order.orderId}/uploads HTTP/1.1\r\nHost: localhost\r\nContent-Type: image/jpeg\r\nContent-Length: ${photo.length}\r\n` +
        `X-File-Name: selfie.jpg\r\nX-Draft-Token: ${order.draftToken}\r\n\r\n`,
    );
    socket.write(photo.subarray(0, Math.floor(photo.length / 2)));
    // The upload is under way once its file is noted (before a byte is stored); then the customer is gone.
    await until(async () => (await intents()).length > before.length);
    socket.destroy();
    await until(async () => (await intents()).length === before.length);
    expect(await intents()).toEqual(before);
    expect(await files(order.orderId)).toEqual([]);
    expect(await checkRows(order.orderId)).toEqual([]);
    expect(await db.db.select().from(jobs).where(eq(jobs.orderId, order.orderId))).toEqual([]);
  });

  test('a photo removed while it waits leaves nothing once the worker comes to it', async () => {
    const order = await draft();
    const answer = await waiting(order, franck[0]!);
    const removed = await t.app.inject({ method: 'DELETE', url: `/api/orders/${order.orderId}/uploads/${answer.id}`, headers: { 'x-draft-token': order.draftToken } });
    expect(removed.statusCode).toBe(204);
    await t.app.jobRunner!.drain();
    expect(await files(order.orderId)).toEqual([]);
    expect(await uploadRows(order.orderId)).toEqual([]);
    expect(await checkRows(order.orderId)).toEqual([]);
    expect((await state(order, answer.id)).status).toBe(404);
  });

  test('waiting photos count towards the most an order takes', async () => {
    const order = await draft();
    for (let i = 0; i < UPLOAD_LIMITS.maxPhotos; i++) await waiting(order, franck[i % franck.length]!);
    const over = await upload(order, franck[0]!);
    expect(over.statusCode).toBe(409);
    expect(over.json().error.code).toBe('tooManyPhotos');
    expect(await checkRows(order.orderId)).toHaveLength(UPLOAD_LIMITS.maxPhotos);
    // The refused photo's file went, and so did its note; each waiting photo has its job.
    expect(await files(order.orderId)).toHaveLength(UPLOAD_LIMITS.maxPhotos);
    expect(await db.db.select().from(storageIntents)).toEqual([]);
    const queued = await db.db.select().from(jobs).where(eq(jobs.orderId, order.orderId));
    expect(queued.map((job) => (job.payload as { checkId: string }).checkId).sort()).toEqual((await checkRows(order.orderId)).map((row) => row.id).sort());
  });

  test('photos sent all at once beyond the most an order takes: exactly that many wait, the others are refused and leave nothing', { timeout: 120_000 }, async () => {
    const order = await draft();
    const sent = UPLOAD_LIMITS.maxPhotos + 4;
    const answers = await Promise.all(Array.from({ length: sent }, (_, i) => upload(order, franck[i % franck.length]!)));
    expect(answers.filter((answer) => answer.statusCode === 202)).toHaveLength(UPLOAD_LIMITS.maxPhotos);
    const refused = answers.filter((answer) => answer.statusCode !== 202);
    expect(refused.map((answer) => [answer.statusCode, answer.json().error.code])).toEqual(Array.from({ length: 4 }, () => [409, 'tooManyPhotos']));
    expect(await checkRows(order.orderId)).toHaveLength(UPLOAD_LIMITS.maxPhotos);
    expect(await files(order.orderId)).toHaveLength(UPLOAD_LIMITS.maxPhotos);
    expect(await intents()).toEqual([]);
    const queued = await db.db.select().from(jobs).where(eq(jobs.orderId, order.orderId));
    expect(queued).toHaveLength(UPLOAD_LIMITS.maxPhotos);
  });

  test("the database's rule for an order that takes photos (photo_check_room) is isEditable's, for every status and payment status", async () => {
    const order = await draft();
    const verdict = async () => (await queryRows<{ verdict: string }>(db.db, sql`select photo_check_room(${order.orderId}::uuid, ${UPLOAD_LIMITS.maxPhotos}::integer) as verdict`))[0]!.verdict;
    for (const status of ORDER_STATUSES) {
      for (const paymentStatus of PAYMENT_STATUSES) {
        await setOrder(t.app, order.orderId, { status, paymentStatus, providerSessionId: null });
        expect([status, paymentStatus, await verdict()]).toEqual([status, paymentStatus, isEditable(await orderRow(order.orderId)) ? 'room' : 'orderLocked']);
      }
    }
    await setOrder(t.app, order.orderId, { status: 'created', paymentStatus: 'pending', providerSessionId: 'cs_review_test' });
    expect(await verdict()).toBe('checkoutOpen');
  });

  test("recording a photo's check runs the order's check (photo_check_room) once: PostgreSQL computes the WITH query once, not once per reader", async () => {
    const order = await draft();
    let calls: number | string | undefined;
    // Rolled back at the end: the check's job and row are only there to be counted.
    const rolledBack = db.db.transaction(async (tx) => {
      await tx.execute(sql`set local track_functions = 'pl'`);
      const id = crypto.randomUUID();
      const recorded = await createOrderRepository(tx).recordPhotoCheck(
        { id, orderId: order.orderId, fileName: 'one.jpg', storageKey: `test/${id}.jpg`, createdAt: new Date() },
        UPLOAD_LIMITS.maxPhotos,
        { queue: PHOTO_CHECK_QUEUE, payload: { checkId: id } },
      );
      expect(recorded).toBe('recorded');
      calls = (await queryRows<{ calls: number | string }>(tx, sql`select pg_stat_get_xact_function_calls('photo_check_room'::regproc) as calls`))[0]!.calls;
      tx.rollback();
    });
    await expect(rolledBack).rejects.toThrow(/rollback/i);
    expect(Number(calls)).toBe(1);
  });

  test('a photo sent after the order button first closes the payment page, then waits; a paid order takes none and keeps no file', { timeout: 120_000 }, async () => {
    const order = await draft();
    for (const photo of franck) await waiting(order, photo);
    await t.app.jobRunner!.drain();
    const { sessionId } = (await checkout(order)).json() as { sessionId: string };
    expect((await orderRow(order.orderId)).providerSessionId).toBe(sessionId);
    // Checked under the order's lock only: the open page is closed outside the transaction, then the photo waits.
    await waiting(order, franck[0]!);
    expect(await orderRow(order.orderId)).toMatchObject({ providerSessionId: null });
    const history = await db.db.select().from(orderHistory).where(eq(orderHistory.orderId, order.orderId));
    expect(history.map((entry) => entry.event)).toContain('checkout_expired');
    const late = (await (t.app.payments as SandboxPaymentProvider).simulate(sessionId, 'pay'))!;
    expect(late.events.map((event) => (JSON.parse(event.body) as { type: string }).type)).not.toContain('checkout.session.completed');

    // Paid at the provider, its event not yet here: the page cannot be closed, the photo is refused and leaves nothing.
    await t.app.jobRunner!.drain();
    const placed = await checkout(order);
    expect(placed.statusCode, placed.body).toBe(200);
    const { sessionId: second } = placed.json() as { sessionId: string };
    await (t.app.payments as SandboxPaymentProvider).simulate(second, 'pay');
    const tooLate = await upload(order, franck[1]!);
    expect(tooLate.statusCode).toBe(409);
    expect(tooLate.json().error.code).toBe('alreadyPaid');
    expect(await checkRows(order.orderId)).toHaveLength(0);
    expect((await files(order.orderId)).filter((key) => key.includes('/incoming/'))).toEqual([]);

    const paid = await draft();
    await setOrder(t.app, paid.orderId, { status: 'paid', paymentStatus: 'paid' });
    const refused = await upload(paid, franck[1]!);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe('orderLocked');
    expect(await files(paid.orderId)).toEqual([]);
    expect(await checkRows(paid.orderId)).toEqual([]);
    expect(await intents()).toEqual([]);
  });

  test('a check that keeps failing refuses the photo after its last attempt instead of leaving the customer waiting', async () => {
    const order = await draft();
    const answer = await waiting(order, franck[0]!);
    // The file as sent is lost (a storage fault): every attempt fails.
    const [incoming] = await files(order.orderId);
    await t.app.storage.delete(incoming!);
    const due = () => db.db.update(jobs).set({ runAt: sql`now() - interval '1 second'` }).where(eq(jobs.queue, PHOTO_CHECK_QUEUE));
    await t.app.jobRunner!.drain();
    expect((await state(order, answer.id)).body.state).toBe('checking');
    await due();
    await t.app.jobRunner!.drain();
    expect((await state(order, answer.id)).body.state).toBe('checking');
    await due();
    await t.app.jobRunner!.drain();
    expect((await state(order, answer.id)).body).toMatchObject({ state: 'refused', code: 'uploadFailed' });
    // The order can be placed again once the customer has sent enough photos: a refused photo does not hold it up.
    expect((await draftView(order)).checking).toEqual([]);
  });
});
