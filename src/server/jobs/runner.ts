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

export interface JobContext<Progress extends JobProgress = JobProgress> {
  /** Reports progress (shown to staff) and renews the lease. */
  progress(progress: Progress): Promise<void>;
}

/** Runs one job of a queue: its payload and progress as the queue declares them (`Queue`). */
export type JobHandler<Payload extends JobPayload = JobPayload, Progress extends JobProgress = JobProgress> = (job: Job<Payload, Progress>, context: JobContext<Progress>) => Promise<void>;

/**
 * The runner's handler for `queue`: `handler` reads the payload and progress the queue declares. The runner
 * hands it only jobs of that queue, whose payloads `enqueue` checked against the same declaration.
 */
export function handlerOf<Payload extends JobPayload, Progress extends JobProgress>(queue: Queue<Payload, Progress>, handler: JobHandler<Payload, Progress>): Record<string, JobHandler> {
  return { [queue]: handler as JobHandler };
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
   * reports each draft). app.ts: collects the garbage image work left (garbage.ts).
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

  async function runOne(): Promise<boolean> {
    await options.queue.buryAbandoned();
    const job = await options.queue.claim(workerId, queues, leaseMs);
    if (!job) return false;
    const handler = options.handlers[job.queue]!;
    const heartbeat = setInterval(() => {
      void options.queue.heartbeat(job.id, workerId, leaseMs).catch(() => {});
    }, Math.max(1000, leaseMs / 3));
    let failure: { error: unknown } | null = null;
    try {
      await handler(job, {
        progress: async (progress) => {
          options.afterWork?.();
          await options.queue.progress(job.id, workerId, progress);
          await options.queue.heartbeat(job.id, workerId, leaseMs);
        },
      });
    } catch (error) {
      failure = { error };
    } finally {
      clearInterval(heartbeat);
      options.afterWork?.();
    }
    if (!failure) {
      await record(() => options.queue.complete(job.id, workerId));
      options.log.info({ jobId: job.id, queue: job.queue, attempt: job.attempts }, 'job done');
    } else if (await databaseWasAway(failure.error)) {
      // Not the job's fault: it goes back without using up an attempt and runs once the database answers.
      options.log.warn({ jobId: job.id, queue: job.queue, err: failure.error }, 'job interrupted: the database is unavailable; it runs again');
      await record(() => options.queue.release(job.id, workerId, RELEASE_DELAY_MS));
    } else {
      const error = failure.error;
      const recorded: { outcome: 'retry' | 'dead' } = { outcome: 'retry' };
      await record(async () => {
        // An error that says trying again cannot help (`final: true`, as GeneratorError's) ends the job at once.
        const final = error instanceof Error && (error as { final?: unknown }).final === true;
        recorded.outcome = await options.queue.fail(job.id, workerId, error instanceof Error ? (error.stack ?? error.message) : String(error), { final });
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
