// The external generator through the real start path (settings -> app -> job -> provider -> drafts), against
// local stand-ins of Replicate's HTTP API (driven by the official client) and of a Cog container's HTTP API,
// whose outputs are real photographs.
import { and, asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { DatabaseHandle } from '../../db/client.js';
import { generatedImages, jobs, orderUploads, orders } from '../../db/schema.js';
import { startCogStandIn, type CogStandIn } from '../../generator/cog-stand-in.js';
import { startReplicateStandIn, type ReplicateStandIn } from '../../generator/replicate-stand-in.js';
import type { WebhookDelivery } from '../../generator/stand-in-outputs.js';
import { signWebhook, webhookToken } from '../../generator/webhook-signature.js';
import { buildTestApp, type TestApp } from '../../test/app.js';
import { testDatabases } from '../../test/databases.js';
import { signInStaff, type StaffClient } from '../../test/staff.js';
import { payOrder, placeOrder, setOrder } from '../../test/seed.js';
import { GENERATOR_QUEUE, GENERATOR_WEBHOOK_PATH } from './generator-service.js';

// Outfits are offered only when the generator is the default way (capabilities): these orders keep their own clothes.
const PRO = { gender: 'male', style: 'professional', package: 'pro', location: 'office', outfit: null, extras: [] };
const BASIC = { ...PRO, package: 'basic', location: null, outfit: null };
const PULID_VERSION = 'a'.repeat(64);
const COG_SECRET = 'cog-webhook-secret-0123456789abcdef';

/** The stand-in's webhook calls go straight into the app under test (it does not listen on a port). */
const into =
  (app: FastifyInstance): WebhookDelivery =>
  async (url, headers, body) => {
    const target = new URL(url);
    return (await app.inject({ method: 'POST', url: `${target.pathname}${target.search}`, headers, payload: body })).statusCode;
  };

async function until<T>(probe: () => Promise<T | undefined | null | false>, what: string): Promise<T> {
  for (let i = 0; i < 400; i++) {
    const value = await probe();
    if (value) return value;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe.each(testDatabases())('external generator on $name', (testDb) => {
  let db: DatabaseHandle;
  beforeAll(async () => {
    db = await testDb.open();
  });
  afterAll(async () => {
    await db.close();
  });

  const external = (orderId: string) => db.db.select().from(generatedImages).where(and(eq(generatedImages.orderId, orderId), eq(generatedImages.generationType, 'external')));
  const progressOf = async (t: TestApp, jobId: number) => (await t.app.jobs.find(jobId))!.progress as { predictionId?: string; call?: number } | null;
  const rerun = async (t: TestApp, jobId: number) => {
    await db.db.update(jobs).set({ runAt: new Date() }).where(eq(jobs.id, jobId));
    await t.app.jobRunner!.drain();
  };

  describe('Replicate (official client against a stand-in of its API), model zsxkib/pulid', () => {
    let t: TestApp;
    let stand: ReplicateStandIn;
    let staff: StaffClient;
    const admin = (url: string, payload: object = {}) => staff.request('POST', url, payload);
    const chooseGenerator = async (selection: object) => {
      const order = await placeOrder(t.app, { selection });
      await payOrder(t.app, order);
      const chosen = await admin(`/api/admin/orders/${order.orderId}/studio/mode`, { mode: 'generator' });
      expect(chosen.statusCode).toBe(200);
      return { order, jobId: chosen.json().jobId as number };
    };
    const predictionsFor = (orderId: string) => [...stand.predictions.values()].filter((p) => String(p.input.main_face_image).includes(orderId));

    beforeAll(async () => {
      stand = await startReplicateStandIn();
      t = await buildTestApp(
        db,
        {
          CAMPAIGN_PERCENT: '0',
          GENERATOR: 'replicate',
          REPLICATE_API_TOKEN: stand.token,
          REPLICATE_API_URL: stand.baseUrl,
          GENERATOR_MODEL: `zsxkib/pulid:${PULID_VERSION}`,
          GENERATOR_WEBHOOK_SECRET: stand.webhookSecret,
          GENERATOR_NAME: 'Acme Headshots Inc.',
        },
        { generatorPollMs: 20 },
      );
      stand.deliver = into(t.app);
      staff = await signInStaff(t.app, '10.81.0.1');
    });
    afterAll(async () => {
      await t.close();
      await stand.stop();
    });

    test('ten pictures from a model that makes at most eight per call: two predictions with the model\'s own input names, outputs copied at once as drafts', async () => {
      stand.behaviour = { ...stand.behaviour, output: 'same-person', delayMs: 30 };
      const { order, jobId } = await chooseGenerator(PRO);
      expect((await t.app.jobs.find(jobId))!.queue).toBe(GENERATOR_QUEUE);
      await t.app.jobRunner!.drain();

      const made = predictionsFor(order.orderId);
      expect(made.map((p) => p.input.num_samples)).toEqual([8, 2]);
      const [first] = made;
      expect(first!.version).toBe(PULID_VERSION);
      expect(first!.input.main_face_image).toMatch(/^http:\/\/shop\.test\/files\/uploads\/.+\?exp=\d+&sig=/);
      expect(first!.input.auxiliary_face_image1).toMatch(/^http:\/\/shop\.test\/files\/uploads\//);
      expect(first!.input.auxiliary_face_image2).toMatch(/^http:\/\/shop\.test\/files\/uploads\//);
      expect(first!.input.auxiliary_face_image3).toBeUndefined();
      expect(first!.input.prompt).toContain('a modern office');
      expect(first!.input.negative_prompt).toContain('deformed face');
      expect(first!.input.image_width).toBeLessThan(first!.input.image_height as number);
      expect(made[1]!.input.seed).toBe((first!.input.seed as number) + 1);
      expect(first!.webhook).toBe(`http://shop.test${GENERATOR_WEBHOOK_PATH}`);
      expect(first!.events).toEqual(['completed']);
      // Replicate has no delete (it removes an API prediction's files after an hour); nothing was canceled.
      expect(made.every((p) => !p.canceled && p.status === 'succeeded')).toBe(true);
      expect(new Set(stand.fetched).size).toBe(10);

      const images = await external(order.orderId);
      expect(images).toHaveLength(10);
      expect(images.every((image) => image.status === 'draft')).toBe(true);
      const stored = await t.app.storage.getBuffer(images[0]!.storageKey);
      const meta = await sharp(stored).metadata();
      expect(meta.density).toBe(300);
      expect(meta.xmp!.toString()).toContain('digitalsourcetype/trainedAlgorithmicMedia');
      // The photo of the man, re-encoded: same size as the fixture frame.
      expect([meta.width, meta.height]).toEqual([720, 576]);
      expect((await db.db.select().from(orders).where(eq(orders.id, order.orderId)))[0]!.status).toBe('in_progress');
      expect(await t.app.jobs.find(jobId)).toMatchObject({ status: 'done', progress: { status: 'succeeded', done: 10, total: 10 } });
      expect((await t.app.inject({ method: 'GET', url: '/datenschutz' })).body).toContain('einem externen KI-Dienst erstellen: Acme Headshots Inc.');
    });

    test('a signed webhook stores the outputs as soon as they exist; a forged or replayed one changes nothing', async () => {
      stand.behaviour = { ...stand.behaviour, delayMs: 600_000 };
      const { order, jobId } = await chooseGenerator(BASIC);
      const running = t.app.jobRunner!.drain();
      const predictionId = (await until(async () => (await progressOf(t, jobId))?.predictionId, 'the prediction'))!;
      const body = JSON.stringify({ id: predictionId, status: 'succeeded' });
      const ts = Math.floor(Date.now() / 1000);
      const post = (headers: Record<string, string>) => t.app.inject({ method: 'POST', url: GENERATOR_WEBHOOK_PATH, headers: { 'content-type': 'application/json', ...headers }, payload: body });
      expect((await post({ 'webhook-id': 'msg_a', 'webhook-timestamp': String(ts), 'webhook-signature': 'v1,bm9wZQ==' })).statusCode).toBe(400);
      const old = ts - 600;
      expect((await post({ 'webhook-id': 'msg_b', 'webhook-timestamp': String(old), 'webhook-signature': signWebhook(stand.webhookSecret, 'msg_b', old, body) })).statusCode).toBe(400);
      expect(await external(order.orderId)).toEqual([]);
      // The model finishes: Replicate's signed webhook arrives before the job's next look.
      await stand.finish(predictionId);
      expect(stand.predictions.get(predictionId)!.webhooksSent).toBe(1);
      expect(await external(order.orderId)).toHaveLength(3);
      await running;
      expect(await external(order.orderId)).toHaveLength(3);
      expect(await t.app.jobs.find(jobId)).toMatchObject({ status: 'done' });
    });

    test('staff choose another way while the model runs: the prediction is canceled at Replicate, nothing is stored', async () => {
      stand.behaviour = { ...stand.behaviour, delayMs: 600_000 };
      const { order, jobId } = await chooseGenerator(BASIC);
      const running = t.app.jobRunner!.drain();
      const predictionId = (await until(async () => (await progressOf(t, jobId))?.predictionId, 'the prediction'))!;
      expect((await admin(`/api/admin/orders/${order.orderId}/studio/mode`, { mode: 'manual' })).statusCode).toBe(200);
      await running;
      expect(stand.predictions.get(predictionId)).toMatchObject({ canceled: true, status: 'canceled' });
      expect(await external(order.orderId)).toEqual([]);
    });

    test.each([
      ['bytes that are not an image', { output: 'not-an-image' as const }, 'is not an image we can use'],
      ['one image where the model declares a list (wrong profile)', { shape: 'single' as const }, 'the model answered a string'],
      ['no images', { empty: true }, 'the model answered no images'],
      ['text instead of images', { text: 'a portrait of a man in a suit' }, 'the model answered a string (a portrait'],
    ])('a model that answers %s: a clear error for staff, no drafts', async (_what, behaviour, message) => {
      stand.behaviour = { ...stand.behaviour, output: 'same-person', shape: 'list', text: null, empty: false, delayMs: 20, ...behaviour };
      const { order, jobId } = await chooseGenerator(BASIC);
      await t.app.jobRunner!.drain();
      stand.behaviour = { ...stand.behaviour, output: 'same-person', shape: 'list', text: null, empty: false };
      expect((await t.app.jobs.find(jobId))!.lastError).toContain(message);
      expect(await external(order.orderId)).toEqual([]);
    });

    test('the best face photo goes first: clean photos before those with warnings', async () => {
      stand.behaviour = { ...stand.behaviour, delayMs: 20 };
      const order = await placeOrder(t.app, { selection: BASIC });
      await payOrder(t.app, order);
      const uploads = await db.db.select().from(orderUploads).where(eq(orderUploads.orderId, order.orderId)).orderBy(asc(orderUploads.uploadOrder));
      expect(uploads.length).toBeGreaterThanOrEqual(2);
      await db.db.update(orderUploads).set({ quality: { verdict: 'warning', issues: [{ code: 'blurred' }, { code: 'tooDark' }] } }).where(eq(orderUploads.id, uploads[0]!.id));
      await db.db.update(orderUploads).set({ quality: { verdict: 'ok', issues: [] } }).where(eq(orderUploads.id, uploads[1]!.id));
      await admin(`/api/admin/orders/${order.orderId}/studio/mode`, { mode: 'generator' });
      await t.app.jobRunner!.drain();
      const [prediction] = predictionsFor(order.orderId);
      expect(prediction!.input.main_face_image).toContain(uploads[1]!.storageKey);
      expect(Object.values(prediction!.input).filter((v) => typeof v === 'string' && v.includes(uploads[0]!.storageKey))).toHaveLength(1);
      expect(prediction!.input.main_face_image).not.toContain(uploads[0]!.storageKey);
    });

    test('an order whose photos were deleted meanwhile is never sent', async () => {
      stand.behaviour = { ...stand.behaviour, delayMs: 20 };
      const order = await placeOrder(t.app, { selection: BASIC });
      await payOrder(t.app, order);
      await setOrder(t.app, order.orderId, { photosDeletedAt: new Date() });
      await admin(`/api/admin/orders/${order.orderId}/studio/mode`, { mode: 'generator' });
      await t.app.jobRunner!.drain();
      expect(predictionsFor(order.orderId)).toEqual([]);
    });

    test('a failed prediction is tried again with a new one, after the backoff', async () => {
      stand.behaviour = { ...stand.behaviour, delayMs: 20, fail: 'CUDA out of memory' };
      const { order, jobId } = await chooseGenerator(BASIC);
      await t.app.jobRunner!.drain();
      stand.behaviour = { ...stand.behaviour, fail: null };
      const afterFailure = await t.app.jobs.find(jobId);
      expect(afterFailure).toMatchObject({ status: 'pending', attempts: 1 });
      expect(afterFailure!.lastError).toContain('CUDA out of memory');
      await rerun(t, jobId);
      expect(await t.app.jobs.find(jobId)).toMatchObject({ status: 'done' });
      expect(await external(order.orderId)).toHaveLength(3);
      expect(predictionsFor(order.orderId).map((p) => p.status)).toEqual(['failed', 'succeeded']);
    });

    test("Replicate refuses our token: the job is dead after its attempts, with Replicate's answer for staff", async () => {
      const realToken = stand.token;
      stand.token = 'r8_rotated';
      const { jobId } = await chooseGenerator(BASIC);
      for (let attempt = 0; attempt < 3; attempt++) await rerun(t, jobId);
      stand.token = realToken;
      const dead = await t.app.jobs.find(jobId);
      expect(dead!.status).toBe('dead');
      expect(dead!.lastError).toContain('Replicate answered 401');
    });
  });

  describe('a Cog container (stand-in of its HTTP API) running zsxkib/instant-id', () => {
    let t: TestApp;
    let stand: CogStandIn;
    let staff: StaffClient;
    const admin = (url: string, payload: object = {}) => staff.request('POST', url, payload);
    const chooseGenerator = async (selection: object) => {
      const order = await placeOrder(t.app, { selection });
      await payOrder(t.app, order);
      const chosen = await admin(`/api/admin/orders/${order.orderId}/studio/mode`, { mode: 'generator' });
      expect(chosen.statusCode).toBe(200);
      return { order, jobId: chosen.json().jobId as number };
    };
    const predictionsFor = (orderId: string) => [...stand.predictions.values()].filter((p) => String(p.input.image).includes(orderId));

    beforeAll(async () => {
      // InstantID's predictor: `image` required, one image (Path) per call.
      stand = await startCogStandIn({ required: ['image', 'prompt'], behaviour: { shape: 'single' } });
      t = await buildTestApp(db, { CAMPAIGN_PERCENT: '0', GENERATOR: 'cog', COG_URL: stand.baseUrl, GENERATOR_MODEL: 'zsxkib/instant-id', GENERATOR_WEBHOOK_SECRET: COG_SECRET }, { generatorPollMs: 20, generatorRecheckMs: 150 });
      stand.deliver = into(t.app);
      staff = await signInStaff(t.app, '10.81.0.2');
    });
    afterAll(async () => {
      await t.close();
      await stand.stop();
    });

    test('one picture per call: three idempotent PUTs with our ids, results only by the webhook, data: URIs stored as drafts', async () => {
      stand.behaviour = { ...stand.behaviour, output: 'same-person', delayMs: 30 };
      const { order, jobId } = await chooseGenerator(BASIC);
      await t.app.jobRunner!.drain();
      const made = predictionsFor(order.orderId);
      expect(made).toHaveLength(3);
      for (const p of made) {
        expect(p.id).toMatch(/^[a-z2-7]{26}$/);
        expect(p.webhook).toBe(`http://shop.test${GENERATOR_WEBHOOK_PATH}?prediction=${p.id}&token=${webhookToken(COG_SECRET, p.id)}`);
        expect(p.events).toEqual(['completed']);
        expect(Object.keys(p.input).sort()).toEqual(['height', 'image', 'negative_prompt', 'prompt', 'width']);
        expect(p).toMatchObject({ status: 'succeeded', runs: 1 });
      }
      const images = await external(order.orderId);
      expect(images).toHaveLength(3);
      expect(await t.app.jobs.find(jobId)).toMatchObject({ status: 'done', progress: { status: 'succeeded', done: 3, total: 3 } });
    });

    test('a webhook without the token of its prediction is refused', async () => {
      const body = JSON.stringify({ id: 'abc', status: 'succeeded', output: 'data:image/png;base64,AAAA' });
      const post = (query: string) => t.app.inject({ method: 'POST', url: `${GENERATOR_WEBHOOK_PATH}${query}`, headers: { 'content-type': 'application/json' }, payload: body });
      expect((await post('')).statusCode).toBe(400);
      expect((await post(`?prediction=abc&token=${webhookToken('another-secret-0123456789abcdefghij', 'abc')}`)).statusCode).toBe(400);
      // A valid token for another prediction does not vouch for this body.
      expect((await post(`?prediction=xyz&token=${webhookToken(COG_SECRET, 'xyz')}`)).statusCode).toBe(400);
      expect((await post(`?prediction=abc&token=${webhookToken(COG_SECRET, 'abc')}`)).statusCode).toBe(204);
    });

    test('a lost webhook: the repeated idempotent PUT finds the prediction gone and starts it again, whose webhook brings the result', async () => {
      stand.behaviour = { ...stand.behaviour, delayMs: 30 };
      const delivered = stand.deliver;
      let dropped = 0;
      stand.deliver = async () => {
        dropped++;
        stand.deliver = delivered;
        return 0;
      };
      const { order, jobId } = await chooseGenerator({ ...BASIC });
      await t.app.jobRunner!.drain();
      expect(dropped).toBe(1);
      const made = predictionsFor(order.orderId);
      expect(made).toHaveLength(3);
      expect(made[0]).toMatchObject({ runs: 2, status: 'succeeded' });
      expect(await external(order.orderId)).toHaveLength(3);
      expect(await t.app.jobs.find(jobId)).toMatchObject({ status: 'done' });
    });

    test('a repeated PUT while the prediction runs creates nothing new', async () => {
      stand.behaviour = { ...stand.behaviour, delayMs: 600_000 };
      const { order, jobId } = await chooseGenerator(BASIC);
      const running = t.app.jobRunner!.drain();
      const id = (await until(async () => (await progressOf(t, jobId))?.predictionId, 'the prediction'))!;
      const first = await until(async () => (stand.predictions.get(id)!.repeats >= 2 ? stand.predictions.get(id) : null), 'two repeated PUTs');
      expect(first).toMatchObject({ runs: 1, status: 'processing' });
      stand.behaviour = { ...stand.behaviour, delayMs: 20 };
      await stand.finish(id);
      await running;
      expect(stand.predictions.get(id)!.runs).toBe(1);
      expect(await external(order.orderId)).toHaveLength(3);
    });

    test('a failed prediction reaches staff through its webhook; outputs that are not images too', async () => {
      stand.behaviour = { ...stand.behaviour, delayMs: 20, fail: 'CUDA out of memory' };
      const failed = await chooseGenerator(BASIC);
      await t.app.jobRunner!.drain();
      expect((await t.app.jobs.find(failed.jobId))!.lastError).toContain('CUDA out of memory');

      stand.behaviour = { ...stand.behaviour, fail: null, output: 'not-an-image' };
      const garbage = await chooseGenerator(BASIC);
      await t.app.jobRunner!.drain();
      stand.behaviour = { ...stand.behaviour, output: 'same-person' };
      expect((await t.app.jobs.find(garbage.jobId))!.lastError).toContain('is not an image we can use');
      expect(await external(garbage.order.orderId)).toEqual([]);
    });

    test('a container started with --upload-url answers with file URLs', async () => {
      stand.behaviour = { ...stand.behaviour, delayMs: 20, output: 'other-person' };
      stand.files = 'url';
      const { order } = await chooseGenerator(BASIC);
      await t.app.jobRunner!.drain();
      stand.files = 'data-uri';
      stand.behaviour = { ...stand.behaviour, output: 'same-person' };
      const images = await external(order.orderId);
      expect(images).toHaveLength(3);
      // Grace Hopper's portrait (512×600) and Eileen Collins' (512×512), re-encoded.
      const sizes = await Promise.all(images.map(async (image) => (await sharp(await t.app.storage.getBuffer(image.storageKey)).metadata()).height));
      expect(new Set(sizes)).toEqual(new Set([512, 600]));
    });
  });

  test('without a configured generator the mode is refused with a clear code', async () => {
    const plain = await buildTestApp(db, {}, {});
    await plain.app.auth.createStaff({ email: 'plain@example.de', password: 'ein-langes-passwort-5', name: 'Plain' });
    const login = await plain.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'plain@example.de', password: 'ein-langes-passwort-5' }, remoteAddress: '10.81.0.3' });
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
