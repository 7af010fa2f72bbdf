// The money path over HTTP, photos in: a draft, hostile uploads and file names, the quality gate, and the photo limit.
import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { beforeAll, describe, expect, test } from 'vitest';
import { PHOTO_CONSENT_VERSION } from '../../../domain/order-selection.js';
import { orderUploads } from '../../db/schema.js';
import { testDatabases } from '../../test/databases.js';
import { franckJpeg, multipart, PORTRAIT, portraitJpeg } from '../../../testing/images.js';
import { PROJECT_ROOT } from '../../../testing/project-root.js';
import { BASIC, orderFlow } from './test-order-flow.js';

describe.each(testDatabases())('order uploads on $name', (testDb) => {
  const { t, draft, upload, rows, files, readyOrder, checkout } = orderFlow(testDb);
  let jpeg: Buffer;

  beforeAll(async () => {
    jpeg = await portraitJpeg();
  });

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
    const [stored] = await t.db.db.select().from(orderUploads).where(eq(orderUploads.id, dark.json().id));
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
});
