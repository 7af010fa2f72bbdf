// The external generator on Replicate through the real start path (settings -> app -> job -> provider -> drafts),
// against a local stand-in of Replicate's HTTP API driven by the official client, whose outputs are real
// photographs. The Cog container: generator-cog.test.ts; every profile, and the settings: generator-configuration.test.ts.
import { asc, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { orderUploads, orders } from '../../db/schema.js';
import { PULID } from '../../test/generator/published-models.js';
import { startReplicateStandIn, type ReplicateStandIn } from '../../test/generator/replicate-stand-in.js';
import { signWebhook } from '../../generator/webhook-signature.js';
import { buildTestApp, type TestApp } from '../../test/app.js';
import { testDatabases } from '../../test/databases.js';
import { signInStaff, type StaffClient } from '../../test/staff.js';
import { franckJpeg } from '../../../testing/images.js';
import { payOrder, placeOrder, qualityWith, setOrder } from '../../test/seed.js';
import { BACKGROUND_CATALOGUE } from '../../../studio/prompts.js';
import { GENERATOR_QUEUE, GENERATOR_WEBHOOK_PATH, MAX_ATTEMPTS_PER_PICTURE } from './generator-context.js';
import { BASIC, chooseGeneratorFor, generatorDatabase, into, predictionsOf, PRO, until } from './test-generator.js';

const PULID_VERSION = 'a'.repeat(64);

describe.each(testDatabases())('external generator on $name', (testDb) => {
  const data = generatorDatabase(testDb);
  const { external, pictures, progressOf, rerun } = data;

  describe('Replicate (official client against a stand-in of its API), model zsxkib/pulid', () => {
    let t: TestApp;
    let stand: ReplicateStandIn;
    let staff: StaffClient;
    const admin = (url: string, payload: object = {}) => staff.request('POST', url, payload);
    const chooseGenerator = (selection: object) => chooseGeneratorFor(t, staff, selection);
    const predictionsFor = (orderId: string) => predictionsOf(stand.predictions, 'main_face_image', orderId);

    beforeAll(async () => {
      // PuLID's published predictor (published-models.ts): `main_face_image` required, a list of `num_samples` images.
      stand = await startReplicateStandIn({ model: PULID });
      // The version GENERATOR_MODEL pins is the one the stand-in publishes (its schema is read by the self-check).
      stand.versionId = PULID_VERSION;
      t = await buildTestApp(
        data.db,
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
      expect((await data.db.db.select().from(orders).where(eq(orders.id, order.orderId)))[0]!.status).toBe('in_progress');
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
      const uploads = await data.db.db.select().from(orderUploads).where(eq(orderUploads.orderId, order.orderId)).orderBy(asc(orderUploads.uploadOrder));
      expect(uploads.length).toBeGreaterThanOrEqual(2);
      const descriptor = (uploads[0]!.quality as { descriptor: number[] }).descriptor;
      await data.db.db.update(orderUploads).set({ quality: qualityWith({ verdict: 'warning', issues: [{ code: 'blurred' }, { code: 'tooDark' }], descriptor }) }).where(eq(orderUploads.id, uploads[0]!.id));
      await data.db.db.update(orderUploads).set({ quality: qualityWith({ verdict: 'ok', issues: [], descriptor }) }).where(eq(orderUploads.id, uploads[1]!.id));
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
});
