// Runs jobs: claims one at a time, renews its lease while the handler works, records the outcome.
// The shop process runs one (embedded mode, RUN_JOBS=true); `npm run worker` runs only this.
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import { isDatabaseUnavailable, unavailability } from '../db/errors.js';
import type { Job, JobPayload, JobProgress, JobQueue, Queue } from './queue.js';

/** A job interrupted by a database outage runs again this much later. */
const RELEASE_DELAY_MS = 2_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** How long a job may run when its queue declares no time limit of its own (`handlerOf`). */
export const DEFAULT_TIME_LIMIT_MS = 30 * 60 * 1000;

export interface JobContext<Progress extends JobProgress = JobProgress> {
  /** Reports progress (shown to staff) and renews the lease. */
  progress(progress: Progress): Promise<void>;
  /** Aborted when the job passes its queue's time limit: the attempt has failed, work still under way is wasted. */
  signal: AbortSignal;
}

/** Runs one job of a queue: its payload and progress as the queue declares them (`Queue`). */
export type JobHandler<Payload extends JobPayload = JobPayload, Progress extends JobProgress = JobProgress> = ((job: Job<Payload, Progress>, context: JobContext<Progress>) => Promise<void>) & {
  /** The queue's time limit (handlerOf); DEFAULT_TIME_LIMIT_MS when not given. */
  readonly timeLimitMs?: number;
};

export interface QueueLimits {
  /**
   * Longest a job of this queue may run. Past it the attempt counts as failed (tried again with backoff, or
   * dead at its last attempt), the handler's `signal` aborts, and the runner goes on with other jobs; what the
   * abandoned handler still writes through the queue is ignored (the job is no longer its claim's).
   */
  timeLimitMs: number;
}

/**
 * The runner's handler for `queue`: `handler` reads the payload and progress the queue declares. The runner
 * hands it only jobs of that queue, whose payloads `enqueue` checked against the same declaration.
 */
export function handlerOf<Payload extends JobPayload, Progress extends JobProgress>(queue: Queue<Payload, Progress>, handler: (job: Job<Payload, Progress>, context: JobContext<Progress>) => Promise<void>, limits?: QueueLimits): Record<string, JobHandler> {
  const run = (job: Job<Payload, Progress>, context: JobContext<Progress>) => handler(job, context);
  return { [queue]: Object.assign(run, { timeLimitMs: limits?.timeLimitMs }) as JobHandler };
}

/** The error an attempt fails with when its job ran past its queue's time limit. */
export class JobTimeLimitError extends Error {
  constructor(readonly queue: string, readonly limitMs: number) {
    super(`the job ran longer than its queue's time limit (${queue}: ${limitMs / 1000} s)`);
    this.name = 'JobTimeLimitError';
  }
}

export interface RunnerOptions {
  queue: JobQueue;
  handlers: Record<string, JobHandler>;
  log: FastifyBaseLogger;
  /** How long a claimed job stays this worker's without a heartbeat. */
  leaseMs?: number;
  /** Pause between polls when there is nothing to do. */
  idleMs?: number;
  /** Longest pause between rounds while the database cannot be reached. */
  maxBackoffMs?: number;
  workerId?: string;
  /**
   * Called after every job, whatever its outcome, and after each step a job reports (its progress: a studio job
   * reports each draft). app-services.ts: collects the garbage image work left (garbage.ts).
   */
  afterWork?: () => void;
}

export interface JobRunner {
  readonly workerId: string;
  start(): void;
  /** Finishes the job under way (if any), then stops. */
  stop(): Promise<void>;
  /** Runs due jobs until none is left (tests, scripts); returns how many ran. */
  drain(): Promise<number>;
}

