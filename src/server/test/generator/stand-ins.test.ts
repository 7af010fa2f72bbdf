// The stand-ins speak the documented protocols: the official Replicate client works against one, and the Cog
// one answers as docs/http.md says (idempotent PUT, 409 while busy, cancel, health, no GET of a prediction).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Replicate from 'replicate';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createCogGenerator } from '../../generator/cog-generator.js';
import { startCogStandIn, type CogStandIn } from './cog-stand-in.js';
import { instantIdProfile } from '../../generator/profiles/instant-id.js';
import { INSTANT_ID } from './published-models.js';
import { startReplicateStandIn, type ReplicateStandIn } from './replicate-stand-in.js';
import { verifyWebhook } from '../../generator/webhook-signature.js';

describe('Replicate stand-in', () => {
  let stand: ReplicateStandIn;
  beforeAll(async () => {
    stand = await startReplicateStandIn({ behaviour: { output: 'other-person', delayMs: 10 } });
  });
  afterAll(() => stand.stop());

  test('the official client runs a model on it and gets real photos; webhooks are signed as Replicate signs them', async () => {
    const received: { headers: Record<string, string>; body: string }[] = [];
    stand.deliver = async (_url, headers, body) => {
      received.push({ headers, body });
      return 204;
    };
    const client = new Replicate({ auth: stand.token, baseUrl: stand.baseUrl });
    const prediction = await client.predictions.create({ model: 'zsxkib/pulid', input: { main_face_image: 'https://x/a.jpg', num_samples: 2 }, webhook: 'https://shop.example/hook', webhook_events_filter: ['completed'] });
    expect(prediction.status).toBe('starting');
    const done = await client.wait(prediction, { interval: 10 });
    expect(done.status).toBe('succeeded');
    const output = done.output as string[];
    expect(output).toHaveLength(2);
    const photo = Buffer.from(await (await fetch(output[0]!)).arrayBuffer());
    expect(await sharp(photo).metadata()).toMatchObject({ format: 'jpeg', width: 512, height: 600 });
    expect(received).toHaveLength(1);
    const { headers, body } = received[0]!;
    expect(await verifyWebhook(stand.webhookSecret, { id: headers['webhook-id'], timestamp: headers['webhook-timestamp'], signature: headers['webhook-signature'] }, body, new Date())).toBe(true);
    expect(JSON.parse(body)).toMatchObject({ id: prediction.id, status: 'succeeded' });
    await expect(new Replicate({ auth: 'wrong', baseUrl: stand.baseUrl }).predictions.get(prediction.id)).rejects.toThrow(/401/);
    // A prediction still running when it is canceled (a 10 ms model could finish first on a busy machine).
    const delay = stand.behaviour.delayMs;
    stand.behaviour.delayMs = 60_000;
    try {
      const canceled = await client.predictions.cancel((await client.predictions.create({ version: 'a'.repeat(64), input: {} })).id);
      expect(canceled.status).toBe('canceled');
    } finally {
      stand.behaviour.delayMs = delay;
    }
  });
});

describe('Cog stand-in', () => {
  let stand: CogStandIn;
  beforeAll(async () => {
    stand = await startCogStandIn({ required: ['image'], behaviour: { shape: 'single', delayMs: 200 } });
  });
  afterAll(() => stand.stop());

  test('health, the idempotent PUT, 409 for another while busy, cancel, 422 for a missing input, no GET', async () => {
    const cog = createCogGenerator({ baseUrl: stand.baseUrl, profile: instantIdProfile, name: 'gpu' });
    expect(await cog.health()).toBe('READY');
    const started = await cog.create({ image: 'https://x/a.jpg' }, { id: 'p1', webhookUrl: null });
    expect(started).toMatchObject({ id: 'p1', status: 'processing' });
    expect(await cog.health()).toBe('BUSY');
    expect(await cog.check('p1', { image: 'https://x/a.jpg' }, null)).toMatchObject({ id: 'p1' });
    expect(stand.predictions.get('p1')).toMatchObject({ runs: 1, repeats: 1 });
    await expect(cog.create({ image: 'https://x/a.jpg' }, { id: 'p2', webhookUrl: null })).rejects.toThrow(/409/);
    expect((await fetch(`${stand.baseUrl}/predictions/p1`)).status).toBe(404);
    await cog.cancel('p1');
    expect(stand.predictions.get('p1')!.status).toBe('canceled');
    await cog.cancel('p1');
    await expect(cog.create({ prompt: 'no image' }, { id: 'p3', webhookUrl: null })).rejects.toThrow(/422/);
    // Synchronous: the answer is the finished prediction, a data: URI for the file.
    stand.behaviour.delayMs = 10;
    const response = await fetch(`${stand.baseUrl}/predictions/p4`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ input: { image: 'https://x/a.jpg' } }) });
    const body = (await response.json()) as { status: string; output: string };
    expect(body.status).toBe('succeeded');
    expect(body.output).toMatch(/^data:image\/jpeg;base64,/);
    expect((await sharp(await cog.fetchOutput(body.output)).metadata()).width).toBe(1024);
  });
});

