// Work every process repeats on a timer (the deletion job, asking the provider about open checkouts). A run
// that fails (the database is away) is tried again soon, with growing pauses, and the outage is logged once.
import type { FastifyBaseLogger } from 'fastify';

export interface PeriodicOptions {
  name: string;
  intervalMs: number;
  /** The first run, a little after the start. */
  firstDelayMs?: number;
  /** The pause after a first failure; it doubles with each further one, up to intervalMs. */
  retryMs?: number;
  log: FastifyBaseLogger;
}

/** Starts the timer; returns a function that stops it (a run under way finishes on its own). */
export function schedulePeriodic(run: () => Promise<unknown>, options: PeriodicOptions): () => void {
  const retryMs = options.retryMs ?? 5_000;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let failures = 0;
  const schedule = (ms: number) => {
    if (stopped) return;
    timer = setTimeout(tick, ms);
    timer.unref();
  };
  const tick = () => {
    run().then(
      () => {
        if (failures > 0) options.log.info({ job: options.name, failures }, 'periodic job resumed');
        failures = 0;
        schedule(options.intervalMs);
      },
      (error: unknown) => {
        failures++;
        if (failures === 1) options.log.error({ err: error, job: options.name }, 'periodic job failed; trying again soon');
        schedule(Math.min(options.intervalMs, retryMs * 2 ** (failures - 1)));
      },
    );
  };
  schedule(options.firstDelayMs ?? 5_000);
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
