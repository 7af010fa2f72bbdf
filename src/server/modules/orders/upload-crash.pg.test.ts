// No customer photo outlives the deletion promise unseen: the shop (a child process on PostgreSQL through
// the statement-counting proxy) is killed at every statement of storing an upload. Some kills leave the
// photo and its thumbnail on disk without a row; each of those was noted first, and the deletion job removes
// exactly them an hour later, leaving every listed photo in place.
import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PHOTO_CONSENT_VERSION } from '../../../domain/order-selection.js';
import { orderUploads, storageIntents } from '../../db/schema.js';
import { STALE_AFTER_MS } from '../../storage/intents.js';
import { startCrashHarness, type CrashHarness } from '../../test/crash-harness.js';
import { portraitJpeg } from '../../../testing/images.js';
import { thumbnailKey } from './order-service.js';

let h: CrashHarness;
let photo: Buffer;

beforeAll(async () => {
  h = await startCrashHarness({ env: { RUN_JOBS: 'false' } });
  photo = await portraitJpeg();
}, 60_000);

afterAll(async () => {
  await h?.close();
});

async function newDraft(): Promise<{ orderId: string; draftToken: string }> {
  const response = await fetch(`http://127.0.0.1:${h.port}/api/orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ language: 'de', selection: { gender: null, style: null, package: null, location: null, outfit: null, extras: [] }, photoConsent: true, photoConsentVersion: PHOTO_CONSENT_VERSION }),
  });
  expect(response.status).toBe(201);
  return (await response.json()) as { orderId: string; draftToken: string };
}

async function upload(draft: { orderId: string; draftToken: string }): Promise<number> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), 'selfie.jpg');
  try {
    const response = await fetch(`http://127.0.0.1:${h.port}/api/orders/${draft.orderId}/uploads`, {
      method: 'POST',
      headers: { 'x-draft-token': draft.draftToken },
      body: form,
      signal: AbortSignal.timeout(30_000),
    });
    await response.arrayBuffer();
    return response.status;
  } catch {
    return 0;
  }
}

describe('an upload on PostgreSQL', () => {
  test('killed at every statement of storing it: the files of uploads that never committed are found and removed, the rest stay', { timeout: 300_000 }, async () => {
    const measured = await newDraft();
    h.proxy.resetCount();
    expect(await upload(measured)).toBe(201);
    const steps = h.proxy.statements;
    expect(steps).toBeGreaterThan(4);

    const orderIds = [measured.orderId];
    for (let n = 1; n <= steps; n++) {
      const draft = await newDraft();
      orderIds.push(draft.orderId);
      const dying = h.shop;
      h.proxy.arm(n, { kind: 'kill', onFault: h.killNow });
      expect(await upload(draft), `killed at statement ${n}`).toBe(0);
      expect(h.proxy.fired).toBe(true);
      await dying.exited;
      await h.restart();
    }

    const storage = h.seed.app.storage;
    const filesOnDisk = async () => (await Promise.all(orderIds.map((id) => storage.listKeys(`uploads/${id}/`)))).flat().sort();
    const listed = async () =>
      (await h.db.db.select({ key: orderUploads.storageKey }).from(orderUploads).where(inArray(orderUploads.orderId, orderIds))).flatMap((row) => [row.key, thumbnailKey(row.key)]).sort();

    const before = await filesOnDisk();
    const rows = await listed();
    const orphans = before.filter((key) => !rows.includes(key));
    // Some kills fell between the write and the commit: photos on disk that no page lists.
    expect(orphans.length).toBeGreaterThan(0);
    // Every listed photo has its files.
    expect(rows.every((key) => before.includes(key))).toBe(true);
    // And every orphan was noted before it was written.
    const noted = (await h.db.db.select({ key: storageIntents.key }).from(storageIntents)).map((row) => row.key);
    expect(orphans.every((key) => noted.includes(key))).toBe(true);

    // Not while an upload could still be under way; an hour later the deletion job removes exactly them.
    expect((await h.seed.app.retention.run()).abandonedFiles).toBe(0);
    h.clockOffsetMs = STALE_AFTER_MS + 60_000;
    const run = await h.seed.app.retention.run();
    expect(run.abandonedFiles).toBe(noted.length);
    expect(await filesOnDisk()).toEqual(rows);
    expect(await h.db.db.select().from(storageIntents)).toEqual([]);
  });
});
