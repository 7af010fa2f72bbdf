// The external generator through the real start path (settings -> app -> job -> provider -> drafts), against
// local stand-ins of Replicate's HTTP API (driven by the official client) and of a Cog container's HTTP API,
// whose outputs are real photographs.
import { and, asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { DatabaseHandle } from '../../db/client.js';
import { generatedImages, jobs, orderUploads, orders, outgoingMail } from '../../db/schema.js';
import { startCogStandIn, type CogStandIn } from '../../test/generator/cog-stand-in.js';
import { FLUX_PULID, INSTANT_ID, PULID } from '../../test/generator/published-models.js';
import { startReplicateStandIn, type ReplicateStandIn } from '../../test/generator/replicate-stand-in.js';
import type { UploadDelivery, WebhookDelivery } from '../../test/generator/stand-in-outputs.js';
import { signWebhook, webhookToken } from '../../generator/webhook-signature.js';
import { buildTestApp, type TestApp } from '../../test/app.js';
import { testDatabases } from '../../test/databases.js';
import { signInStaff, type StaffClient } from '../../test/staff.js';
import { franckJpeg } from '../../../testing/images.js';
import { payOrder, placeOrder, qualityWith, setOrder } from '../../test/seed.js';
import { BACKGROUND_CATALOGUE } from '../../../studio/prompts.js';
import { storageIntents } from '../../db/schema.js';
import { cogUploadUrl, GENERATOR_UPLOAD_PATH } from '../../generator/upload-address.js';
import { GENERATOR_QUEUE, GENERATOR_WEBHOOK_PATH, MAX_ATTEMPTS_PER_PICTURE } from './generator-service.js';

// Outfits and an office are offered only when the generator is the default way (capabilities): these orders keep
// their own clothes and choose a creative backdrop.
const PRO = { gender: 'male', style: 'professional', package: 'pro', location: 'creative', outfit: null, extras: [] };
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

/** The stand-in's uploads (Cog's --upload-url) go straight into the app under test too. */
const uploadInto =
  (app: FastifyInstance): UploadDelivery =>
  async (url, headers, body) => {
    const answer = await app.inject({ method: 'PUT', url: new URL(url).pathname, headers, payload: body });
    return { status: answer.statusCode, location: typeof answer.headers.location === 'string' ? answer.headers.location : null };
  };

// Waits by the clock, not by a count of looks: on a busy machine each look takes longer.
async function until<T>(probe: () => Promise<T | undefined | null | false>, what: string): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
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
  const progressOf = async (t: TestApp, jobId: number) => (await t.app.jobs.find(jobId))!.progress as { predictionId?: string; picture?: number } | null;
  /** Three drafts (4:5, 1:1, 35 × 45 mm) per picture that passed the gate. */
  const pictures = async (orderId: string) => new Set((await external(orderId)).map((image) => image.generationKey!.split(':').slice(0, 3).join(':'))).size;
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
      // The customer: one man, in three of his photos; the stand-ins answer with other photos of him.
      const order = await placeOrder(t.app, { selection, photo: franckJpeg });
      await payOrder(t.app, order);
      const chosen = await admin(`/api/admin/orders/${order.orderId}/studio/mode`, { mode: 'generator' });
      expect(chosen.statusCode).toBe(200);
      return { order, jobId: chosen.json().jobId as number };
    };
    const predictionsFor = (orderId: string) => [...stand.predictions.values()].filter((p) => String(p.input.main_face_image).includes(orderId));

    beforeAll(async () => {
      // PuLID's published predictor (published-models.ts): `main_face_image` required, a list of `num_samples` images.
      stand = await startReplicateStandIn({ model: PULID });
      // The version GENERATOR_MODEL pins is the one the stand-in publishes (its schema is read by the self-check).
      stand.versionId = PULID_VERSION;
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

    test('ten pictures, one prediction each with its own outfit, background and seed in the model\'s own input names; each checked against the customer\'s face and stored in three formats', async () => {
      stand.behaviour = { ...stand.behaviour, output: 'same-person', delayMs: 30 };
      const { order, jobId } = await chooseGenerator(PRO);
      expect((await t.app.jobs.find(jobId))!.queue).toBe(GENERATOR_QUEUE);
      await t.app.jobRunner!.drain();

      const made = predictionsFor(order.orderId);
      expect(made).toHaveLength(10);
      expect(made.every((p) => p.input.num_samples === 1)).toBe(true);
      const [first] = made;
      expect(first!.version).toBe(PULID_VERSION);
      expect(first!.input.main_face_image).toMatch(/^http:\/\/shop\.test\/files\/uploads\/.+\?exp=\d+&sig=/);
      expect(first!.input.auxiliary_face_image1).toMatch(/^http:\/\/shop\.test\/files\/uploads\//);
      expect(first!.input.auxiliary_face_image2).toMatch(/^http:\/\/shop\.test\/files\/uploads\//);
      expect(first!.input.auxiliary_face_image3).toBeUndefined();
      expect(BACKGROUND_CATALOGUE.creative.some((background) => String(first!.input.prompt).includes(background))).toBe(true);
      expect(first!.input.prompt).toContain('man from the reference photos');
      expect(first!.input.negative_prompt).toContain('different person');
      expect(first!.input.image_width).toBeLessThan(first!.input.image_height as number);
      // Pro: three outfits and three backgrounds spread over the pictures; every picture its own seed.
      expect(new Set(made.map((p) => p.input.prompt)).size).toBe(9);
      expect(new Set(made.map((p) => p.input.seed)).size).toBe(10);
      expect(first!.webhook).toBe(`http://shop.test${GENERATOR_WEBHOOK_PATH}`);
      expect(first!.events).toEqual(['completed']);
      // Replicate has no delete (it removes an API prediction's files after an hour); nothing was canceled.
      expect(made.every((p) => !p.canceled && p.status === 'succeeded')).toBe(true);

      const images = await external(order.orderId);
      expect(images).toHaveLength(30);
      expect(await pictures(order.orderId)).toBe(10);
      expect(images.every((image) => image.status === 'draft')).toBe(true);
      expect(images.map((image) => `${image.width}x${image.height}`).filter((size) => size === '413x531')).toHaveLength(10);
      for (const image of images) {
        const variant = image.variant as { identity: { distance: number; limit: number }; format: string; outfit: { description: string } };
        expect(variant.identity.distance).toBeLessThan(variant.identity.limit);
        expect(['portrait', 'square', 'application']).toContain(variant.format);
        expect(variant.outfit.description.length).toBeGreaterThan(10);
      }
      const stored = await t.app.storage.getBuffer(images[0]!.storageKey);
      const meta = await sharp(stored).metadata();
      expect(meta.density).toBe(300);
      expect(meta.xmp!.toString()).toContain('digitalsourcetype/trainedAlgorithmicMedia');
      // The files name the shop as their maker, never the provider that ran the model (the privacy policy does).
      expect(meta.xmp!.toString()).toContain('Bewerbungsfoto Studio (generated drafts)');
      for (const image of images) expect((await t.app.storage.getBuffer(image.storageKey)).includes('Acme Headshots')).toBe(false);
      expect((await db.db.select().from(orders).where(eq(orders.id, order.orderId)))[0]!.status).toBe('in_progress');
      expect(await t.app.jobs.find(jobId)).toMatchObject({ status: 'done', progress: { status: 'succeeded', done: 10, total: 10 } });
      expect((await t.app.inject({ method: 'GET', url: '/datenschutz' })).body).toContain('einem externen KI-Dienst erstellen: Acme Headshots Inc.');
      // Staff see the drafts best first, each with its distance; the customer sees none until staff publish.
      const detail = (await staff.request('GET', `/api/admin/orders/${order.orderId}`)).json();
      const distances = detail.results.map((r: { variant: { identity: { distance: number } } }) => r.variant.identity.distance);
      expect(distances).toEqual([...distances].sort((a: number, b: number) => a - b));
      const status = await t.app.inject({ method: 'POST', url: '/api/tracking', payload: { orderId: order.orderNumber, email: order.email }, remoteAddress: '10.81.9.1' });
      expect(status.json().order.results).toEqual([]);
    });

    test("staff's self-check on Replicate: one prediction of the pinned version, polled, its picture checked against the test face", async () => {
      stand.behaviour = { ...stand.behaviour, output: 'self-check-face', delayMs: 30 };
      expect((await admin('/api/admin/generator/self-check')).statusCode).toBe(200);
      await t.app.jobRunner!.drain();
      stand.behaviour = { ...stand.behaviour, output: 'same-person' };
      const { latest } = (await staff.request('GET', '/api/admin/generator/self-check')).json();
      expect(latest.result).toMatchObject({ ok: true, kind: 'replicate', profile: 'pulid', model: `zsxkib/pulid:${PULID_VERSION}`, verdict: 'ok', cost: null });
      expect(latest.result.distance).toBeLessThan(0.5);
      // The model's own run time, as Replicate reports it (metrics.predict_time).
      expect(latest.result.predictTime).toBeGreaterThan(0);
      expect(Object.keys(latest.result.inputs)).toContain('main_face_image');
    });

    test('a picture of someone else is discarded and asked for again with a new seed; it never becomes a draft', async () => {
      stand.behaviour = { ...stand.behaviour, output: 'same-person', delayMs: 20 };
      // The model's first prediction shows Grace Hopper (whoever fetches it: the webhook or the job); every later one the customer.
      const before = stand.predictions.size;
      const behaviour = { ...stand.behaviour };
      Object.defineProperty(behaviour, 'output', { get: () => (stand.predictions.size <= before + 1 ? 'other-person' : 'same-person'), enumerable: true });
      stand.behaviour = behaviour;
      const { order, jobId } = await chooseGenerator(BASIC);
      await t.app.jobRunner!.drain();
      stand.behaviour = { ...stand.behaviour, output: 'same-person' };
      const made = predictionsFor(order.orderId);
      // Three pictures, the first asked for twice.
      expect(made).toHaveLength(4);
      expect(made[0]!.input.prompt).toBe(made[1]!.input.prompt);
      expect(made[0]!.input.seed).not.toBe(made[1]!.input.seed);
      expect(await pictures(order.orderId)).toBe(3);
      const job = await t.app.jobs.find(jobId);
      expect(job).toMatchObject({ status: 'done', progress: { done: 3, discarded: [{ picture: 0, attempt: 0, reason: 'otherPerson' }] } });
      expect((job!.progress as { discarded: { distance: number }[] }).discarded[0]!.distance).toBeGreaterThan(0.5);
      // No draft of her: every stored draft is close to the customer.
      expect((await external(order.orderId)).every((image) => (image.variant as { identity: { distance: number } }).identity.distance < 0.5)).toBe(true);
    });

    test('a model that keeps answering with someone else: each picture is asked for a bounded number of times, then staff are told; never a draft', async () => {
      stand.behaviour = { ...stand.behaviour, output: 'other-person', delayMs: 20 };
      const { order, jobId } = await chooseGenerator(BASIC);
      await t.app.jobRunner!.drain();
      stand.behaviour = { ...stand.behaviour, output: 'same-person' };
      expect(predictionsFor(order.orderId)).toHaveLength(3 * MAX_ATTEMPTS_PER_PICTURE);
      expect(await external(order.orderId)).toEqual([]);
      const job = await t.app.jobs.find(jobId);
      // Ended at once for staff (asking the same model again would most likely be refused again), saying how many drafts there are.
      expect(job).toMatchObject({ status: 'dead', attempts: 1 });
      expect(job!.lastError).toContain(`3 of 3 pictures were discarded ${MAX_ATTEMPTS_PER_PICTURE} times by the gate`);
      expect(job!.lastError).toContain('No picture became a draft');
      expect(job!.progress).toMatchObject({ missing: [0, 1, 2], status: 'incomplete' });
      // The job running again on its own asks no more: the bound holds across runs.
      await rerun(t, jobId);
      expect(predictionsFor(order.orderId)).toHaveLength(3 * MAX_ATTEMPTS_PER_PICTURE);
      // Staff read each attempt's verdict: the picture, the attempt, why, how far the face was.
      const studio = (await staff.request('GET', `/api/admin/orders/${order.orderId}/studio`)).json() as { jobs: { id: number; lastError: string; progress: { discarded: { picture: number; attempt: number; reason: string; distance?: number }[]; identityLimit: number } }[] };
      const seen = studio.jobs.find((j) => j.id === jobId)!;
      expect(seen.lastError).not.toContain('    at ');
      expect(seen.progress.identityLimit).toBe(0.5);
      expect(seen.progress.discarded).toHaveLength(3 * MAX_ATTEMPTS_PER_PICTURE);
      for (const d of seen.progress.discarded) expect(d.reason === 'otherPerson' ? d.distance! > 0.5 : ['noFace', 'multipleFaces'].includes(d.reason)).toBe(true);
      // Staff's retry asks anew: new predictions, each with a seed none before had; this time the model answers him.
      const seedsBefore = new Set(predictionsFor(order.orderId).map((p) => p.input.seed));
      expect((await admin(`/api/admin/jobs/${jobId}/retry`)).statusCode).toBe(200);
      await t.app.jobRunner!.drain();
      const fresh = predictionsFor(order.orderId).slice(3 * MAX_ATTEMPTS_PER_PICTURE);
      expect(fresh).toHaveLength(3);
      for (const p of fresh) expect(seedsBefore.has(p.input.seed)).toBe(false);
      expect(await pictures(order.orderId)).toBe(3);
      expect(await t.app.jobs.find(jobId)).toMatchObject({ status: 'done' });
    });

    test('a picture without a face is discarded too', async () => {
      stand.behaviour = { ...stand.behaviour, output: 'no-face', delayMs: 20 };
      const { order, jobId } = await chooseGenerator(BASIC);
      await t.app.jobRunner!.drain();
      stand.behaviour = { ...stand.behaviour, output: 'same-person' };
      expect(await external(order.orderId)).toEqual([]);
      expect((await t.app.jobs.find(jobId))!.progress).toMatchObject({ discarded: expect.arrayContaining([expect.objectContaining({ reason: 'noFace' })]) });
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
      // The model finishes: Replicate's signed webhook arrives before the job's next look, and the picture's
      // three drafts are there at once; the other two pictures follow.
      stand.behaviour = { ...stand.behaviour, delayMs: 20 };
      await stand.finish(predictionId);
      expect(stand.predictions.get(predictionId)!.webhooksSent).toBe(1);
      expect(await external(order.orderId)).toHaveLength(3);
      await running;
      expect(await external(order.orderId)).toHaveLength(9);
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
      ['no images', { empty: true }, 'the model answered no images'],
      ['text instead of images', { text: 'a portrait of a man in a suit' }, 'the model answered a string (a portrait'],
    ])('a model that answers %s: a clear error for staff, no drafts', async (_what, behaviour, message) => {
      stand.behaviour = { ...stand.behaviour, output: 'same-person', text: null, empty: false, delayMs: 20, ...behaviour };
      const { order, jobId } = await chooseGenerator(BASIC);
      await t.app.jobRunner!.drain();
      stand.behaviour = { ...stand.behaviour, output: 'same-person', text: null, empty: false };
      expect((await t.app.jobs.find(jobId))!.lastError).toContain(message);
      expect(await external(order.orderId)).toEqual([]);
    });

    test('a model version that answers one image where the profile reads a list: read as a list of one, drafts made', async () => {
      stand.behaviour = { ...stand.behaviour, output: 'same-person', shape: 'single', text: null, empty: false, delayMs: 20 };
      const { order, jobId } = await chooseGenerator(BASIC);
      await t.app.jobRunner!.drain();
      stand.behaviour = { ...stand.behaviour, shape: undefined };
      expect(await t.app.jobs.find(jobId)).toMatchObject({ status: 'done' });
      expect(await pictures(order.orderId)).toBe(3);
    });

    test('the best face photo goes first: clean photos before those with warnings', async () => {
      stand.behaviour = { ...stand.behaviour, delayMs: 20 };
      const order = await placeOrder(t.app, { selection: BASIC, photo: franckJpeg });
      await payOrder(t.app, order);
      const uploads = await db.db.select().from(orderUploads).where(eq(orderUploads.orderId, order.orderId)).orderBy(asc(orderUploads.uploadOrder));
      expect(uploads.length).toBeGreaterThanOrEqual(2);
      const descriptor = (uploads[0]!.quality as { descriptor: number[] }).descriptor;
      await db.db.update(orderUploads).set({ quality: qualityWith({ verdict: 'warning', issues: [{ code: 'blurred' }, { code: 'tooDark' }], descriptor }) }).where(eq(orderUploads.id, uploads[0]!.id));
      await db.db.update(orderUploads).set({ quality: qualityWith({ verdict: 'ok', issues: [], descriptor }) }).where(eq(orderUploads.id, uploads[1]!.id));
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
      expect(await pictures(order.orderId)).toBe(3);
      expect(predictionsFor(order.orderId).map((p) => p.status)).toEqual(['failed', 'succeeded', 'succeeded', 'succeeded']);
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
      // The customer: one man, in three of his photos; the stand-ins answer with other photos of him.
      const order = await placeOrder(t.app, { selection, photo: franckJpeg });
      await payOrder(t.app, order);
      const chosen = await admin(`/api/admin/orders/${order.orderId}/studio/mode`, { mode: 'generator' });
      expect(chosen.statusCode).toBe(200);
      return { order, jobId: chosen.json().jobId as number };
    };
    const predictionsFor = (orderId: string) => [...stand.predictions.values()].filter((p) => String(p.input.image).includes(orderId));

    beforeAll(async () => {
      // InstantID's published predictor (published-models.ts): `image` required, a list of `num_outputs` images.
      // Started as the README says: with the shop's upload address (Cog 0.13.6 answers an asynchronous
      // prediction's files as paths inside the container without one).
      stand = await startCogStandIn({ model: INSTANT_ID, uploadUrl: cogUploadUrl('https://shop.test', COG_SECRET) });
      t = await buildTestApp(db, { CAMPAIGN_PERCENT: '0', GENERATOR: 'cog', COG_URL: stand.baseUrl, GENERATOR_MODEL: 'zsxkib/instant-id', GENERATOR_WEBHOOK_SECRET: COG_SECRET, PUBLIC_URL: 'https://shop.test' }, { generatorPollMs: 20, generatorRecheckMs: 150 });
      stand.deliver = into(t.app);
      stand.upload = uploadInto(t.app);
      staff = await signInStaff(t.app, '10.81.0.2');
    });
    afterAll(async () => {
      await t.close();
      await stand.stop();
    });

    test('at start the profile was checked against the schema the container publishes, and fits', async () => {
      expect(await t.app.generatorCheck).toEqual([]);
    });

    test("staff's self-check: one real prediction with the public-domain test face, through webhook and upload, its picture through the identity gate", async () => {
      stand.behaviour = { ...stand.behaviour, output: 'self-check-face', delayMs: 30 };
      const started = await admin('/api/admin/generator/self-check');
      expect(started.statusCode).toBe(200);
      await t.app.jobRunner!.drain();
      stand.behaviour = { ...stand.behaviour, output: 'same-person' };
      const seen = (await staff.request('GET', '/api/admin/generator/self-check')).json() as { latest: { status: string; pictureUrl: string; result: Record<string, unknown> & { inputs: Record<string, unknown>; predictionId: string } } };
      expect(seen.latest.status).toBe('done');
      expect(seen.latest.result).toMatchObject({ ok: true, problems: [], kind: 'cog', profile: 'instant-id', verdict: 'ok', limit: 0.5, cost: null });
      expect(seen.latest.result.distance).toBeLessThan(0.5);
      expect(seen.latest.result.predictTime).toBeGreaterThan(0);
      // The inputs as the model got them, the face's link without its signature.
      expect(Object.keys(seen.latest.result.inputs).sort()).toEqual(['image', 'negative_prompt', 'num_outputs', 'output_format', 'prompt', 'seed']);
      expect(String(seen.latest.result.inputs.image)).toMatch(/^https:\/\/shop\.test\/.*\?…$/);
      expect(stand.predictions.get(seen.latest.result.predictionId)).toMatchObject({ runs: 1, status: 'succeeded' });
      // The picture, for staff to look at; the upload and the face sent are gone.
      expect(seen.latest.pictureUrl).toBeTruthy();
      expect(await t.app.storage.listKeys('generator-self-check/')).toEqual([String(seen.latest.result.pictureKey)]);
      await until(async () => (await t.app.storage.listKeys('generator-uploads/')).length === 0, 'the upload removed');
    });

    test('the self-check fails loudly: a model that answers someone else, and a container started without --upload-url', async () => {
      // The order tests' man, not the test face (the stand-in's "other person" is at times the astronaut herself).
      stand.behaviour = { ...stand.behaviour, output: 'same-person', delayMs: 20 };
      await admin('/api/admin/generator/self-check');
      await t.app.jobRunner!.drain();
      const other = (await staff.request('GET', '/api/admin/generator/self-check')).json().latest.result;
      expect(other).toMatchObject({ ok: false, verdict: 'otherPerson' });
      expect(other.problems[0]).toContain('the identity gate refused the picture (otherPerson, distance');

      stand.behaviour = { ...stand.behaviour, output: 'self-check-face' };
      stand.uploadUrl = null;
      await admin('/api/admin/generator/self-check');
      await t.app.jobRunner!.drain();
      stand.uploadUrl = cogUploadUrl('https://shop.test', COG_SECRET);
      stand.behaviour = { ...stand.behaviour, output: 'same-person' };
      const noUpload = (await staff.request('GET', '/api/admin/generator/self-check')).json().latest.result;
      expect(noUpload).toMatchObject({ ok: false, pictureKey: null });
      expect(noUpload.problems[0]).toContain('uploaded no file to the shop: start it with --upload-url');
    });

    test('one picture per call in the model\'s own inputs: three idempotent PUTs with our ids, files uploaded to the shop, results by the webhook, stored as drafts', async () => {
      stand.behaviour = { ...stand.behaviour, output: 'same-person', delayMs: 30 };
      const { order, jobId } = await chooseGenerator(BASIC);
      await t.app.jobRunner!.drain();
      const made = predictionsFor(order.orderId);
      expect(made).toHaveLength(3);
      for (const p of made) {
        expect(p.id).toMatch(/^[a-z2-7]{26}$/);
        expect(p.webhook).toBe(`https://shop.test${GENERATOR_WEBHOOK_PATH}?prediction=${p.id}&token=${webhookToken(COG_SECRET, p.id)}`);
        expect(p.events).toEqual(['completed']);
        // Only inputs the model has (it would drop others without a word), each picture with a seed of its own.
        expect(Object.keys(p.input).sort()).toEqual(['image', 'negative_prompt', 'num_outputs', 'output_format', 'prompt', 'seed']);
        expect(p.received).toEqual(p.input);
        expect(p.input).toMatchObject({ num_outputs: 1, output_format: 'png' });
        expect(Array.isArray(p.output) && p.output.length).toBe(1);
        // The Location the shop answered the upload with, as Cog reports it.
        expect((p.output as string[])[0]).toMatch(new RegExp(`^https://shop\\.test${GENERATOR_UPLOAD_PATH}/files/${p.id}/\\d{15}-[a-z0-9]{8}$`));
        expect(p).toMatchObject({ status: 'succeeded', runs: 1 });
      }
      // Read, the uploaded files are gone, and so are their notes for the deletion job.
      // (The webhook removes them just after the drafts are stored, which is when the job may end.)
      await until(async () => (await t.app.storage.listKeys('generator-uploads/')).length === 0, 'the uploads removed');
      await until(async () => (await db.db.select().from(storageIntents)).every((row) => !row.key.startsWith('generator-uploads/')), 'their notes settled');
      expect(new Set(made.map((p) => p.input.seed)).size).toBe(3);
      expect(await external(order.orderId)).toHaveLength(9);
      expect(await pictures(order.orderId)).toBe(3);
      // Nothing in the delivered files names the GPU host (GENERATOR_NAME defaults to it, for the privacy policy).
      for (const image of await external(order.orderId)) expect((await t.app.storage.getBuffer(image.storageKey)).includes(new URL(stand.baseUrl).hostname)).toBe(false);
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

    test('lost webhooks: the job takes the files the container uploaded; each prediction runs once', async () => {
      stand.behaviour = { ...stand.behaviour, delayMs: 30 };
      const delivered = stand.deliver;
      // Every webhook of this order's predictions is lost (a late one of an earlier test is not).
      let orderId = '';
      let dropped = 0;
      stand.deliver = async (url, headers, body) => {
        if (!orderId || !body.includes(orderId)) return delivered(url, headers, body);
        dropped++;
        return 0;
      };
      const { order, jobId } = await chooseGenerator({ ...BASIC });
      orderId = order.orderId;
      await t.app.jobRunner!.drain();
      stand.deliver = delivered;
      expect(dropped).toBe(3);
      const made = predictionsFor(order.orderId);
      expect(made).toHaveLength(3);
      // Never started again: a repeated PUT after the end would have been a second paid run.
      for (const p of made) expect(p).toMatchObject({ status: 'succeeded', runs: 1, repeats: 0 });
      expect(await pictures(order.orderId)).toBe(3);
      expect(await t.app.jobs.find(jobId)).toMatchObject({ status: 'done' });
      await until(async () => (await t.app.storage.listKeys('generator-uploads/')).length === 0, 'the uploads removed');
    });

    test('neither webhook nor upload reaches the shop: the prediction runs once, the job ends at once with a reason staff read', async () => {
      stand.behaviour = { ...stand.behaviour, delayMs: 30 };
      const delivered = stand.deliver;
      const uploaded = stand.upload;
      let orderId = '';
      // The shop's address is blocked for the container: its uploads fail (Cog then fails the prediction), its webhook is lost.
      stand.deliver = async (url, headers, body) => (orderId && body.includes(orderId) ? 0 : delivered(url, headers, body));
      stand.upload = async (url, headers, body) => (orderId && [...stand.predictions.values()].some((p) => p.id === headers['x-prediction-id'] && String(p.input.image).includes(orderId)) ? { status: 502, location: null } : uploaded(url, headers, body));
      const { order, jobId } = await chooseGenerator({ ...BASIC });
      orderId = order.orderId;
      await t.app.jobRunner!.drain();
      stand.deliver = delivered;
      stand.upload = uploaded;
      const made = predictionsFor(order.orderId);
      expect(made).toHaveLength(1);
      expect(made[0]).toMatchObject({ status: 'failed', runs: 1, repeats: 0 });
      const job = (await t.app.jobs.find(jobId))!;
      expect(job).toMatchObject({ status: 'dead', attempts: 1 });
      expect(job.lastError).toContain('neither its webhook nor its files reached the shop');
      expect(await pictures(order.orderId)).toBe(0);
      // The customer is told once the promised time has passed (the clock moved on: paid three weeks ago; 48 business hours).
      await db.db.update(orders).set({ paidAt: new Date(Date.now() - 21 * 24 * 3600 * 1000) }).where(eq(orders.id, order.orderId));
      expect(await t.app.delayNotices.run()).toBeGreaterThanOrEqual(1);
      await t.app.delayNotices.run();
      await db.db.update(jobs).set({ runAt: new Date() }).where(eq(jobs.queue, 'mail'));
      await t.app.jobRunner!.drain();
      const delayed = (await db.db.select().from(outgoingMail).where(eq(outgoingMail.orderId, order.orderId))).filter((mail) => mail.template === 'production-delayed');
      expect(delayed).toHaveLength(1);
      expect(delayed[0]!.text).toContain('noch nicht fertig');
      expect(delayed[0]!.text).toContain(`/order-status/${order.orderId}?token=`);
      const tracking = await t.app.inject({ method: 'POST', url: '/api/tracking', payload: { orderId: order.orderId, email: order.email }, remoteAddress: '10.81.0.9' });
      expect(tracking.json().order).toMatchObject({ status: 'in_progress', overdue: true });
    });

    test('a container started without --upload-url answers paths inside itself: a setting for staff to fix, the job ends at once', async () => {
      stand.behaviour = { ...stand.behaviour, delayMs: 20 };
      stand.uploadUrl = null;
      const { order, jobId } = await chooseGenerator(BASIC);
      await t.app.jobRunner!.drain();
      stand.uploadUrl = cogUploadUrl('https://shop.test', COG_SECRET);
      const made = predictionsFor(order.orderId);
      expect(made).toHaveLength(1);
      expect(made[0]!.output).toEqual(['/tmp/out_0.png']);
      const job = (await t.app.jobs.find(jobId))!;
      expect(job).toMatchObject({ status: 'dead', attempts: 1 });
      expect(job.lastError).toContain('started without --upload-url');
      expect(job.lastError).toContain('npm run generator:check prints');
    });

    test('the upload address takes files only with its token, and only for a prediction a job waits for', async () => {
      const put = (token: string, id: string) => t.app.inject({ method: 'PUT', url: `${GENERATOR_UPLOAD_PATH}/${token}/out_0.png`, headers: { 'content-type': 'image/png', 'x-prediction-id': id }, payload: Buffer.from('png') });
      const token = new URL(cogUploadUrl('https://shop.test', COG_SECRET)).pathname.split('/')[4]!;
      expect((await put('x'.repeat(43), 'a'.repeat(26))).statusCode).toBe(400);
      expect((await put(token, 'a'.repeat(26))).statusCode).toBe(404);
      expect((await put(token, '../etc')).statusCode).toBe(400);
      expect(await t.app.storage.listKeys('generator-uploads/')).toEqual([]);
    });

    test('a long prediction: while it runs the job asks only whether the container is busy, never the PUT again', async () => {
      stand.behaviour = { ...stand.behaviour, delayMs: 600_000 };
      const { order, jobId } = await chooseGenerator(BASIC);
      const running = t.app.jobRunner!.drain();
      const id = (await until(async () => (await progressOf(t, jobId))?.predictionId, 'the prediction'))!;
      const looks = stand.healthChecks;
      await until(async () => stand.healthChecks >= looks + 3, 'three looks at the container');
      expect(stand.predictions.get(id)).toMatchObject({ runs: 1, repeats: 0, status: 'processing' });
      stand.behaviour = { ...stand.behaviour, delayMs: 20 };
      await stand.finish(id);
      await running;
      expect(stand.predictions.get(id)).toMatchObject({ runs: 1, repeats: 0 });
      expect(await pictures(order.orderId)).toBe(3);
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

    test('someone else from the container: discarded by the webhook, asked again with a new seed each time, never a draft', async () => {
      stand.behaviour = { ...stand.behaviour, delayMs: 20, output: 'other-person' };
      const { order, jobId } = await chooseGenerator(BASIC);
      await t.app.jobRunner!.drain();
      stand.behaviour = { ...stand.behaviour, output: 'same-person' };
      expect(predictionsFor(order.orderId)).toHaveLength(3 * MAX_ATTEMPTS_PER_PICTURE);
      // Every attempt is a different request: asking again with the same seed would only pay for the same picture.
      const seeds = predictionsFor(order.orderId).map((p) => p.received.seed);
      expect(seeds.every((seed) => Number.isInteger(seed))).toBe(true);
      expect(new Set(seeds).size).toBe(3 * MAX_ATTEMPTS_PER_PICTURE);
      expect(await external(order.orderId)).toEqual([]);
      expect(await t.app.jobs.find(jobId)).toMatchObject({ status: 'dead', attempts: 1, lastError: expect.stringContaining('discarded') });
    });
  });

  // Every profile against its model as published (the two above run instant-id on Cog and pulid on Replicate).
  test.each([
    { key: 'pulid', model: PULID, face: 'main_face_image', count: 'num_samples', ip: '10.81.0.3' },
    { key: 'flux-pulid', model: FLUX_PULID, face: 'main_face_image', count: 'num_outputs', ip: '10.81.0.4' },
  ])('profile $key on a Cog container serving its published predictor: a basic order ends with checked drafts, nothing dropped', async ({ key, model, face, count, ip }) => {
    const stand = await startCogStandIn({ model, uploadUrl: cogUploadUrl('https://shop.test', COG_SECRET), behaviour: { output: 'same-person', delayMs: 20 } });
    const t = await buildTestApp(db, { CAMPAIGN_PERCENT: '0', GENERATOR: 'cog', COG_URL: stand.baseUrl, GENERATOR_MODEL: `zsxkib/${key}`, GENERATOR_WEBHOOK_SECRET: COG_SECRET, PUBLIC_URL: 'https://shop.test' }, { generatorPollMs: 20, generatorRecheckMs: 150 });
    stand.deliver = into(t.app);
    stand.upload = uploadInto(t.app);
    try {
      expect(await t.app.generatorCheck).toEqual([]);
      const staff = await signInStaff(t.app, ip);
      const order = await placeOrder(t.app, { selection: BASIC, photo: franckJpeg });
      await payOrder(t.app, order);
      expect((await staff.request('POST', `/api/admin/orders/${order.orderId}/studio/mode`, { mode: 'generator' })).statusCode).toBe(200);
      await t.app.jobRunner!.drain();
      const made = [...stand.predictions.values()].filter((p) => String(p.input[face]).includes(order.orderId));
      expect(made).toHaveLength(3);
      for (const p of made) {
        // What the model received is what was sent: no input it lacks (pydantic would drop it without a word).
        expect(p.received).toEqual(p.input);
        expect(p.input[count]).toBe(1);
        expect(p.output).toHaveLength(1);
      }
      expect(new Set(made.map((p) => p.input.seed)).size).toBe(3);
      expect(await pictures(order.orderId)).toBe(3);
    } finally {
      await t.close();
      await stand.stop();
    }
  });

  test('a container that runs another model than GENERATOR_MODEL says: the check at start names each mismatch', async () => {
    const other = await startCogStandIn({ model: FLUX_PULID });
    const wrong = await buildTestApp(db, { GENERATOR: 'cog', COG_URL: other.baseUrl, GENERATOR_MODEL: 'zsxkib/instant-id', GENERATOR_WEBHOOK_SECRET: COG_SECRET }, {});
    try {
      expect(await wrong.app.generatorCheck).toEqual(['input "image" is not one the model has (the model drops it without a word)', 'input "num_outputs" is 8, above the model\'s maximum 4']);
    } finally {
      await wrong.close();
      await other.stop();
    }
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
