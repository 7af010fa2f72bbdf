// One picture of a generator job's plan: a prediction for it (the one under way when the job runs again, else a
// new one), the wait for its end (Replicate: its webhook or reading it; Cog: its webhook, or the files it
// uploaded when the webhook is lost), then its picture through the gate, asked for again while the gate
// discards it, given up after MAX_ATTEMPTS_PER_PICTURE.
import type { PlannedPicture } from '../../../studio/prompts.js';
import { GeneratorError } from '../../generator/generator-error.js';
import type { Prediction } from '../../generator/provider.js';
import { COLLECT_PATIENCE_MS, MAX_ATTEMPTS_PER_PICTURE, newPredictionId, pending, PREDICTION_PATIENCE_MS } from './generator-context.js';
import type { GeneratorJob } from './generator-job.js';

/** A prediction of one attempt at a picture. */
interface Asked {
  prediction: Prediction;
  attempt: number;
}

/** What the wait for a prediction found, and (Cog) how. */
interface Watch {
  prediction: Prediction;
  rejection: { reason: string; distance?: number } | null;
  /** Cog: what the last looks found without a webhook (files uploaded, the container idle), and since when. */
  lastCheck: number;
  filesSeen: boolean;
  idleSeen: boolean;
  fromUploads: boolean;
  finalFailure: boolean;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A job that runs again (its worker died, the provider was slow) continues with its prediction. */
async function resumed(job: GeneratorJob, picture: PlannedPicture): Promise<Asked | null> {
  const { ctx, generator, progress } = job;
  const used = job.attempts[picture.index] ?? 0;
  const resuming = progress.picture === picture.index && progress.predictionId && progress.attempt === used - 1 ? progress.predictionId : null;
  if (!resuming) return null;
  const attempt = used - 1;
  const { input } = job.callFor(picture, attempt);
  const reported = (await ctx.storedProgress(job.jobId)).webhook;
  // Cog: a PUT would start a prediction that has ended anew (awaitEnd learns its end another way).
  const prediction: Prediction =
    reported?.id === resuming
      ? { id: resuming, status: reported.status, output: null, error: reported.error }
      : generator.kind === 'cog'
        ? { id: resuming, status: 'processing', output: null, error: null }
        : await generator.check(resuming, input, ctx.webhookUrl(resuming));
  // Failed, canceled, or (Cog) ended without its picture being stored: a new attempt.
  if (prediction.status === 'failed' || prediction.status === 'canceled' || (reported?.id === resuming && reported.status === 'succeeded')) return null;
  return { prediction, attempt };
}

/**
 * A Cog container runs one prediction at a time and answers 409 while its slot is taken (another order's
 * prediction, or ours just ending while its webhook is delivered): this one waits its turn.
 */
async function createWhenFree(job: GeneratorJob, input: Record<string, unknown>, id: string): Promise<Prediction> {
  const until = Date.now() + PREDICTION_PATIENCE_MS;
  for (;;) {
    try {
      return await job.generator.create(input, { id, webhookUrl: job.ctx.webhookUrl(id) });
    } catch (error) {
      if (!(error instanceof GeneratorError) || error.status !== 409 || Date.now() > until) throw error;
      if (!(await job.wanted())) throw error;
      await sleep(job.ctx.pollMs);
    }
  }
}

/** A new prediction for the picture, with the next attempt's seed; null when the gate discarded every attempt (given up). */
async function askAnew(job: GeneratorJob, picture: PlannedPicture): Promise<Asked | null> {
  const used = job.attempts[picture.index] ?? 0;
  if (job.discarded.filter((d) => d.picture === picture.index).length >= MAX_ATTEMPTS_PER_PICTURE) {
    job.missing.add(picture.index);
    job.ctx.deps.log.warn({ orderId: job.order.id, picture: picture.index, attempts: used }, 'generator picture given up: every attempt was discarded by the gate');
    return null;
  }
  const attempt = used;
  job.attempts[picture.index] = used + 1;
  const id = newPredictionId();
  // Cog takes our id: noted first, so that a webhook faster than the answer finds its job.
  if (job.generator.kind === 'cog') await job.summary({ predictionId: id, picture: picture.index, attempt, status: 'starting', webhook: undefined });
  const prediction = await createWhenFree(job, job.callFor(picture, attempt).input, id);
  await job.summary({ predictionId: prediction.id, picture: picture.index, attempt, status: prediction.status });
  return { prediction, attempt };
}

/**
 * Cog has no way to read a prediction, and a repeated PUT would start one that has ended anew (a second paid
 * run). Its files, uploaded just before its webhook is sent, tell it ended; still there at the next look with no
 * webhook, the webhook is lost and the job takes them itself. An idle container at two looks in a row, with
 * neither files nor webhook, ended it without reaching us. `ended`: the files are the end; `again`: look again
 * at once (its webhook came meanwhile, or the picture is stored).
 */
async function lookAtContainer(job: GeneratorJob, picture: PlannedPicture, watch: Watch): Promise<'ended' | 'again' | 'running'> {
  const { ctx, generator } = job;
  watch.lastCheck = Date.now();
  const files = await ctx.uploadsOf(watch.prediction.id);
  if (files.length && watch.filesSeen) {
    ctx.deps.log.warn({ orderId: job.order.id, predictionId: watch.prediction.id }, 'generator webhook lost: the picture is taken from the files the container uploaded');
    watch.prediction = { ...watch.prediction, status: 'succeeded', output: files.map(ctx.uploadAddress) };
    watch.fromUploads = true;
    return 'ended';
  }
  watch.filesSeen = files.length > 0;
  const health = watch.filesSeen ? 'BUSY' : await generator.health!();
  // Its webhook may have come just now, after this round's first look: then that is the end.
  const late = health === 'READY' && watch.idleSeen ? (await ctx.storedProgress(job.jobId)).webhook : undefined;
  if (late?.id === watch.prediction.id || (await job.stored(picture))) return 'again';
  if (health === 'READY' && watch.idleSeen) {
    throw new GeneratorError(
      `prediction ${watch.prediction.id} no longer runs on the Cog container, and neither its webhook nor its files reached the shop: the container cannot reach ${ctx.deps.publicUrl} (its webhook and --upload-url), or it restarted during the prediction. It is not asked for again on its own, so that nothing is paid for twice: check the container's log and network, then run the generator again`,
      null,
      true,
    );
  }
  watch.idleSeen = health === 'READY';
  if (health === 'SETUP_FAILED' || health === 'DEFUNCT' || health === 'UNHEALTHY') throw new GeneratorError(`the Cog container reports ${health} while prediction ${watch.prediction.id} was to run`);
  return 'running';
}

/** Waits for the prediction's end; null when the order no longer wants it (then it is canceled). */
async function awaitEnd(job: GeneratorJob, picture: PlannedPicture, asked: Asked): Promise<Watch | null> {
  const { ctx, generator } = job;
  const { input } = job.callFor(picture, asked.attempt);
  const deadline = Date.now() + PREDICTION_PATIENCE_MS;
  const watch: Watch = { prediction: asked.prediction, rejection: null, lastCheck: Date.now(), filesSeen: false, idleSeen: false, fromUploads: false, finalFailure: false };
  for (;;) {
    // The webhook may have stored the picture already: then there is nothing to wait for.
    if (await job.stored(picture)) break;
    // Cog: the webhook reports the end (and, once it has checked the picture, the gate's verdict).
    const reported = (await ctx.storedProgress(job.jobId)).webhook;
    const reportedHere = reported?.id === watch.prediction.id ? reported : null;
    if (reportedHere?.collecting && Date.now() - reportedHere.collecting > COLLECT_PATIENCE_MS) {
      throw new GeneratorError(`prediction ${watch.prediction.id} ended, but its webhook did not finish checking the picture within ${COLLECT_PATIENCE_MS / 1000} s; it is asked for again`);
    }
    if (reportedHere && !reportedHere.collecting) {
      watch.prediction = { ...watch.prediction, status: reportedHere.status, error: reportedHere.error };
      watch.rejection = reportedHere.rejection ?? null;
      watch.finalFailure = reportedHere.final === true;
      break;
    }
    if (!reportedHere && !pending(watch.prediction)) break;
    if (!(await job.wanted())) {
      // Abandoned: it would run on (and cost) for nothing.
      await generator.cancel(watch.prediction.id);
      return null;
    }
    if (Date.now() > deadline) {
      await generator.cancel(watch.prediction.id).catch(() => {});
      throw new GeneratorError(`prediction ${watch.prediction.id} still ${watch.prediction.status} after ${PREDICTION_PATIENCE_MS / 60000} minutes (canceled)`);
    }
    await sleep(ctx.pollMs);
    // It ended and its webhook is checking the picture: nothing to ask the container (a repeated PUT
    // now would start it again).
    if (reportedHere) continue;
    if (generator.readable) watch.prediction = await generator.check(watch.prediction.id, input, null);
    else if (Date.now() - watch.lastCheck >= ctx.recheckMs) {
      const look = await lookAtContainer(job, picture, watch);
      if (look === 'ended') break;
      if (look === 'again') continue;
    }
    await job.save({ ...job.progress, status: watch.prediction.status });
  }
  return watch;
}

/** Never a draft: noted for staff, and the picture is asked for again with a new seed. */
async function discard(job: GeneratorJob, picture: PlannedPicture, attempt: number, rejection: { reason: string; distance?: number }): Promise<void> {
  job.discarded.push({ picture: picture.index, attempt, ...rejection });
  job.ctx.deps.log.info({ orderId: job.order.id, picture: picture.index, attempt, reason: rejection.reason, distance: rejection.distance }, 'generator picture discarded by the gate');
  // Its prediction is settled: the next round asks anew instead of resuming it.
  await job.summary({ status: 'discarded', predictionId: undefined, webhook: undefined });
}

/** Makes one picture of the plan (or gives it up); `abandoned` when the order no longer wants the run's pictures. */
export async function makePicture(job: GeneratorJob, picture: PlannedPicture): Promise<'made' | 'abandoned'> {
  while (!job.missing.has(picture.index) && !(await job.stored(picture))) {
    const asked = (await resumed(job, picture)) ?? (await askAnew(job, picture));
    if (!asked) break;
    const watch = await awaitEnd(job, picture, asked);
    if (!watch) return 'abandoned';
    const { prediction } = watch;
    if (await job.stored(picture)) break;
    if (!watch.rejection) {
      if (prediction.status === 'failed' || prediction.status === 'canceled') throw new GeneratorError(`prediction ${prediction.id} ${prediction.status}: ${prediction.error ?? 'no reason given'}`, null, watch.finalFailure);
      if (!(await job.wanted())) return 'abandoned';
      if (job.generator.kind === 'cog' && !watch.fromUploads) throw new GeneratorError(`prediction ${prediction.id} ended without its picture being stored (its webhook did not bring it)`);
      const outcome = await job.ctx.collect(job.order, job.generation, picture, asked.attempt, prediction, job.references);
      if (!outcome.stored) watch.rejection = { reason: outcome.reason, ...(outcome.distance !== undefined ? { distance: outcome.distance } : {}) };
    }
    if (watch.rejection) await discard(job, picture, asked.attempt, watch.rejection);
  }
  return 'made';
}
