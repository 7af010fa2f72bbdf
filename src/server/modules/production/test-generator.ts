// What the external generator's tests share (generator-replicate.test.ts, generator-cog.test.ts,
// generator-configuration.test.ts): the orders they place, the stand-ins wired into the app under test, the
// database they read the drafts from, and waiting by the clock.
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect } from 'vitest';
import type { DatabaseHandle } from '../../db/client.js';
import { generatedImages, jobs } from '../../db/schema.js';
import { buildTestApp, type TestApp } from '../../test/app.js';
import type { TestDatabase } from '../../test/databases.js';
import type { CogStandIn } from '../../test/generator/cog-stand-in.js';
import type { UploadDelivery, WebhookDelivery } from '../../test/generator/stand-in-outputs.js';
import { payOrder, placeOrder } from '../../test/seed.js';
import type { StaffClient } from '../../test/staff.js';
import { franckJpeg } from '../../../testing/images.js';

// Outfits and an office are offered only when the generator is the default way (capabilities): these orders keep
// their own clothes and choose a creative backdrop.
export const PRO = { gender: 'male', style: 'professional', package: 'pro', location: 'creative', outfit: null, extras: [] };
export const BASIC = { ...PRO, package: 'basic', location: null, outfit: null };
export const COG_SECRET = 'cog-webhook-secret-0123456789abcdef';

/** The stand-in's webhook calls go straight into the app under test (it does not listen on a port). */
export const into =
  (app: FastifyInstance): WebhookDelivery =>
  async (url, headers, body) => {
    const target = new URL(url);
    return (await app.inject({ method: 'POST', url: `${target.pathname}${target.search}`, headers, payload: body })).statusCode;
  };

/** The stand-in's uploads (Cog's --upload-url) go straight into the app under test too. */
export const uploadInto =
  (app: FastifyInstance): UploadDelivery =>
  async (url, headers, body) => {
    const answer = await app.inject({ method: 'PUT', url: new URL(url).pathname, headers, payload: body });
    return { status: answer.statusCode, location: typeof answer.headers.location === 'string' ? answer.headers.location : null };
  };

// Waits by the clock, not by a count of looks: on a busy machine each look takes longer.
export async function until<T>(probe: () => Promise<T | undefined | null | false>, what: string): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A shop whose generator is the Cog stand-in running `model`, its webhooks and uploads going straight into the shop. */
export async function cogShop(db: DatabaseHandle, stand: CogStandIn, model: string): Promise<TestApp> {
  const t = await buildTestApp(db, { CAMPAIGN_PERCENT: '0', GENERATOR: 'cog', COG_URL: stand.baseUrl, GENERATOR_MODEL: model, GENERATOR_WEBHOOK_SECRET: COG_SECRET, PUBLIC_URL: 'https://shop.test' }, { generatorPollMs: 20, generatorRecheckMs: 150 });
  stand.deliver = into(t.app);
  stand.upload = uploadInto(t.app);
  return t;
}

/** A paid order set to the generator by staff, and its generator job. */
export async function chooseGeneratorFor(t: TestApp, staff: StaffClient, selection: object) {
  // The customer: one man, in three of his photos; the stand-ins answer with other photos of him.
  const order = await placeOrder(t.app, { selection, photo: franckJpeg });
  await payOrder(t.app, order);
  const chosen = await staff.request('POST', `/api/admin/orders/${order.orderId}/studio/mode`, { mode: 'generator' });
  expect(chosen.statusCode).toBe(200);
  return { order, jobId: chosen.json().jobId as number };
}

/** The predictions a stand-in ran for an order: those whose face input is one of its photos. */
export const predictionsOf = <P extends { input: Record<string, unknown> }>(predictions: Map<string, P>, face: string, orderId: string) =>
  [...predictions.values()].filter((p) => String(p.input[face]).includes(orderId));

/** The test file's database, opened before its tests and closed after them, and what the tests read from it. */
export function generatorDatabase(testDb: TestDatabase) {
  let db: DatabaseHandle;
  beforeAll(async () => {
    db = await testDb.open();
  });
  afterAll(async () => {
    await db.close();
  });

  const external = (orderId: string) => db.db.select().from(generatedImages).where(and(eq(generatedImages.orderId, orderId), eq(generatedImages.generationType, 'external')));
  return {
    get db() {
      return db;
    },
    external,
    progressOf: async (t: TestApp, jobId: number) => (await t.app.jobs.find(jobId))!.progress as { predictionId?: string; picture?: number } | null,
    /** Three drafts (4:5, 1:1, 35 × 45 mm) per picture that passed the gate. */
    pictures: async (orderId: string) => new Set((await external(orderId)).map((image) => image.generationKey!.split(':').slice(0, 3).join(':'))).size,
    rerun: async (t: TestApp, jobId: number) => {
      await db.db.update(jobs).set({ runAt: new Date() }).where(eq(jobs.id, jobId));
      await t.app.jobRunner!.drain();
    },
  };
}
