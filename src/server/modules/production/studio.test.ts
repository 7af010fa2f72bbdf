// From payment to drafts for staff review: the durable job, a crash halfway, regenerating, the modes.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { DatabaseHandle } from '../../db/client.js';
import type { StoredQualityReport } from '../../../domain/stored-json.js';
import { generatedImages, jobs, orderHistory, orderUploads, orders, outgoingMail } from '../../db/schema.js';
import { createStorage } from '../../storage/create-storage.js';
import type { Storage } from '../../storage/storage.js';
import { buildTestApp, type TestApp } from '../../test/app.js';
import { testDatabases } from '../../test/databases.js';
import { signInStaff, type StaffClient } from '../../test/staff.js';
import { payOrder, placeOrder } from '../../test/seed.js';
import { STUDIO_QUEUE } from './studio-service.js';
import { statusToken } from '../orders/order-tokens.js';

// The studio cannot change clothes: without a generator no outfit is offered or accepted (claims follow capability).
const PRO = { gender: 'female', style: 'professional', package: 'pro', location: 'creative', outfit: null, extras: [] };

describe.each(testDatabases())('studio drafts on $name', (testDb) => {
  let db: DatabaseHandle;
  let t: TestApp;
  let filesDir: string;
  let clock = new Date('2026-11-23T10:00:00Z');
  // A store whose writes can be made to fail once, right after a file was written (the worst moment).
  let failAfterWrite: number | null = null;
  let staff: StaffClient;

  beforeAll(async () => {
    db = await testDb.open();
    filesDir = await mkdtemp(path.join(os.tmpdir(), 'studio-files-'));
    const real = createStorage({ driver: 'local', dir: filesDir }, { secret: 'x'.repeat(32), defaultTtlSeconds: 3600 });
    const storage: Storage = Object.assign(Object.create(real) as Storage, {
      async put(key: string, body: Buffer, options: { contentType: string }) {
        await real.put(key, body, options);
        // Counts down the result writes from when a test sets it; the one that reaches zero fails.
        if (key.startsWith('results/') && failAfterWrite !== null && --failAfterWrite === 0) throw new Error('the worker died here');
      },
    });
    t = await buildTestApp(db, { CAMPAIGN_PERCENT: '0' }, { storage, now: () => clock });
    staff = await signInStaff(t.app, '10.80.0.1');
  });
  afterAll(async () => {
    await t.close();
    await db.close();
    await rm(filesDir, { recursive: true, force: true });
  });

  const admin = (method: 'GET' | 'POST', url: string, payload?: object) => staff.request(method, url, payload);
  const rgbOf = async (image: Buffer) => {
    const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    return { data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width: info.width, height: info.height };
  };
  const drafts = async (orderId: string) =>
    db.db.select().from(generatedImages).where(and(eq(generatedImages.orderId, orderId), eq(generatedImages.generationType, 'studio')));

  test('photos deleted by the customer while the order is being made: the job stops, staff see it first on the dashboard, the status page says what happens', { timeout: 120_000 }, async () => {
    const order = await placeOrder(t.app, { selection: PRO });
    await payOrder(t.app, order);
    const token = statusToken(t.app.config.appSecret, order.orderId, clock);
    const deleted = await t.app.inject({ method: 'POST', url: `/api/orders/${order.orderId}/delete-photos`, headers: { 'x-status-token': token }, payload: { confirm: true } });
    expect(deleted.statusCode).toBe(200);
    // The job runs and makes nothing: there is nothing to make pictures from.
    await t.app.jobRunner!.drain();
    expect(await drafts(order.orderId)).toHaveLength(0);
    const dashboard = (await admin('GET', '/api/admin/dashboard')).json();
    expect(dashboard.waiting[0]).toMatchObject({ id: order.orderId, photosDeleted: true });
    // The customer's view: the deletion, and no due time promised by the page (ProcessingInfo shows the note).
    const view = deleted.json().order;
    expect(view.photosDeletedAt).not.toBeNull();
    expect(view.uploads).toEqual([]);
  });

  test('payment queues one job; it makes the pro package\'s 10 drafts for review and puts the order in progress', { timeout: 120_000 }, async () => {
    const order = await placeOrder(t.app, { selection: PRO });
    await payOrder(t.app, order);
    await payOrder(t.app, order);
    const jobs = await t.app.jobs.forOrder(order.orderId);
    expect(jobs.map((job) => [job.queue, job.status])).toEqual([[STUDIO_QUEUE, 'pending']]);

    expect(await t.app.jobRunner!.drain()).toBe(1);
    const made = await drafts(order.orderId);
    expect(made).toHaveLength(10);
    expect(new Set(made.map((d) => d.generationKey)).size).toBe(10);
    expect(made.every((d) => d.status === 'draft')).toBe(true);
    expect(made.map((d) => `${d.width}x${d.height}`).sort()).toEqual([...Array(4).fill('1200x1500'), ...Array(3).fill('1200x1200'), ...Array(3).fill('413x531')].sort());
    // The files are in the store, at 300 DPI, and say they were made with AI.
    const meta = await sharp(await t.app.storage.getBuffer(made[0]!.storageKey)).metadata();
    expect(meta.density).toBe(300);
    expect(meta.xmp!.toString()).toContain('digitalsourcetype/compositeWithTrainedAlgorithmicMedia');
    expect(made[0]!.variant).toMatchObject({ backdrop: { kind: 'creative' }, requestedOutfit: null });
    // Each passed the output gate: the customer's face, with its distance to her photos for the reviewer.
    for (const draft of made) expect((draft.variant as { identity: { distance: number } }).identity.distance).toBeLessThan(0.5);

    const [row] = await db.db.select().from(orders).where(eq(orders.id, order.orderId));
    expect(row!.status).toBe('in_progress');
    const history = await db.db.select().from(orderHistory).where(eq(orderHistory.orderId, order.orderId));
    expect(history.map((h) => h.event)).toContain('production_started');
    expect((await t.app.jobs.forOrder(order.orderId))[0]).toMatchObject({ status: 'done', progress: { done: 10, total: 10 } });
    // Customers see none of it until staff publish.
    const status = await t.app.inject({ method: 'POST', url: '/api/tracking', payload: { orderId: order.orderNumber, email: order.email }, remoteAddress: '10.80.1.1' });
    expect(status.json().order.results).toEqual([]);
  });

  test('a job that dies halfway and runs again makes each draft exactly once', { timeout: 120_000 }, async () => {
    const order = await placeOrder(t.app, { selection: { ...PRO, package: 'basic', location: null, outfit: null } });
    await payOrder(t.app, order);
    failAfterWrite = 2;
    await t.app.jobRunner!.drain();
    failAfterWrite = null;
    // The second draft's file was written, its row not: the job waits for its retry.
    expect(await drafts(order.orderId)).toHaveLength(1);
    const [job] = await t.app.jobs.forOrder(order.orderId);
    expect(job).toMatchObject({ status: 'pending', attempts: 1 });
    expect(job!.lastError).toContain('the worker died here');
    clock = new Date(clock.getTime() + 60_000);
    expect(await t.app.jobRunner!.drain()).toBe(1);
    const made = await drafts(order.orderId);
    expect(made.map((d) => d.generationKey).sort()).toEqual(['studio:0:0', 'studio:0:1', 'studio:0:2']);
    // No file without its row, none twice.
    expect((await t.app.storage.listKeys(`results/${order.orderId}/`)).sort()).toEqual(made.map((d) => d.storageKey).sort());
  });

  test('staff regenerate one draft or all of them; progress and jobs are visible', { timeout: 120_000 }, async () => {
    const order = await placeOrder(t.app, { selection: { ...PRO, package: 'basic', location: null, outfit: null } });
    await payOrder(t.app, order);
    await t.app.jobRunner!.drain();
    const [first] = await drafts(order.orderId);
    expect((await admin('POST', `/api/admin/orders/${order.orderId}/studio/regenerate`, { draftId: first!.id })).statusCode).toBe(200);
    await t.app.jobRunner!.drain();
    let current = (await drafts(order.orderId)).filter((d) => d.status === 'draft');
    expect(current).toHaveLength(3);
    // The one made again keeps its format (a square stays a square) and comes from another photo or backdrop.
    const again = current.find((d) => d.generationKey!.startsWith('studio:1:'))!;
    const was = first!.variant as { format: string; photoId: string; backdrop: { variant: number } };
    const now = again.variant as typeof was & { redo?: string[] };
    expect(now.format).toBe(was.format);
    expect(now.photoId !== was.photoId || now.backdrop.variant !== was.backdrop.variant).toBe(true);
    // Not a customer's redo: nothing to say about a reason.
    expect(now.redo).toBeUndefined();
    expect((await drafts(order.orderId)).find((d) => d.id === first!.id)!.status).toBe('deleted');

    const all = await admin('POST', `/api/admin/orders/${order.orderId}/studio/regenerate`, {});
    expect(all.json().generation).toBe(2);
    const view = (await admin('GET', `/api/admin/orders/${order.orderId}/studio`)).json();
    expect(view.jobs[0]).toMatchObject({ status: 'pending', queue: STUDIO_QUEUE });
    await t.app.jobRunner!.drain();
    current = (await drafts(order.orderId)).filter((d) => d.status === 'draft');
    expect(current.map((d) => d.generationKey).sort()).toEqual(['studio:2:0', 'studio:2:1', 'studio:2:2']);
    expect((await admin('GET', `/api/admin/orders/${order.orderId}/studio`)).json().jobs[0]).toMatchObject({ status: 'done', progress: { done: 3, total: 3 } });
  });

  test('a redo of two delivered pictures makes two new drafts in their formats, from a new combination, for staff review', { timeout: 120_000 }, async () => {
    const order = await placeOrder(t.app, { selection: { ...PRO, package: 'basic', location: null, outfit: null } });
    await payOrder(t.app, order);
    await t.app.jobRunner!.drain();
    const first = await drafts(order.orderId);
    for (const draft of first) await admin('POST', `/api/admin/orders/${order.orderId}/results/${draft.id}/status`, { status: 'active' });
    expect((await admin('POST', `/api/admin/orders/${order.orderId}/status`, { status: 'completed' })).statusCode).toBe(200);
    const named = [first[0]!, first[2]!];
    const token = statusToken(t.app.config.appSecret, order.orderId, clock);
    const redo = await t.app.inject({ method: 'POST', url: `/api/orders/${order.orderId}/revision`, headers: { 'x-status-token': token }, payload: { imageIds: named.map((d) => d.id) } });
    expect(redo.statusCode).toBe(200);
    await t.app.jobRunner!.drain();
    const fresh = (await drafts(order.orderId)).filter((d) => d.status === 'draft');
    const formatOf = (d: (typeof first)[number]) => (d.variant as { format: string }).format;
    expect(fresh.map(formatOf).sort()).toEqual(named.map(formatOf).sort());
    expect(fresh.every((d) => d.generationKey!.startsWith('studio:1:'))).toBe(true);
    // Each new draft differs from the delivered picture of its format (photo, backdrop or framing).
    const look = (d: (typeof first)[number]) => JSON.stringify({ ...(d.variant as object), generation: 0, index: 0 });
    for (const draft of fresh) expect(named.filter((n) => formatOf(n) === formatOf(draft)).map(look)).not.toContain(look(draft));
    // The delivered pictures stay published until staff close the redo.
    expect((await drafts(order.orderId)).filter((d) => d.status === 'active')).toHaveLength(3);
  });

  test('a staff "make again" of a square and a redo of one keep the square; the reason makes the frame tighter and takes another photo, and the mail says so', { timeout: 120_000 }, async () => {
    const order = await placeOrder(t.app, { selection: { ...PRO, package: 'basic', location: null, outfit: null } });
    await payOrder(t.app, order);
    await t.app.jobRunner!.drain();
    const formatOf = (d: { variant: unknown }) => (d.variant as { format: string }).format;
    const square = (await drafts(order.orderId)).find((d) => formatOf(d) === 'square')!;
    expect((await admin('POST', `/api/admin/orders/${order.orderId}/studio/regenerate`, { draftId: square.id })).statusCode).toBe(200);
    await t.app.jobRunner!.drain();
    const current = (await drafts(order.orderId)).filter((d) => d.status === 'draft');
    expect(current.map(formatOf).sort()).toEqual(['application', 'portrait', 'square']);
    for (const draft of current) await admin('POST', `/api/admin/orders/${order.orderId}/results/${draft.id}/status`, { status: 'active' });
    expect((await admin('POST', `/api/admin/orders/${order.orderId}/status`, { status: 'completed' })).statusCode).toBe(200);
    const delivered = current.find((d) => formatOf(d) === 'square')!;
    const token = statusToken(t.app.config.appSecret, order.orderId, clock);
    const message = 'Weniger Platz oben, grüner Rand am Hals';
    const redo = await t.app.inject({ method: 'POST', url: `/api/orders/${order.orderId}/revision`, headers: { 'x-status-token': token }, payload: { imageIds: [delivered.id], message } });
    expect(redo.statusCode).toBe(200);
    await t.app.jobRunner!.drain();
    const [fresh, ...more] = (await drafts(order.orderId)).filter((d) => d.status === 'draft');
    expect(more).toEqual([]);
    const was = delivered.variant as { format: string; photoId: string };
    expect(fresh!.variant).toMatchObject({ format: 'square', variation: 2, redo: ['tighter', 'photo'] });
    expect((fresh!.variant as { photoId: string }).photoId).not.toBe(was.photoId);
    // The tighter frame: the face larger than in the delivered square.
    const faceShare = async (d: { storageKey: string }) => {
      const image = await t.app.storage.getBuffer(d.storageKey);
      return (await t.app.inference.detectFaces(await rgbOf(image)))[0]!.box.height / 1200;
    };
    expect(await faceShare(fresh!)).toBeGreaterThan((await faceShare(delivered)) * 1.05);
    const [ack] = await db.db.select().from(outgoingMail).where(and(eq(outgoingMail.orderId, order.orderId), eq(outgoingMail.template, 'revision-received')));
    expect(ack!.text).toContain('Aus Ihrem Hinweis ändern wir bei den neuen Fassungen: einen engeren Bildausschnitt, weniger Platz um den Kopf; ein anderes Ihrer Fotos als Vorlage.');
  });

  test('a draft whose face the identity net does not take for the customer\'s is made again gently, then not made; staff see how many', { timeout: 120_000 }, async () => {
    const order = await placeOrder(t.app, { selection: { ...PRO, package: 'basic', location: null, outfit: null } });
    // As if the customer's photos had been described as someone else: every draft of her face is "another person".
    const stranger = Array.from({ length: 128 }, (_, i) => (i % 2 ? 0.2 : -0.2));
    for (const upload of await db.db.select().from(orderUploads).where(eq(orderUploads.orderId, order.orderId))) {
      await db.db.update(orderUploads).set({ quality: { ...(upload.quality as StoredQualityReport), descriptor: stranger } }).where(eq(orderUploads.id, upload.id));
    }
    await payOrder(t.app, order);
    await t.app.jobRunner!.drain();
    expect(await drafts(order.orderId)).toEqual([]);
    const [job] = await t.app.jobs.forOrder(order.orderId);
    expect(job).toMatchObject({ status: 'done', progress: { done: 0, total: 3, refused: 3 } });
  });

  test('photos the gate could not check at upload are checked by the job before it frames them', { timeout: 120_000 }, async () => {
    const order = await placeOrder(t.app, { selection: { ...PRO, package: 'basic', location: null, outfit: null } });
    await db.db.update(orderUploads).set({ quality: null }).where(eq(orderUploads.orderId, order.orderId));
    await payOrder(t.app, order);
    await t.app.jobRunner!.drain();
    expect((await drafts(order.orderId)).filter((d) => d.status === 'draft')).toHaveLength(3);
    const uploads = await db.db.select().from(orderUploads).where(eq(orderUploads.orderId, order.orderId));
    expect(uploads.map((u) => (u.quality as { face?: unknown } | null)?.face)).toEqual([expect.any(Object), expect.any(Object), expect.any(Object)]);
  });

  test('a photo the gate warned has someone else at its side makes no draft while the clean photos still give new ones', { timeout: 120_000 }, async () => {
    const order = await placeOrder(t.app, { selection: PRO, photos: 3 });
    const uploads = await db.db.select().from(orderUploads).where(eq(orderUploads.orderId, order.orderId));
    // As the gate reports a friend cropped away at the side (quality-gate.ts otherPersonAtSide).
    const party = uploads[0]!;
    const report = party.quality as StoredQualityReport;
    await db.db
      .update(orderUploads)
      .set({ quality: { ...report, verdict: 'warning', issues: [...report.issues, { code: 'otherPeople', measured: 0.99, limit: 0.28 }] } })
      .where(eq(orderUploads.id, party.id));
    await payOrder(t.app, order);
    await t.app.jobRunner!.drain();
    const made = (await drafts(order.orderId)).filter((d) => d.status === 'draft');
    expect(made).toHaveLength(10);
    const sources = made.map((d) => (d.variant as { photoId: string }).photoId);
    expect(sources).not.toContain(party.id);
    expect(new Set(sources)).toEqual(new Set(uploads.slice(1).map((u) => u.id)));
  });

  test('one run at a time: no regenerating while a job waits; a full run replaced by a newer one adds nothing', { timeout: 120_000 }, async () => {
    const order = await placeOrder(t.app, { selection: { ...PRO, package: 'basic', location: null, outfit: null } });
    await payOrder(t.app, order);
    // The first drafts' job still waits: the server refuses, whatever the browser shows.
    const refused = await admin('POST', `/api/admin/orders/${order.orderId}/studio/regenerate`, {});
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe('jobRunning');
    expect((await admin('POST', `/api/admin/orders/${order.orderId}/studio/mode`, { mode: 'generator' })).json().error.code).toBe('generatorNotConfigured');
    // The first job dies before it made anything; staff regenerate all; then the dead one is retried late.
    const [first] = await t.app.jobs.forOrder(order.orderId);
    await db.db.update(jobs).set({ status: 'dead' }).where(eq(jobs.id, first!.id));
    expect((await admin('POST', `/api/admin/orders/${order.orderId}/studio/regenerate`, {})).statusCode).toBe(200);
    await t.app.jobRunner!.drain();
    expect((await admin('POST', `/api/admin/jobs/${first!.id}/retry`)).statusCode).toBe(200);
    await t.app.jobRunner!.drain();
    const made = (await drafts(order.orderId)).filter((d) => d.status === 'draft');
    expect(made.map((d) => d.generationKey).sort()).toEqual(['studio:1:0', 'studio:1:1', 'studio:1:2']);
  });

  test('orders made by hand get no drafts until staff switch them to the studio; dead jobs can be retried', { timeout: 120_000 }, async () => {
    const order = await placeOrder(t.app, { selection: { ...PRO, package: 'basic', location: null, outfit: null } });
    await admin('POST', `/api/admin/orders/${order.orderId}/studio/mode`, { mode: 'manual' });
    await payOrder(t.app, order);
    expect(await t.app.jobs.forOrder(order.orderId)).toEqual([]);
    expect((await admin('POST', `/api/admin/orders/${order.orderId}/studio/regenerate`, {})).json().error.code).toBe('notStudioMode');
    const switched = await admin('POST', `/api/admin/orders/${order.orderId}/studio/mode`, { mode: 'studio' });
    expect(switched.json().jobId).toBeTypeOf('number');
    // A job that fails for good is dead, listed for staff, and goes again on retry.
    const jobId = switched.json().jobId as number;
    await db.db.update(jobs).set({ maxAttempts: 1 }).where(eq(jobs.id, jobId));
    failAfterWrite = 1;
    await t.app.jobRunner!.drain();
    failAfterWrite = null;
    const dead = (await admin('GET', '/api/admin/jobs/dead')).json().jobs;
    expect(dead.map((job: { id: number }) => job.id)).toContain(jobId);
    expect((await admin('POST', `/api/admin/jobs/${jobId}/retry`)).statusCode).toBe(200);
    await t.app.jobRunner!.drain();
    expect((await drafts(order.orderId)).filter((d) => d.status === 'draft')).toHaveLength(3);
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/jobs/dead' })).statusCode).toBe(401);
  });
});