describe('stand-ins of a published model (zsxkib/instant-id as its predictor declares it)', () => {
  let cog: CogStandIn;
  let replicate: ReplicateStandIn;
  beforeAll(async () => {
    [cog, replicate] = await Promise.all([startCogStandIn({ model: INSTANT_ID, behaviour: { delayMs: 10 } }), startReplicateStandIn({ model: INSTANT_ID, behaviour: { delayMs: 10 } })]);
  });
  afterAll(async () => {
    await Promise.all([cog.stop(), replicate.stop()]);
  });

  test('Cog: its OpenAPI document, inputs taken as its input model takes them, a list of num_outputs images', async () => {
    const openapi = (await (await fetch(`${cog.baseUrl}/openapi.json`)).json()) as { components: { schemas: { Output: unknown; Input: { required: string[] } } } };
    expect(openapi.components.schemas.Output).toEqual({ title: 'Output', type: 'array', items: { type: 'string', format: 'uri' } });
    expect(openapi.components.schemas.Input.required).toEqual(['image']);
    const put = async (id: string, input: object) => {
      const response = await fetch(`${cog.baseUrl}/predictions/${id}`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ input }) });
      return { status: response.status, body: (await response.json()) as { output?: unknown; detail?: { loc: string[]; msg: string }[] } };
    };
    // What the model has no input for is dropped without a word (pydantic's default), numbers as text converted.
    const made = await put('a1', { image: 'https://x/a.jpg', width: 1024, height: 1280, num_outputs: '2' });
    expect(made.status).toBe(200);
    expect(cog.predictions.get('a1')!.received).toEqual({ image: 'https://x/a.jpg', num_outputs: 2 });
    expect(made.body.output).toEqual([expect.stringMatching(/^data:image\/webp;base64,/), expect.stringMatching(/^data:image\/webp;base64,/)]);
    // Out of range, not a choice, no face: 422 with pydantic's messages, nothing started.
    const refused = await put('a2', { num_outputs: 9, output_format: 'gif' });
    expect(refused.status).toBe(422);
    expect(refused.body.detail!.map((d) => `${d.loc.at(-1)}: ${d.msg}`)).toEqual([
      'image: field required',
      'num_outputs: ensure this value is less than or equal to 8',
      "output_format: value is not a valid enumeration member; permitted: 'webp', 'jpg', 'png'",
    ]);
    expect(cog.predictions.has('a2')).toBe(false);
  });

  test('Cog 0.13.6 file outputs: an asynchronous prediction answers paths inside the container without --upload-url, and with one PUTs each file there and answers its Location', async () => {
    const ended = async (id: string, input: object) => {
      await fetch(`${cog.baseUrl}/predictions/${id}`, { method: 'PUT', headers: { 'content-type': 'application/json', prefer: 'respond-async' }, body: JSON.stringify({ input }) });
      await cog.predictions.get(id)!.done;
      return cog.predictions.get(id)!;
    };
    const hooks: Record<string, unknown>[] = [];
    cog.deliver = async (_url, _headers, body) => (hooks.push(JSON.parse(body) as Record<string, unknown>), 200);
    const b1 = await fetch(`${cog.baseUrl}/predictions/b1`, { method: 'PUT', headers: { 'content-type': 'application/json', prefer: 'respond-async' }, body: JSON.stringify({ input: { image: 'https://x/a.jpg', num_outputs: 2 }, webhook: 'http://shop.test/hook', webhook_events_filter: ['completed'] }) });
    // The answer has every field of the prediction; the webhook only those that were set (no error, no version).
    expect(Object.keys((await b1.json()) as object).sort()).toEqual(['completed_at', 'created_at', 'error', 'id', 'input', 'logs', 'metrics', 'output', 'output_file_prefix', 'started_at', 'status', 'version', 'webhook', 'webhook_events_filter']);
    await cog.predictions.get('b1')!.done;
    // Saved in the format asked for (`output_format`, webp unless asked), as the predictor saves them.
    expect(cog.predictions.get('b1')!.output).toEqual(['/tmp/out_0.webp', '/tmp/out_1.webp']);
    expect((await ended('b0', { image: 'https://x/a.jpg', output_format: 'png' })).output).toEqual(['/tmp/out_0.png']);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(Object.keys(hooks[0]!).sort()).toEqual(['completed_at', 'created_at', 'id', 'input', 'logs', 'metrics', 'output', 'output_file_prefix', 'started_at', 'status', 'webhook', 'webhook_events_filter']);
    // An upload endpoint as the docs show one: the file under <upload url>/<name>, the asset's address in Location.
    const received: { url: string; type: string | undefined; prediction: string | undefined; bytes: number }[] = [];
    const target = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push({ url: `${req.method} ${req.url}`, type: req.headers['content-type'], prediction: req.headers['x-prediction-id'] as string | undefined, bytes: Buffer.concat(chunks).length });
        res.writeHead(201, { location: `https://files.example/assets/${received.length}.jpg?signature=abc` }).end();
      });
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    cog.uploadUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}/upload`;
    try {
      const p = await ended('b2', { image: 'https://x/a.jpg', num_outputs: 2 });
      expect(p.output).toEqual(['https://files.example/assets/1.jpg', 'https://files.example/assets/2.jpg']);
      expect(received.map(({ bytes, ...rest }) => ({ ...rest, bytes: bytes > 10_000 }))).toEqual([
        { url: 'PUT /upload/out_0.webp', type: 'image/webp', prediction: 'b2', bytes: true },
        { url: 'PUT /upload/out_1.webp', type: 'image/webp', prediction: 'b2', bytes: true },
      ]);
      // A synchronous prediction still answers data: URIs (0.13.6 uploads only for asynchronous ones).
      const sync = await fetch(`${cog.baseUrl}/predictions/b3`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ input: { image: 'https://x/a.jpg' } }) });
      expect(((await sync.json()) as { output: string[] }).output[0]).toMatch(/^data:image\/webp;base64,/);
      // An upload the endpoint refuses fails the prediction, as the runner's raise_for_status does.
      target.removeAllListeners('request');
      target.on('request', (_req, res) => res.writeHead(403).end());
      expect(await ended('b4', { image: 'https://x/a.jpg' })).toMatchObject({ status: 'failed', error: 'Got error trying to upload output files' });
    } finally {
      cog.uploadUrl = null;
      await new Promise((resolve) => target.close(resolve));
    }
  });

  test("Replicate: the model's latest version and a pinned one with their openapi_schema, through the official client; a refused input is a 422", async () => {
    const client = new Replicate({ auth: replicate.token, baseUrl: replicate.baseUrl });
    const model = await client.models.get('zsxkib', 'instant-id');
    expect(model.latest_version!.id).toBe(replicate.versionId);
    expect(model.latest_version!.openapi_schema).toEqual(INSTANT_ID.openapi);
    expect((await client.models.versions.get('zsxkib', 'instant-id', replicate.versionId)).openapi_schema).toEqual(INSTANT_ID.openapi);
    await expect(client.models.get('zsxkib', 'pulid')).rejects.toThrow(/404/);
    await expect(client.predictions.create({ version: replicate.versionId, input: { image: 'https://x/a.jpg', num_outputs: 12 } })).rejects.toThrow(/422[\s\S]*less than or equal to 8/);
    const done = await client.wait(await client.predictions.create({ version: replicate.versionId, input: { image: 'https://x/a.jpg', num_outputs: 3, seed: 5 } }), { interval: 10 });
    expect(done.output).toHaveLength(3);
  });
});
