// The generator's self-check before the first customer pays: one real prediction, made the way an order's are
// (the profile's inputs, the provider's protocol, for Cog its webhook and the files it uploads to the shop), with
// a shipped public-domain face (Eileen Collins, NASA; test/fixtures/README.md) in place of a customer's photo.
// Its picture goes through the identity gate against that face. What it reports: the model and profile, the
// inputs sent, how long it took, the model's own run time and cost where the provider reports them, the picture
// and its distance. It stops before paying for anything when the profile does not fit the model's published
// schema or the Cog upload address would carry faces unencrypted. A job (queue SELF_CHECK_QUEUE), so the staff
// button and `npm run generator:self-check` run the same code in a process that serves the webhook.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { SelfCheckJobProgress, SelfCheckResult } from '../../../domain/stored-json.js';
import { assessPhoto } from '../../../studio/quality-gate.js';
import { checkGeneratedPicture } from '../../../studio/output-gate.js';
import { crownOf, tooTightFor } from '../../../studio/output-formats.js';
import { IDENTITY, OUTPUT_GATE } from '../../../studio/thresholds.js';
import { jobs } from '../../db/schema.js';
import { checkGenerator } from '../../generator/model-schema.js';
import { GeneratorError } from '../../generator/generator-error.js';
import type { Prediction } from '../../generator/provider.js';
import { uploadUrlProblem } from '../../generator/upload-address.js';
import { createJobQueue, type Queue } from '../../jobs/queue.js';
import type { JobHandler } from '../../jobs/runner.js';
import { PROJECT_ROOT } from '../../paths.js';
import { processForeignImage } from '../../images/image-processing.js';
import type { GeneratorDeps } from './generator-context.js';

export type { SelfCheckResult } from '../../../domain/stored-json.js';

/** A self-check needs nothing to run: it uses the shipped face and the configured generator. */
export type SelfCheckPayload = Record<string, never>;

/** The self-check's queue: its progress notes its prediction (as an order's generator job does), then its result. */
export const SELF_CHECK_QUEUE: Queue<SelfCheckPayload, SelfCheckJobProgress> = 'generator.selfcheck';
/** The face sent: a NASA portrait, public domain, in the repository's test fixtures. */
export const SELF_CHECK_FACE = path.join(PROJECT_ROOT, 'test/fixtures/portrait-astronaut.png');
const SELF_CHECK_PREFIX = 'generator-self-check';
const PROMPT = 'professional headshot of a person in business attire, neutral light grey studio background, soft even light, sharp focus';
const NEGATIVE_PROMPT = 'blurry, distorted face, extra people, text, watermark';
const PATIENCE_MS = 15 * 60 * 1000;

/** The generator service's own dependencies and helpers (generator-context.ts; generator-service.ts makes it). */
interface Helpers extends Pick<GeneratorDeps, 'db' | 'storage' | 'generator' | 'inference' | 'queue' | 'publicUrl' | 'now' | 'log'> {
  pollMs: number;
  recheckMs: number;
  newPredictionId: () => string;
  webhookUrl: (predictionId: string) => string | null;
  /** Files a Cog container uploaded for a prediction (keys, oldest first), reading one, removing them. */
  uploadsOf: (predictionId: string) => Promise<string[]>;
  dropUploads: (predictionId: string) => Promise<void>;
  /** What a Cog webhook reported for the prediction the job notes (its progress), if anything. */
  reported: (jobId: number, predictionId: string) => Promise<{ status: Prediction['status']; error: string | null; predictTime?: number } | null>;
}

const pending = (status: Prediction['status']) => status === 'starting' || status === 'processing';
const shortened = (input: Record<string, unknown>) => Object.fromEntries(Object.entries(input).map(([key, value]) => [key, typeof value === 'string' && value.includes('?') && /^https?:/.test(value) ? `${value.split('?')[0]}?…` : value]));

