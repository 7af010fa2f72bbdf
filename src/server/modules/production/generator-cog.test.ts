// The external generator on a Cog container through the real start path (settings -> app -> job -> provider ->
// drafts), against a local stand-in of a Cog container's HTTP API, whose outputs are real photographs: its
// webhook, the files it uploads to the shop, and what the shop does when either is lost.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { jobs, orders, outgoingMail, storageIntents } from '../../db/schema.js';
import { startCogStandIn, type CogStandIn } from '../../test/generator/cog-stand-in.js';
import { INSTANT_ID } from '../../test/generator/published-models.js';
import { webhookToken } from '../../generator/webhook-signature.js';
import type { TestApp } from '../../test/app.js';
import { testDatabases } from '../../test/databases.js';
import { signInStaff, type StaffClient } from '../../test/staff.js';
import { cogUploadUrl, GENERATOR_UPLOAD_PATH } from '../../generator/upload-address.js';
import { GENERATOR_WEBHOOK_PATH, MAX_ATTEMPTS_PER_PICTURE } from './generator-context.js';
import { BASIC, chooseGeneratorFor, cogShop, COG_SECRET, generatorDatabase, predictionsOf, until } from './test-generator.js';

describe.each(testDatabases())('external generator on $name', (testDb) => {
  const data = generatorDatabase(testDb);
  const { external, pictures, progressOf } = data;

  describe('a Cog container (stand-in of its HTTP API) running zsxkib/instant-id', () => {
    let t: TestApp;
    let stand: CogStandIn;
    let staff: StaffClient;
    const admin = (url: string, payload: object = {}) => staff.request('POST', url, payload);
    const chooseGenerator = (selection: object) => chooseGeneratorFor(t, staff, selection);
    const predictionsFor = (orderId: string) => predictionsOf(stand.predictions, 'image', orderId);

    beforeAll(async () => {
      // InstantID's published predictor (published-models.ts): `image` required, a list of `num_outputs` images.
      // Started as the README says: with the shop's upload address (Cog 0.13.6 answers an asynchronous
      // prediction's files as paths inside the container without one).
      stand = await startCogStandIn({ model: INSTANT_ID, uploadUrl: cogUploadUrl('https://shop.test', COG_SECRET) });
      t = await cogShop(data.db, stand, 'zsxkib/instant-id');
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
      await until(async () => (await data.db.db.select().from(storageIntents)).every((row) => !row.key.startsWith('generator-uploads/')), 'their notes settled');
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
      await data.db.db.update(orders).set({ paidAt: new Date(Date.now() - 21 * 24 * 3600 * 1000) }).where(eq(orders.id, order.orderId));
      expect(await t.app.delayNotices.run()).toBeGreaterThanOrEqual(1);
      await t.app.delayNotices.run();
      await data.db.db.update(jobs).set({ runAt: new Date() }).where(eq(jobs.queue, 'mail'));
      await t.app.jobRunner!.drain();
      const delayed = (await data.db.db.select().from(outgoingMail).where(eq(outgoingMail.orderId, order.orderId))).filter((mail) => mail.template === 'production-delayed');
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
});
