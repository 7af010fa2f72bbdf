// The money path over HTTP: drafts, hostile uploads, checkout, and payment events in every order.
import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import path from 'node:path';
import { count, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PHOTO_CONSENT_VERSION, WAIVER_TEXT_VERSION } from '../../../domain/order-selection.js';
import type { DatabaseHandle } from '../../db/client.js';
import { orderHistory, orderUploads, orders, outgoingMail, paymentEvents, sandboxCheckoutSessions } from '../../db/schema.js';
import type { SandboxPaymentProvider } from '../../payment-providers/sandbox-provider.js';
import { buildTestApp, type TestApp } from '../../test/app.js';
import { testDatabases } from '../../test/databases.js';
import { sendPhoto } from '../../test/seed.js';
import { franckJpeg, multipart, PORTRAIT, portraitJpeg } from '../../../testing/images.js';
import { PROJECT_ROOT } from '../../../testing/project-root.js';
import { WEBHOOK_PATH } from '../payments/routes.js';
import { CHECKOUT_PROOF_GRACE_MS } from './routes.js';

const CAMPAIGN = {
  CAMPAIGN_PERCENT: '20',
  CAMPAIGN_PACKAGES: 'pro,premium',
  CAMPAIGN_STARTS_AT: '2026-01-01T00:00:00Z',
  CAMPAIGN_ENDS_AT: '2099-01-01T00:00:00Z',
};

// The test shop has no generator: refinement is the backdrop alone, and no outfit can be chosen.
const PRO = { gender: 'female', style: 'professional', package: 'pro', location: 'creative', outfit: null, extras: ['extra_variants', 'express_delivery'] };
const BASIC = { gender: 'male', style: 'casual', package: 'basic', location: null, outfit: null, extras: [] };