export function createSelfCheck(h: Helpers) {
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  const handler: JobHandler<SelfCheckPayload, SelfCheckJobProgress> = async (job, context) => {
    const generator = h.generator;
    if (!generator) throw new GeneratorError('no generator configured (GENERATOR)', null, true);
    const base = { model: generator.model, kind: generator.kind, profile: generator.profile.key, limit: IDENTITY.maxSamePersonDistance, cost: null };
    const finish = async (result: Omit<SelfCheckResult, keyof typeof base | 'finishedAt' | 'ok'> & { ok?: boolean }) => {
      const full: SelfCheckResult = { ...base, ...result, ok: result.ok ?? result.problems.length === 0, finishedAt: h.now().toISOString() };
      await context.progress({ ...(job.progress ?? {}), result: full });
      h.log[full.ok ? 'info' : 'error']({ event: 'generator_self_check', ok: full.ok, problems: full.problems, distance: full.distance, seconds: full.seconds }, 'generator self-check');
    };
    const empty = { predictionId: null, inputs: null, seconds: null, predictTime: null, pictureKey: null, distance: null, verdict: null };

    // Nothing is paid for while a setting is known to be wrong.
    const problems = await checkGenerator(generator);
    const upload = generator.kind === 'cog' ? uploadUrlProblem(h.publicUrl) : null;
    if (upload) problems.push(upload);
    if (problems.length) return finish({ ...empty, problems });

    // Only the newest self-check's files are kept.
    await h.storage.deletePrefix(`${SELF_CHECK_PREFIX}/`);
    const face = await readFile(SELF_CHECK_FACE);
    const reference = (await assessPhoto(face, h.inference, { analysisLongSidePx: OUTPUT_GATE.analysisLongSidePx, sides: false })).descriptor;
    if (!reference) throw new GeneratorError('the self-check face has no face description (the face models did not load?)');
    const faceKey = `${SELF_CHECK_PREFIX}/${job.id}/face.png`;
    await h.storage.put(faceKey, face, { contentType: 'image/png' });
    const link = await h.storage.signedUrl(faceKey, { expiresInSeconds: 15 * 60 });
    const faceUrl = link.startsWith('/') ? `${h.publicUrl}${link}` : link;
    const [call] = generator.profile.calls({ faces: [faceUrl], prompt: PROMPT, negativePrompt: NEGATIVE_PROMPT, count: 1, seed: 20261207, width: 1024, height: 1280 });
    if (!call) throw new GeneratorError(`profile "${generator.profile.key}" makes no call for one picture`);
    const id = h.newPredictionId();
    // Noted first: the webhook and the uploads find the job by it.
    await context.progress({ predictionId: id, status: 'starting' });
    const started = Date.now();
    const send = async (): Promise<Prediction> => {
      for (;;) {
        try {
          return await generator.create(call.input, { id, webhookUrl: h.webhookUrl(id) });
        } catch (error) {
          // A Cog container busy with an order's prediction: the check waits its turn.
          if (!(error instanceof GeneratorError) || error.status !== 409 || Date.now() - started > PATIENCE_MS) throw error;
          await sleep(h.pollMs);
        }
      }
    };
    let prediction = await send();
    const result = { ...empty, predictionId: prediction.id, inputs: shortened(call.input) };
    const found: string[] = [];
    let lastLook = Date.now();
    let filesSeen = false;
    let idleSeen = false;
    let uploaded: string[] = [];
    for (;;) {
      if (Date.now() - started > PATIENCE_MS) {
        await generator.cancel(prediction.id).catch(() => {});
        return finish({ ...result, problems: [`the prediction did not end within ${PATIENCE_MS / 60_000} minutes (canceled)`] });
      }
      await sleep(h.pollMs);
      if (generator.readable) {
        prediction = await generator.check(prediction.id, call.input, null);
        if (!pending(prediction.status)) break;
        continue;
      }
      const reported = await h.reported(job.id, prediction.id);
      if (reported && !pending(reported.status)) {
        prediction = { ...prediction, ...reported };
        uploaded = await h.uploadsOf(prediction.id);
        if (prediction.status === 'succeeded' && uploaded.length === 0) found.push('the container reported success, but uploaded no file to the shop: start it with --upload-url (npm run generator:check prints the line)');
        break;
      }
      if (Date.now() - lastLook < h.recheckMs) continue;
      lastLook = Date.now();
      uploaded = await h.uploadsOf(prediction.id);
      if (uploaded.length && filesSeen) {
        found.push(`the container uploaded its file, but its webhook did not reach ${h.webhookUrl(prediction.id)?.split('?')[0]}: orders would wait a minute longer per picture, and failures would be reported late`);
        prediction = { ...prediction, status: 'succeeded' };
        break;
      }
      filesSeen = uploaded.length > 0;
      const health = filesSeen ? 'BUSY' : await generator.health!();
      if (health === 'READY' && idleSeen) return finish({ ...result, problems: [`the prediction ended on the container, but neither its webhook nor its file reached ${h.publicUrl}: check the container's network and its --upload-url`] });
      idleSeen = health === 'READY';
    }
    const seconds = Math.round((Date.now() - started) / 100) / 10;
    const predictTime = prediction.predictTime ?? null;
    if (prediction.status !== 'succeeded') return finish({ ...result, seconds, predictTime, problems: [...found, `the prediction ${prediction.status}: ${prediction.error ?? 'no reason given'}`] });
    let raw: Buffer;
    try {
      if (generator.kind === 'cog') {
        if (!uploaded.length) return finish({ ...result, seconds, predictTime, problems: found });
        raw = await h.storage.getBuffer(uploaded[0]!);
      } else {
        const [reference] = generator.profile.outputs(prediction.output, 1);
        raw = await generator.fetchOutput(reference!);
      }
    } catch (error) {
      return finish({ ...result, seconds, predictTime, problems: [...found, `its picture could not be read: ${(error as Error).message}`] });
    } finally {
      await h.dropUploads(prediction.id);
      await h.storage.delete(faceKey);
    }
    const processed = await processForeignImage(raw, (image) => image.resize({ width: 1600, height: 1600, fit: 'inside', withoutEnlargement: true }).flatten({ background: '#ffffff' }).jpeg({ quality: 90 }));
    if (!processed.ok) return finish({ ...result, seconds, predictTime, problems: [...found, 'the model answered bytes that are not an image'] });
    const pictureKey = `${SELF_CHECK_PREFIX}/${job.id}/picture.jpg`;
    await h.storage.put(pictureKey, processed.image.buffer, { contentType: 'image/jpeg' });
    const verdict = await checkGeneratedPicture(processed.image.buffer, [reference], h.inference);
    const distance = verdict.identity?.distance ?? null;
    if (!verdict.ok) found.push(`the identity gate refused the picture (${verdict.reason}${distance !== null ? `, distance ${distance.toFixed(2)} > ${IDENTITY.maxSamePersonDistance}` : ''}): orders made this way would be asked again and again`);
    // As for an order's picture: a face too large for a format within the studio's limits is asked again.
    const tight = verdict.ok ? tooTightFor(verdict.face, processed.image, await crownOf(processed.image.buffer, verdict.face, h.inference)) : [];
    if (tight.length) found.push(`the face fills the picture too much for ${tight.join(', ')} (the studio's limits): orders would ask again often; prompt for more room around the head`);
    return finish({ ...result, seconds, predictTime, pictureKey, distance, verdict: !verdict.ok ? verdict.reason : tight.length ? 'tooTight' : 'ok', problems: found });
  };

  /** Staff or the CLI: a self-check now (one at a time). */
  async function start(): Promise<number> {
    if (!h.generator) throw new GeneratorError('no generator configured (GENERATOR)');
    const queue = createJobQueue(h.db, h.now);
    const [running] = await h.db.select({ id: jobs.id }).from(jobs).where(and(eq(jobs.queue, SELF_CHECK_QUEUE), sql`${jobs.status} in ('pending', 'running')`)).limit(1);
    if (running) return running.id;
    const id = await queue.enqueue({ queue: SELF_CHECK_QUEUE, payload: {}, maxAttempts: 1 });
    return id!;
  }

  /** The newest self-check: its job's state and, once done, its result. */
  async function latest(): Promise<{ jobId: number; status: string; lastError: string | null; result: SelfCheckResult | null } | null> {
    const [row] = await h.db.select().from(jobs).where(eq(jobs.queue, SELF_CHECK_QUEUE)).orderBy(desc(jobs.id)).limit(1);
    if (!row) return null;
    return { jobId: row.id, status: row.status, lastError: row.lastError?.split('\n')[0] ?? null, result: row.progress?.result ?? null };
  }

  return { handler, start, latest };
}

/** A self-check's result in lines, as the CLI prints it. */
export function describeSelfCheck(result: SelfCheckResult): string[] {
  const lines = [
    `model: ${result.model} (${result.kind}), profile: ${result.profile}`,
    `prediction: ${result.predictionId ?? 'none sent'}`,
    `inputs sent: ${result.inputs ? JSON.stringify(result.inputs) : '–'}`,
    `time: ${result.seconds !== null ? `${result.seconds} s from sending the prediction to its end in the shop` : '–'}${result.predictTime !== null ? `; the model ran ${result.predictTime.toFixed(1)} s` : ''}`,
    `cost: ${result.cost ?? `not reported by ${result.kind === 'replicate' ? "Replicate's API" : 'a Cog container'}`}`,
    `picture: ${result.pictureKey ?? '–'}`,
    `identity: ${result.distance !== null ? `distance ${result.distance.toFixed(3)} to the test face (limit ${result.limit})` : '–'}; gate: ${result.verdict ?? '–'}`,
  ];
  return [...lines, result.ok ? 'self-check passed' : `self-check FAILED:\n${result.problems.map((p) => `- ${p}`).join('\n')}`];
}
