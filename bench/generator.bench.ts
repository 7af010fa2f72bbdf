// Issue 14 figures. (1) The identity check per generated picture (the gate on one 4:5 output of about 1 MP:
// face, sharpness, descriptor, comparison), target <= 300 ms. (2) Seconds from payment to all drafts of a pro
// order through the Cog stand-in (10 pictures, one prediction each, every picture checked and framed in three
// formats), target <= 60 s plus the stand-in's own delay; the app in this process, the stand-in's webhooks
// over HTTP as a container's would come.
// Smoke (BENCH_SMOKE=1): 2 identity checks, and a basic order (3 pictures) with a 50 ms stand-in delay.
import { rm } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { startCogStandIn } from '../src/server/test/generator/cog-stand-in.js';
import { cogUploadUrl } from '../src/server/generator/upload-address.js';
import { INSTANT_ID } from '../src/server/test/generator/published-models.js';
import { PROJECT_ROOT, STUDIO_INFERENCE_WORKER, STUDIO_MODELS_DIR } from '../src/server/paths.js';
import { franckJpeg } from '../src/testing/images.js';
import { payOrder, placeOrder } from '../src/server/test/seed.js';
import { freePort } from '../src/server/test/shop-process.js';
import { createInference } from '../src/studio/inference/client.js';
import { checkGeneratedPicture } from '../src/studio/output-gate.js';
import { assessPhoto } from '../src/studio/quality-gate.js';
import { SMOKE, benchApp, figure } from './in-process.js';

// (1)
const inference = createInference({ workerFile: STUDIO_INFERENCE_WORKER, modelDir: STUDIO_MODELS_DIR });
try {
  const references = [];
  for (let i = 0; i < 3; i++) references.push((await assessPhoto(await franckJpeg(i), inference)).descriptor!);
  const output = await sharp(path.join(PROJECT_ROOT, 'test/fixtures/faces/franck_01829.jpg')).resize(1024, 1280, { fit: 'cover' }).jpeg({ quality: 92 }).toBuffer();
  await checkGeneratedPicture(output, references, inference);
  const times: number[] = [];
  for (let i = 0; i < (SMOKE ? 2 : 20); i++) {
    const started = performance.now();
    const verdict = await checkGeneratedPicture(output, references, inference);
    times.push(performance.now() - started);
    if (!verdict.ok) throw new Error(`the customer's own photo was discarded: ${verdict.reason}`);
  }
  times.sort((a, b) => a - b);
  figure('identity check per generated picture, mean', times.reduce((a, b) => a + b, 0) / times.length, 'ms', '<= 300 ms');
  figure('identity check per generated picture, p95', times[Math.floor(times.length * 0.95)]!, 'ms');
} finally {
  await inference.close();
}

// (2)
const delayMs = SMOKE ? 50 : 500;
const pictures = SMOKE ? 3 : 10;
const stand = await startCogStandIn({ model: INSTANT_ID, behaviour: { output: 'same-person', delayMs } });
const BENCH_SECRET = 'bench-generator-webhook-secret-0123456789';
// The app, the stand-in and the models' thread live in this process; they are closed whether the run succeeds or not.
let app: Awaited<ReturnType<typeof benchApp>>['app'] | null = null;
let dataDir: string | null = null;
try {
  const port = await freePort();
  // Started as the README starts a model image: its files are PUT to the shop's upload address.
  stand.uploadUrl = cogUploadUrl(`http://127.0.0.1:${port}`, BENCH_SECRET);
  const bench = await benchApp('generator', {
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    CAMPAIGN_PERCENT: '0',
    DEFAULT_PRODUCTION_MODE: 'generator',
    GENERATOR: 'cog',
    COG_URL: stand.baseUrl,
    GENERATOR_MODEL: 'zsxkib/instant-id',
    GENERATOR_WEBHOOK_SECRET: BENCH_SECRET,
    LIMIT_DRAFTS_PER_HOUR: '100000',
    LIMIT_UPLOAD_MB_PER_HOUR: '1000000',
  });
  app = bench.app;
  dataDir = bench.dataDir;
  await app.db.migrate();
  await app.listen({ port, host: '127.0.0.1' });
  const selection = SMOKE
    ? { gender: 'male', style: 'professional', package: 'basic', location: null, outfit: null, extras: [] }
    : { gender: 'male', style: 'professional', package: 'pro', location: 'office', outfit: 'business', extras: [] };
  const order = await placeOrder(app, { selection, photo: franckJpeg });
  const started = performance.now();
  await payOrder(app, order);
  // The process's own job runner takes the job the payment enqueued.
  let [job] = await app.jobs.forOrder(order.orderId);
  while (job && job.status !== 'done' && job.status !== 'dead' && performance.now() - started < 600_000) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    [job] = await app.jobs.forOrder(order.orderId);
  }
  const seconds = (performance.now() - started) / 1000;
  const progress = job!.progress as { done?: number; total?: number; discarded?: unknown[] };
  if (job!.status !== 'done' || progress.done !== pictures) throw new Error(`the run did not finish: ${job!.status} ${JSON.stringify(progress)}`);
  figure(`${selection.package} order, payment to all drafts (${pictures} pictures, ${pictures * 3} drafts)`, seconds, 's', `<= 60 s + ${(pictures * delayMs) / 1000} s stand-in`);
  figure('  of which the stand-in\u2019s own delay', (pictures * delayMs) / 1000, 's');
  figure('  pictures discarded by the gate and asked again', progress.discarded?.length ?? 0, '');
} finally {
  await app?.close();
  await stand.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
}
process.exit(0);