export function createJobRunner(options: RunnerOptions): JobRunner {
  const leaseMs = options.leaseMs ?? 60_000;
  const idleMs = options.idleMs ?? 1000;
  const maxBackoffMs = options.maxBackoffMs ?? 30_000;
  const workerId = options.workerId ?? `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const queues = Object.keys(options.handlers);
  // Each claim is held under a name of its own (the worker's id and a count): what a handler abandoned at its
  // time limit writes later cannot touch the job once it is claimed again, even by this same worker.
  let claims = 0;
  let running = false;
  let loop: Promise<void> | null = null;
  let wake: (() => void) | null = null;

  /**
   * Records a job's outcome. While the database is away it tries again with growing pauses, up to the job's
   * lease (after that another worker may have the job anyway); then the error goes to the loop.
   */
  async function record(what: () => Promise<unknown>): Promise<void> {
    const deadline = Date.now() + leaseMs;
    for (let attempt = 0; ; attempt++) {
      try {
        await what();
        return;
      } catch (error) {
        if (!isDatabaseUnavailable(error) || Date.now() >= deadline) throw error;
        await sleep(Math.min(maxBackoffMs, 250 * 2 ** attempt));
      }
    }
  }

  /**
   * Whether a job's error came from a database outage. A refused or reset socket may as well be the object
   * store's or the mail server's: then only a database that does not answer now clears the job.
   */
  async function databaseWasAway(error: unknown): Promise<boolean> {
    const kind = unavailability(error);
    if (kind === 'database') return true;
    return kind === 'socket' && !(await options.queue.ping());
  }

  /** The handler's work, or its queue's time limit, whichever ends first (then the signal aborts the work). */
  async function runWithin(handler: JobHandler, job: Job, context: (signal: AbortSignal) => JobContext): Promise<void> {
    const limitMs = handler.timeLimitMs ?? DEFAULT_TIME_LIMIT_MS;
    const abort = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const work = handler(job, context(abort.signal));
    const limit = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new JobTimeLimitError(job.queue, limitMs)), limitMs);
    });
    try {
      await Promise.race([work, limit]);
    } catch (error) {
      if (error instanceof JobTimeLimitError) {
        abort.abort(error);
        // The abandoned work ends when it ends; its outcome no longer counts, but it is logged.
        work.then(
          () => options.log.warn({ jobId: job.id, queue: job.queue }, 'a job abandoned at its time limit finished later; its outcome was not recorded'),
          (late: unknown) => options.log.warn({ jobId: job.id, queue: job.queue, err: late }, 'a job abandoned at its time limit failed later'),
        );
      }
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  async function runOne(): Promise<boolean> {
    await options.queue.buryAbandoned();
    const owner = `${workerId}#${++claims}`;
    const job = await options.queue.claim(owner, queues, leaseMs);
    if (!job) return false;
    const handler = options.handlers[job.queue]!;
    const heartbeat = setInterval(() => {
      void options.queue.heartbeat(job.id, owner, leaseMs).catch(() => {});
    }, Math.max(1000, leaseMs / 3));
    let failure: { error: unknown } | null = null;
    try {
      await runWithin(handler, job, (signal) => ({
        signal,
        progress: async (progress) => {
          options.afterWork?.();
          await options.queue.progress(job.id, owner, progress);
          await options.queue.heartbeat(job.id, owner, leaseMs);
        },
      }));
    } catch (error) {
      failure = { error };
    } finally {
      clearInterval(heartbeat);
      options.afterWork?.();
    }
    if (!failure) {
      await record(() => options.queue.complete(job.id, owner));
      options.log.info({ jobId: job.id, queue: job.queue, attempt: job.attempts }, 'job done');
    } else if (!(failure.error instanceof JobTimeLimitError) && (await databaseWasAway(failure.error))) {
      // Not the job's fault: it goes back without using up an attempt and runs once the database answers.
      options.log.warn({ jobId: job.id, queue: job.queue, err: failure.error }, 'job interrupted: the database is unavailable; it runs again');
      await record(() => options.queue.release(job.id, owner, RELEASE_DELAY_MS));
    } else {
      const error = failure.error;
      const recorded: { outcome: 'retry' | 'dead' } = { outcome: 'retry' };
      await record(async () => {
        // An error that says trying again cannot help (`final: true`, as GeneratorError's) ends the job at once.
        const final = error instanceof Error && (error as { final?: unknown }).final === true;
        recorded.outcome = await options.queue.fail(job.id, owner, error instanceof Error ? (error.stack ?? error.message) : String(error), { final });
      });
      const { outcome } = recorded;
      options.log[outcome === 'dead' ? 'error' : 'warn']({ jobId: job.id, queue: job.queue, attempt: job.attempts, err: error }, outcome === 'dead' ? 'job failed for the last time' : 'job failed, will retry');
    }
    return true;
  }

  return {
    workerId,
    start() {
      if (running) return;
      running = true;
      loop = (async () => {
        // Consecutive rounds that could not reach the database: the pause between them grows (1 s, 2 s, 4 s, …
        // at most maxBackoffMs), and the outage is logged once, not every second.
        let failures = 0;
        while (running) {
          let worked = false;
          try {
            worked = await runOne();
            if (failures > 0) options.log.info({ failures }, 'job runner resumed');
            failures = 0;
          } catch (error) {
            failures++;
            if (failures === 1) options.log.error({ err: error }, 'job runner cannot reach the database; backing off');
          }
          if (!worked && running) {
            const pause = failures > 0 ? Math.min(maxBackoffMs, idleMs * 2 ** (failures - 1)) : idleMs;
            await new Promise<void>((resolve) => {
              const timer = setTimeout(resolve, pause);
              wake = () => {
                clearTimeout(timer);
                resolve();
              };
            });
            wake = null;
          }
        }
      })();
    },
    async stop() {
      running = false;
      wake?.();
      await loop;
      loop = null;
    },
    async drain() {
      let count = 0;
      while (await runOne()) count++;
      return count;
    },
  };
}
