// Runs jobs: claims one at a time, renews its lease while the handler works, records the outcome.
// The shop process runs one (embedded mode, RUN_JOBS=true); `npm run worker` runs only this.
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { JobQueue, JobRow } from './queue.js';

export interface JobContext {
  /** Reports progress (shown to staff) and renews the lease. */
  progress(progress: Record<string, unknown>): Promise<void>;
}

export type JobHandler = (job: JobRow, context: JobContext) => Promise<void>;

export interface RunnerOptions {
  queue: JobQueue;
  handlers: Record<string, JobHandler>;
  log: FastifyBaseLogger;
  /** How long a claimed job stays this worker's without a heartbeat. */
  leaseMs?: number;
  /** Pause between polls when there is nothing to do. */
  idleMs?: number;
  workerId?: string;
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
  const workerId = options.workerId ?? `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const queues = Object.keys(options.handlers);
  let running = false;
  let loop: Promise<void> | null = null;
  let wake: (() => void) | null = null;

  async function runOne(): Promise<boolean> {
    await options.queue.buryAbandoned();
    const job = await options.queue.claim(workerId, queues, leaseMs);
    if (!job) return false;
    const handler = options.handlers[job.queue]!;
    const heartbeat = setInterval(() => {
      void options.queue.heartbeat(job.id, workerId, leaseMs).catch(() => {});
    }, Math.max(1000, leaseMs / 3));
    try {
      await handler(job, {
        progress: async (progress) => {
          await options.queue.progress(job.id, workerId, progress);
          await options.queue.heartbeat(job.id, workerId, leaseMs);
        },
      });
      await options.queue.complete(job.id, workerId);
      options.log.info({ jobId: job.id, queue: job.queue, attempt: job.attempts }, 'job done');
    } catch (error) {
      const outcome = await options.queue.fail(job.id, workerId, error instanceof Error ? (error.stack ?? error.message) : String(error));
      options.log[outcome === 'dead' ? 'error' : 'warn']({ jobId: job.id, queue: job.queue, attempt: job.attempts, err: error }, outcome === 'dead' ? 'job failed for the last time' : 'job failed, will retry');
    } finally {
      clearInterval(heartbeat);
    }
    return true;
  }

  return {
    workerId,
    start() {
      if (running) return;
      running = true;
      loop = (async () => {
        while (running) {
          let worked = false;
          try {
            worked = await runOne();
          } catch (error) {
            // The database may be away for a moment; try again after the pause.
            options.log.error({ err: error }, 'job runner could not claim a job');
          }
          if (!worked && running) {
            await new Promise<void>((resolve) => {
              const timer = setTimeout(resolve, idleMs);
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
