// The external generator against a local stand-in of a Replicate-style prediction API.
import { readFile } from 'node:fs/promises';
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { DatabaseHandle } from '../../db/client.js';
import { generatedImages, jobs, orders } from '../../db/schema.js';
import { startTestGeneratorServer, type TestGeneratorServer } from '../../generator/test-generator-server.js';
import { signWebhook, verifyWebhook } from '../../generator/webhook-signature.js';
import { buildTestApp, type TestApp } from '../../test/app.js';
import { testDatabases } from '../../test/databases.js';
import { signInStaff, type StaffClient } from '../../test/staff.js';
import { PORTRAIT } from '../../test/images.js';
import { payOrder, placeOrder, setOrder } from '../../test/seed.js';
import { GENERATOR_QUEUE, GENERATOR_WEBHOOK_PATH } from './generator-service.js';

const SECRET = `whsec_${Buffer.from('generator-webhook-secret-0123456789').toString('base64')}`;
const PRO = { gender: 'male', style: 'professional', package: 'pro', location: 'office', outfit: 'business', extras: [] };

test('webhook signatures: Standard Webhooks format, checked against the secret and the clock', () => {
  const now = new Date('2026-11-23T10:00:00Z');
  const ts = Math.floor(now.getTime() / 1000);
  const signature = signWebhook(SECRET, 'msg_1', ts, '{"id":"p"}');
  expect(verifyWebhook(SECRET, { id: 'msg_1', timestamp: String(ts), signature }, '{"id":"p"}', now)).toBe(true);
  expect(verifyWebhook(SECRET, { id: 'msg_1', timestamp: String(ts), signature: `v1,x ${signature}` }, '{"id":"p"}', now)).toBe(true);
  expect(verifyWebhook(SECRET, { id: 'msg_1', timestamp: String(ts), signature }, '{"id":"q"}', now)).toBe(false);
  expect(verifyWebhook(SECRET, { id: 'msg_2', timestamp: String(ts), signature }, '{"id":"p"}', now)).toBe(false);
  expect(verifyWebhook(SECRET, { id: 'msg_1', timestamp: String(ts - 600), signature: signWebhook(SECRET, 'msg_1', ts - 600, '{"id":"p"}') }, '{"id":"p"}', now)).toBe(false);
});

