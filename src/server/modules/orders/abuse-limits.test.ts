// Abuse costs the abuser: one network address can start only so many drafts and send only so many bytes
// of photos an hour; past that it gets a 429 with a wait, and nothing is stored.
import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import { PHOTO_CONSENT_VERSION } from '../../../domain/order-selection.js';
import { orders } from '../../db/schema.js';
import { testDatabases } from '../../test/databases.js';
import { suiteApp } from '../../test/suite-app.js';
import { multipart } from '../../../testing/images.js';

const EMPTY = { gender: null, style: null, package: null, location: null, outfit: null, extras: [] };

describe.each(testDatabases())('limits per address on $name', (testDb) => {
  // The default draft limit; the smallest upload volume the settings allow (10 MB an hour).
  const t = suiteApp(testDb, { LIMIT_DRAFTS_PER_HOUR: '', LIMIT_UPLOAD_MB_PER_HOUR: '10', TRUST_PROXY: 'true' });

  const createDraft = (address: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/orders',
      headers: { 'x-forwarded-for': address },
      payload: { language: 'de', selection: EMPTY, photoConsent: true, photoConsentVersion: PHOTO_CONSENT_VERSION },
    });
  const orderCount = async () => Number((await t.db.db.select({ n: sql<number>`count(*)` }).from(orders))[0]!.n);

  test('drafts: the default 30 an hour per address, then 429 with the wait; other addresses are not affected', async () => {
    expect(t.config.limits.draftsPerHour).toBe(30);
    for (let i = 0; i < 30; i++) expect((await createDraft('203.0.113.7')).statusCode).toBe(201);
    const before = await orderCount();
    const refused = await createDraft('203.0.113.7');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error).toMatchObject({ code: 'tooManyDrafts', requestId: expect.any(String), details: { retryAfterSeconds: expect.any(Number) } });
    const wait = Number(refused.headers['retry-after']);
    expect(wait).toBeGreaterThan(3500);
    expect(wait).toBeLessThanOrEqual(3600);
    expect(await orderCount()).toBe(before);
    expect((await createDraft('198.51.100.20')).statusCode).toBe(201);
  });

  test('upload bytes: counted as received before any check; past the volume refused, even before the body is read', async () => {
    const draft = (await createDraft('192.0.2.44')).json() as { orderId: string; draftToken: string };
    const send = (buffer: Buffer) => {
      const body = multipart({ buffer, fileName: 'gross.jpg', contentType: 'image/jpeg' });
      return t.app.inject({
        method: 'POST',
        url: `/api/orders/${draft.orderId}/uploads`,
        headers: { 'content-type': body.contentType, 'x-draft-token': draft.draftToken, 'x-forwarded-for': '192.0.2.44' },
        payload: body.body,
      });
    };
    // 9 MB that are not a photo: refused as such, but the bytes count.
    const noise = randomBytes(9 * 1024 * 1024);
    expect((await send(noise)).json().error.code).toBe('notAnImage');
    const over = await send(noise);
    expect(over.statusCode).toBe(429);
    expect(over.json().error).toMatchObject({ code: 'uploadLimitReached', details: { retryAfterSeconds: expect.any(Number) } });
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    // Already over: refused without reading, whatever it sends.
    expect((await send(Buffer.from('x'))).json().error.code).toBe('uploadLimitReached');
    expect(await t.app.storage.listKeys(`uploads/${draft.orderId}/`)).toEqual([]);
    const [row] = await t.db.db.select().from(orders).where(eq(orders.id, draft.orderId));
    expect(row).toBeTruthy();
  });
});