describe.each(testDatabases())('order flow on $name', (testDb) => {
  let db: DatabaseHandle;
  let t: TestApp;
  let jpeg: Buffer;

  beforeAll(async () => {
    db = await testDb.open();
    t = await buildTestApp(db, CAMPAIGN);
    jpeg = await portraitJpeg();
  });
  afterAll(async () => {
    await t.close();
    await db.close();
  });

  async function draft(selection: object = BASIC) {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/orders',
      payload: { language: 'de', selection, photoConsent: true, photoConsentVersion: PHOTO_CONSENT_VERSION },
    });
    expect(response.statusCode).toBe(201);
    return response.json() as { orderId: string; draftToken: string; orderNumber: string };
  }

  /** As the wizard sends a photo: the file as the body, its name in X-File-Name. */
  function upload(order: { orderId: string; draftToken: string }, buffer: Buffer, fileName?: string, contentType?: string) {
    return sendPhoto(t.app, order, buffer, fileName, contentType);
  }

  async function rows(orderId: string) {
    const [row] = await db.db.select({ n: count() }).from(orderUploads).where(eq(orderUploads.orderId, orderId));
    return Number(row!.n);
  }

  async function files(orderId: string) {
    return t.app.storage.listKeys(`uploads/${orderId}/`);
  }

  async function readyOrder(selection: object = BASIC, photos = 3) {
    const order = await draft(selection);
    for (let i = 0; i < photos; i++) expect((await upload(order, jpeg)).statusCode).toBe(201);
    return order;
  }

  function checkout(order: { orderId: string; draftToken: string }, body: Record<string, unknown> = {}) {
    return t.app.inject({
      method: 'POST',
      url: `/api/orders/${order.orderId}/checkout`,
      headers: { 'x-draft-token': order.draftToken },
      payload: { language: 'de', selection: BASIC, email: 'Kundin@Example.de', waiverAccepted: true, waiverTextVersion: WAIVER_TEXT_VERSION, ...body },
    });
  }

  function deliver(event: { body: string; signature: string }) {
    return t.app.inject({ method: 'POST', url: WEBHOOK_PATH, headers: { 'content-type': 'application/json', 'stripe-signature': event.signature }, payload: event.body });
  }

  const sandbox = () => t.app.payments as SandboxPaymentProvider;
  const orderRow = async (id: string) => (await db.db.select().from(orders).where(eq(orders.id, id)))[0]!;
  const mails = async (orderId: string, template: string) =>
    db.db.select().from(outgoingMail).where(eq(outgoingMail.orderId, orderId)).then((all) => all.filter((m) => m.template === template));

  test('a draft needs the consent to process face photos', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/orders', payload: { language: 'de', selection: BASIC, photoConsent: false, photoConsentVersion: PHOTO_CONSENT_VERSION } });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields.photoConsent).toBe('photoConsentRequired');
  });

  test('an accepted photo is re-encoded without metadata and stored under a random key, with a thumbnail', async () => {
    const order = await draft();
    const withGps = await sharp(jpeg).withExif({ IFD0: { Copyright: 'private' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '52/1 31/1 0/1' } }).jpeg().toBuffer();
    expect((await sharp(withGps).metadata()).exif).toBeDefined();
    const response = await upload(order, withGps, 'IMG_0001.jpg');
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body).toMatchObject({ fileName: 'IMG_0001.jpg', width: 1200, height: 1500 });
    const keys = await files(order.orderId);
    expect(keys).toHaveLength(2);
    expect(keys.every((k) => /^uploads\/[0-9a-f-]{36}\/[0-9a-f]{32}(-thumb)?\.jpg$/.test(k))).toBe(true);
    const stored = await t.app.storage.getBuffer(keys.find((k) => !k.includes('thumb'))!);
    const meta = await sharp(stored).metadata();
    expect(meta.exif).toBeUndefined();
    expect(meta.format).toBe('jpeg');
    // The signed link serves the photo; without the signature nothing is served.
    const served = await t.app.inject({ method: 'GET', url: body.url });
    expect(served.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: body.url.split('?')[0] })).statusCode).toBe(403);
  });

  test('an iPhone HEIC is accepted, checked and stored as a JPEG without its metadata', async () => {
    const order = await draft();
    const heic = readFileSync(path.join(PROJECT_ROOT, 'test/fixtures/faces/franck_04117.heic'));
    const response = await upload(order, heic, 'IMG_4117.HEIC', 'image/heic');
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ fileName: 'IMG_4117.HEIC', width: 1280, height: 1024, quality: { verdict: 'ok' } });
    const stored = await t.app.storage.getBuffer((await files(order.orderId)).find((k) => !k.includes('thumb'))!);
    const meta = await sharp(stored).metadata();
    expect({ format: meta.format, exif: meta.exif }).toEqual({ format: 'jpeg', exif: undefined });
    // A JPEG of the same man next to it: the identity check compares the decoded HEIC like any photo.
    expect((await upload(order, await franckJpeg(0))).statusCode).toBe(201);
  });

  test('file names keep their letters and lose what could disguise them (controls, bidirectional overrides, invisible marks)', async () => {
    const order = await draft();
    // "Bewerbung‮gpj.exe" would show as "Bewerbungexe.jpg" with the override kept.
    const names: [string, string][] = [
      ['Müller Straße 1.jpg', 'Müller Straße 1.jpg'],
      ['Bewerbung\u202Egpj.exe', 'Bewerbunggpj.exe'],
      ['a\u2066b\u2069\u200Fc\u200B.jpg', 'abc.jpg'],
      ['\u202E\u200E', 'foto'],
    ];
    for (const [sent, stored] of names) {
      const response = await upload(order, jpeg, sent);
      expect(response.statusCode).toBe(201);
      expect(response.json().fileName).toBe(stored);
    }
  });

  test('a photo sent as a multipart form is taken as well; a body past the size limit is refused with or without a declared length; a type that cannot be a photo is refused', async () => {
    const order = await draft();
    // Another client, or a wizard page loaded before the shop changed how it sends photos.
    const form = multipart({ buffer: jpeg, fileName: 'Müller.jpg', contentType: 'image/jpeg' });
    const asForm = await t.app.inject({ method: 'POST', url: `/api/orders/${order.orderId}/uploads`, headers: { 'content-type': form.contentType, 'x-draft-token': order.draftToken }, payload: form.body });
    expect(asForm.statusCode, asForm.body).toBe(201);
    expect(asForm.json().fileName).toBe('Müller.jpg');
    // A name that is not percent-encoding is only shown: it becomes the default name.
    const oddName = await t.app.inject({ method: 'POST', url: `/api/orders/${order.orderId}/uploads`, headers: { 'content-type': 'image/jpeg', 'x-file-name': '%E0%A4%A', 'x-draft-token': order.draftToken }, payload: jpeg });
    expect(oddName.statusCode, oddName.body).toBe(201);
    expect(oddName.json().fileName).toBe('foto');
    const keptBefore = await files(order.orderId);
    // Declared too large: refused before the body is read.
    const tooLarge = Buffer.concat([jpeg, Buffer.alloc(10 * 1024 * 1024)]);
    const declared = await upload(order, tooLarge);
    expect([declared.statusCode, declared.json().error.code]).toEqual([413, 'fileTooLarge']);
    // Sent without a length (chunked): read up to the limit, then only counted, and refused.
    const chunked = await t.app.inject({
      method: 'POST',
      url: `/api/orders/${order.orderId}/uploads`,
      headers: { 'content-type': 'image/jpeg', 'x-draft-token': order.draftToken },
      payload: Readable.from([tooLarge.subarray(0, 4_000_000), tooLarge.subarray(4_000_000)]),
    });
    expect([chunked.statusCode, chunked.json().error.code]).toEqual([413, 'fileTooLarge']);
    // The body's type only says it is meant as a photo; text is not, and a made-up type is no body the route takes.
    const text = await t.app.inject({ method: 'POST', url: `/api/orders/${order.orderId}/uploads`, headers: { 'content-type': 'text/plain', 'x-draft-token': order.draftToken }, payload: 'Markermann' });
    expect([text.statusCode, text.json().error.code]).toEqual([415, 'notAnImage']);
    const pdf = await t.app.inject({ method: 'POST', url: `/api/orders/${order.orderId}/uploads`, headers: { 'content-type': 'application/pdf', 'x-draft-token': order.draftToken }, payload: '%PDF-1.4' });
    expect(pdf.statusCode).toBe(415);
    const renamed = await upload(order, Buffer.from('%PDF-1.4 Markermann'), 'lebenslauf.jpg');
    expect([renamed.statusCode, renamed.json().error.code]).toEqual([415, 'notAnImage']);
    expect(await files(order.orderId)).toEqual(keptBefore);
  });

  test('a wrong draft token looks like a missing order', async () => {
    const order = await draft();
    const response = await upload({ ...order, draftToken: 'x'.repeat(32) }, jpeg);
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toBe('orderNotFound');
    expect(await files(order.orderId)).toEqual([]);
  });

  test('the hostile upload corpus: each file refused with its own code, nothing left behind', async () => {
    const order = await draft();
    const truncated = jpeg.subarray(0, Math.floor(jpeg.length / 2));
    const bomb = await sharp({ create: { width: 10_000, height: 10_000, channels: 3, background: '#fff' } }).png({ compressionLevel: 9 }).toBuffer();
    const gif = await sharp({ create: { width: 1200, height: 1200, channels: 3, background: '#888' } }).gif().toBuffer();
    const small = await portraitJpeg(600, 750);
    const heic = Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypheic'), Buffer.from([0, 0, 0, 0]), Buffer.from('mif1heic'), Buffer.alloc(64)]);
    const cases: [Buffer, string, string, number, string][] = [
      [Buffer.from('this is a text file, not a photo\n'.repeat(50)), 'selfie.jpg', 'image/jpeg', 415, 'notAnImage'],
      [truncated, 'cut.jpg', 'image/jpeg', 415, 'corruptImage'],
      [Buffer.concat([jpeg, Buffer.alloc(11 * 1024 * 1024 - jpeg.length)]), 'big.jpg', 'image/jpeg', 413, 'fileTooLarge'],
      [bomb, 'bomb.png', 'image/png', 422, 'tooManyPixels'],
      [Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="2000" height="2000"><rect width="2000" height="2000"/></svg>'), 'x.svg', 'image/svg+xml', 415, 'unsupportedType'],
      [gif, 'x.gif', 'image/gif', 415, 'unsupportedType'],
      [heic, 'IMG_1234.HEIC', 'image/heic', 415, 'corruptImage'],
      [small, 'small.jpg', 'image/jpeg', 422, 'resolutionTooLow'],
    ];
    for (const [buffer, name, type, status, code] of cases) {
      const response = await upload(order, buffer, name, type);
      expect({ name, status: response.statusCode, code: response.json().error?.code }).toEqual({ name, status, code });
    }
    expect(await rows(order.orderId)).toBe(0);
    expect(await files(order.orderId)).toEqual([]);
  });

  test('the quality gate: no face, two, or blurred, dark, burnt out or sideways beyond use is refused and leaves nothing; a dark one is kept with its warning', async () => {
    const order = await draft();
    const noFace = await sharp(PORTRAIT).extract({ left: 0, top: 300, width: 512, height: 212 }).resize(1536, 1100, { fit: 'cover' }).jpeg().toBuffer();
    const single = await portraitJpeg(1200, 1200);
    const two = await sharp({ create: { width: 2400, height: 1200, channels: 3, background: '#777' } }).composite([{ input: single, left: 0, top: 0 }, { input: single, left: 1200, top: 0 }]).jpeg().toBuffer();
    // The made-bad portraits of quality-gate.test.ts: blurred away, a quarter of the light, burnt out, on its side.
    const refusals: [Buffer, string][] = [
      [noFace, 'noFace'],
      [two, 'multipleFaces'],
      [await sharp(jpeg).blur(8).jpeg().toBuffer(), 'tooBlurred'],
      [await sharp(jpeg).linear(0.25, 0).jpeg().toBuffer(), 'farTooDark'],
      [await sharp(jpeg).linear(2, 0).jpeg().toBuffer(), 'farTooBright'],
      [await sharp(jpeg).rotate(90).jpeg().toBuffer(), 'headTiltedTooFar'],
    ];
    for (const [buffer, code] of refusals) {
      const response = await upload(order, buffer);
      expect({ status: response.statusCode, code: response.json().error.code }).toEqual({ status: 422, code });
    }
    expect(await rows(order.orderId)).toBe(0);
    expect(await files(order.orderId)).toEqual([]);
    // Refused photos never count: an order of nothing but refused photos cannot be checked out.
    expect((await checkout(order)).json().error.code).toBe('notEnoughPhotos');

    const good = (await upload(order, jpeg)).json();
    expect(good.quality).toEqual({ verdict: 'ok', warnings: [] });
    const dark = await upload(order, await sharp(jpeg).modulate({ brightness: 0.5 }).jpeg().toBuffer());
    expect(dark.statusCode).toBe(201);
    expect(dark.json().quality).toEqual({ verdict: 'warning', warnings: ['tooDark'] });
    // The report (with the face's position for framing later) is kept with the photo.
    const [stored] = await db.db.select().from(orderUploads).where(eq(orderUploads.id, dark.json().id));
    expect(stored!.quality).toMatchObject({ verdict: 'warning', face: { width: expect.any(Number) }, measures: { faces: 1 } });
  });

  test('the 11th photo is refused', async () => {
    const order = await readyOrder(BASIC, 10);
    const response = await upload(order, jpeg);
    expect(response.statusCode).toBe(409);
    expect(response.json().error.code).toBe('tooManyPhotos');
    expect(await rows(order.orderId)).toBe(10);
    expect(await files(order.orderId)).toHaveLength(20);
  });

  test('12 parallel uploads to one order: exactly 10 are kept, the rest leave nothing behind', async () => {
    const order = await draft();
    const responses = await Promise.all(Array.from({ length: 12 }, () => upload(order, jpeg)));
    const codes = responses.map((r) => r.statusCode).sort();
    // Beyond the uploads one process checks at once (UPLOAD_INLINE_CHECKS), photos are taken (202) and
    // checked by the job runner; a waiting photo counts towards the 10 like a checked one.
    expect(codes.filter((c) => c === 201 || c === 202)).toHaveLength(10);
    expect(codes.filter((c) => c === 202).length).toBeGreaterThan(0);
    expect(responses.filter((r) => r.statusCode === 409).every((r) => r.json().error.code === 'tooManyPhotos')).toBe(true);
    await t.app.jobRunner!.drain();
    expect(await rows(order.orderId)).toBe(10);
    expect(await files(order.orderId)).toHaveLength(20);
  });

  test('a photo can be deleted: row and files gone', async () => {
    const order = await readyOrder(BASIC, 1);
    const draftView = (await t.app.inject({ method: 'GET', url: `/api/orders/${order.orderId}/draft`, headers: { 'x-draft-token': order.draftToken } })).json();
    const id = draftView.uploads[0].id;
    const response = await t.app.inject({ method: 'DELETE', url: `/api/orders/${order.orderId}/uploads/${id}`, headers: { 'x-draft-token': order.draftToken } });
    expect(response.statusCode).toBe(204);
    expect(await rows(order.orderId)).toBe(0);
    expect(await files(order.orderId)).toEqual([]);
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
    const [session] = await db.db.select().from(sandboxCheckoutSessions).where(eq(sandboxCheckoutSessions.id, sessionId));
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
    const sessions = await db.db.select().from(sandboxCheckoutSessions).where(eq(sandboxCheckoutSessions.orderId, order.orderId));
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
    const history = await db.db.select().from(orderHistory).where(eq(orderHistory.orderId, order.orderId));
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
    const [session] = await db.db.select().from(sandboxCheckoutSessions).where(eq(sandboxCheckoutSessions.id, retry.json().sessionId));
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
    const before = await db.db.select({ n: count() }).from(paymentEvents);
    const forged = await deliver({ body: event!.body.replace('"paid"', '"paid" '), signature: event!.signature });
    expect(forged.statusCode).toBe(400);
    expect(forged.json().error.code).toBe('invalidSignature');
    const unsigned = await t.app.inject({ method: 'POST', url: WEBHOOK_PATH, headers: { 'content-type': 'application/json' }, payload: event!.body });
    expect(unsigned.statusCode).toBe(400);
    expect(await db.db.select({ n: count() }).from(paymentEvents)).toEqual(before);
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
    await db.db.update(orders).set({ providerSessionExpiresAt: new Date(Date.now() - CHECKOUT_PROOF_GRACE_MS - 60_000) }).where(eq(orders.id, order.orderId));
    expect((await t.app.inject({ method: 'GET', url: `/api/orders/${order.orderId}/confirmation?session_id=${sessionId}` })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/api/orders/${order.orderId}/confirmation`, headers: { 'x-draft-token': order.draftToken } })).statusCode).toBe(404);
    // The status link it handed out still does.
    const byStatus = await t.app.inject({ method: 'GET', url: `/api/orders/${order.orderId}/confirmation?token=${statusUrl.searchParams.get('token')}` });
    expect(byStatus.statusCode).toBe(200);

    // Within the window, but the photos were deleted (which revokes status links): the proofs open nothing either.
    await db.db.update(orders).set({ providerSessionExpiresAt: new Date(), photosDeletedAt: new Date() }).where(eq(orders.id, order.orderId));
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