describe.each(testDatabases())('external generator on $name', (testDb) => {
  let db: DatabaseHandle;
  let t: TestApp;
  let stand: TestGeneratorServer;
  let staff: StaffClient;

  beforeAll(async () => {
    db = await testDb.open();
    stand = await startTestGeneratorServer(await readFile(PORTRAIT));
    t = await buildTestApp(
      db,
      { CAMPAIGN_PERCENT: '0', GENERATOR_URL: stand.baseUrl, GENERATOR_TOKEN: stand.token, GENERATOR_MODEL: 'acme/headshots:1234', GENERATOR_WEBHOOK_SECRET: SECRET, GENERATOR_NAME: 'Acme Headshots Inc.' },
      { generatorPollMs: 20 },
    );
    staff = await signInStaff(t.app, '10.81.0.1');
  });
  afterAll(async () => {
    await t.close();
    await db.close();
    await stand.stop();
  });

  const admin = (url: string, payload: object = {}) => staff.request('POST', url, payload);
  const external = (orderId: string) => db.db.select().from(generatedImages).where(and(eq(generatedImages.orderId, orderId), eq(generatedImages.generationType, 'external')));

  test('staff choose the generator: photos go out as short-lived links, outputs come back at once as drafts, the prediction is deleted', async () => {
    const order = await placeOrder(t.app, { selection: PRO });
    await payOrder(t.app, order);
    const chosen = await admin(`/api/admin/orders/${order.orderId}/studio/mode`, { mode: 'generator' });
    expect(chosen.statusCode).toBe(200);
    const jobId = chosen.json().jobId as number;
    expect((await t.app.jobs.find(jobId))!.queue).toBe(GENERATOR_QUEUE);
    await t.app.jobRunner!.drain();

    const [prediction] = [...stand.predictions.values()];
    expect(prediction!.input.num_outputs).toBe(10);
    expect(prediction!.input.prompt).toContain('suit, blazer or business dress');
    expect(prediction!.input.input_images).toHaveLength(3);
    expect(prediction!.input.input_images[0]).toMatch(/^http:\/\/shop\.test\/files\/uploads\/.+\?exp=\d+&sig=/);
    expect(prediction!.webhook).toBe(`http://shop.test${GENERATOR_WEBHOOK_PATH}`);
    expect(prediction!.deleted).toBe(true);
    expect(stand.fetched).toHaveLength(10);

    const made = await external(order.orderId);
    expect(made).toHaveLength(10);
    expect(made.every((image) => image.status === 'draft')).toBe(true);
    const meta = await sharp(await t.app.storage.getBuffer(made[0]!.storageKey)).metadata();
    expect(meta.density).toBe(300);
    expect(meta.xmp!.toString()).toContain('digitalsourcetype/trainedAlgorithmicMedia');
    expect((await db.db.select().from(orders).where(eq(orders.id, order.orderId)))[0]!.status).toBe('in_progress');
    expect(await t.app.jobs.find(jobId)).toMatchObject({ status: 'done', progress: { status: 'succeeded', done: 10, total: 10 } });
    // The privacy policy names the service once it is configured.
    expect((await t.app.inject({ method: 'GET', url: '/datenschutz' })).body).toContain('einem externen KI-Dienst erstellen: Acme Headshots Inc.');
  });

  test('a signed webhook stores the outputs as soon as they exist; a forged one changes nothing; the job then adds nothing', async () => {
    const order = await placeOrder(t.app, { selection: { ...PRO, package: 'basic', location: null, outfit: null } });
    await payOrder(t.app, order);
    stand.readsToFinish = 1_000_000;
    const jobId = (await admin(`/api/admin/orders/${order.orderId}/studio/mode`, { mode: 'generator' })).json().jobId as number;
    // Run the job until it has created its prediction, then let it wait (lease taken over later).
    const running = t.app.jobRunner!.drain();
    let predictionId: string | undefined;
    for (let i = 0; i < 200 && !predictionId; i++) {
      predictionId = ((await t.app.jobs.find(jobId))!.progress as { predictionId?: string } | null)?.predictionId;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(predictionId).toBeDefined();
    const body = JSON.stringify({ id: predictionId, status: 'succeeded' });
    const ts = Math.floor(Date.now() / 1000);
    const forged = await t.app.inject({ method: 'POST', url: GENERATOR_WEBHOOK_PATH, headers: { 'content-type': 'application/json', 'webhook-id': 'msg_a', 'webhook-timestamp': String(ts), 'webhook-signature': 'v1,bm9wZQ==' }, payload: body });
    expect(forged.statusCode).toBe(400);
    // The provider finishes; its webhook arrives before the job's next look.
    stand.predictions.get(predictionId!)!.status = 'succeeded';
    const hook = await t.app.inject({ method: 'POST', url: GENERATOR_WEBHOOK_PATH, headers: { 'content-type': 'application/json', 'webhook-id': 'msg_b', 'webhook-timestamp': String(ts), 'webhook-signature': signWebhook(SECRET, 'msg_b', ts, body) }, payload: body });
    expect(hook.statusCode).toBe(204);
    expect(await external(order.orderId)).toHaveLength(3);
    await running;
    stand.readsToFinish = 2;
    expect(await external(order.orderId)).toHaveLength(3);
    expect(stand.predictions.get(predictionId!)!.deleted).toBe(true);
  });

  test('an output that is not a photo is refused by the upload checks; an order without photos is never sent', async () => {
    const order = await placeOrder(t.app, { selection: { ...PRO, package: 'basic', location: null, outfit: null } });
    await payOrder(t.app, order);
    stand.outputFile = { body: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), contentType: 'image/png' };
    const jobId = (await admin(`/api/admin/orders/${order.orderId}/studio/mode`, { mode: 'generator' })).json().jobId as number;
    await t.app.jobRunner!.drain();
    stand.outputFile = null;
    expect((await t.app.jobs.find(jobId))!.lastError).toContain('is not an image we can use');
    expect(await external(order.orderId)).toEqual([]);

    // Photos deleted meanwhile: nothing goes to the provider (it would picture a stranger from the prompt).
    const before = stand.predictions.size;
    await setOrder(t.app, order.orderId, { photosDeletedAt: new Date() });
    await db.db.update(jobs).set({ runAt: new Date(), status: 'pending' }).where(eq(jobs.id, jobId));
    await db.db.update(jobs).set({ progress: null }).where(eq(jobs.id, jobId));
    await t.app.jobRunner!.drain();
    expect(stand.predictions.size).toBe(before);
    expect(await external(order.orderId)).toEqual([]);
  });

  test('a failed prediction is tried again with a new one, after the backoff', async () => {
    const order = await placeOrder(t.app, { selection: { ...PRO, package: 'basic', location: null, outfit: null } });
    await payOrder(t.app, order);
    stand.failNext = true;
    const jobId = (await admin(`/api/admin/orders/${order.orderId}/studio/mode`, { mode: 'generator' })).json().jobId as number;
    await t.app.jobRunner!.drain();
    const afterFailure = await t.app.jobs.find(jobId);
    expect(afterFailure).toMatchObject({ status: 'pending', attempts: 1 });
    expect(afterFailure!.lastError).toContain('the model ran out of memory');
    await db.db.update(jobs).set({ runAt: new Date() }).where(eq(jobs.id, jobId));
    await t.app.jobRunner!.drain();
    expect(await t.app.jobs.find(jobId)).toMatchObject({ status: 'done' });
    expect(await external(order.orderId)).toHaveLength(3);
    expect([...stand.predictions.values()].filter((p) => p.input.input_images[0]!.includes(order.orderId))).toHaveLength(2);
  });

  test('a provider that refuses our token: the job is dead after its attempts, with the provider\'s answer for staff', async () => {
    const order = await placeOrder(t.app, { selection: { ...PRO, package: 'basic', location: null, outfit: null } });
    await payOrder(t.app, order);
    const realToken = stand.token;
    stand.token = 'rotated';
    const jobId = (await admin(`/api/admin/orders/${order.orderId}/studio/mode`, { mode: 'generator' })).json().jobId as number;
    for (let attempt = 0; attempt < 3; attempt++) {
      await db.db.update(jobs).set({ runAt: new Date() }).where(eq(jobs.id, jobId));
      await t.app.jobRunner!.drain();
    }
    stand.token = realToken;
    const dead = await t.app.jobs.find(jobId);
    expect(dead!.status).toBe('dead');
    expect(dead!.lastError).toContain('401');
  });

  test('without a configured generator the mode is refused with a clear code', async () => {
    const plain = await buildTestApp(db, {}, {});
    await plain.app.auth.createStaff({ email: 'plain@example.de', password: 'ein-langes-passwort-5', name: 'Plain' });
    const login = await plain.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'plain@example.de', password: 'ein-langes-passwort-5' }, remoteAddress: '10.81.0.2' });
    const order = await placeOrder(plain.app);
    await payOrder(plain.app, order);
    const response = await plain.app.inject({
      method: 'POST',
      url: `/api/admin/orders/${order.orderId}/studio/mode`,
      payload: { mode: 'generator' },
      headers: { cookie: String(login.headers['set-cookie']).split(';')[0]!, 'x-csrf-token': login.json().csrfToken },
    });
    expect(response.json().error.code).toBe('generatorNotConfigured');
    expect((await plain.app.inject({ method: 'POST', url: GENERATOR_WEBHOOK_PATH, payload: {} })).statusCode).toBe(404);
    await plain.close();
  });
});
