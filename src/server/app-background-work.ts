// What every app process does on its own beside requests and jobs: the sweep of half-written files at the start,
// then the periodic deletions, payment reconciliation and delay notices.
import type { FastifyInstance } from 'fastify';
import type { AppServices } from './app-services.js';
import type { AppConfig } from './config.js';
import { schedulePeriodic } from './jobs/periodic.js';
import { RECONCILE } from './modules/orders/payment-reconciliation.js';

/** At the start, temporary files older than this are left over from a crash. */
const STARTUP_TEMPORARY_STALE_MS = 5 * 60 * 1000;

export function scheduleBackgroundWork(app: FastifyInstance, config: AppConfig, services: Pick<AppServices, 'storage' | 'retention' | 'delayNotices'>): void {
  const { storage, retention, delayNotices } = services;
  // What a crash left half-written goes at the start (a sibling process's write under way is younger).
  app.addHook('onReady', async () => {
    const removed = await storage.sweepTemporary(STARTUP_TEMPORARY_STALE_MS).catch((error: unknown) => {
      app.log.warn({ err: error }, 'temporary files could not be swept');
      return 0;
    });
    if (removed) app.log.info({ removed }, 'temporary files of interrupted writes removed');
  });
  if (config.retentionIntervalMinutes > 0) {
    let stop = () => {};
    app.addHook('onReady', async () => {
      const stopRetention = schedulePeriodic(() => retention.run(), { name: 'retention', intervalMs: config.retentionIntervalMinutes * 60_000, log: app.log });
      // Every process asks; a shared counter lets one per window call the provider.
      const stopReconcile = schedulePeriodic(() => app.paymentEvents.reconcileOpenCheckouts(), { name: 'payment-reconciliation', intervalMs: RECONCILE.everyMs, firstDelayMs: 30_000, log: app.log });
      // A promised time that passed is owned up to within minutes (the mail's key keeps it single across processes).
      const stopDelays = schedulePeriodic(() => delayNotices.run(), { name: 'delay-notices', intervalMs: 5 * 60_000, firstDelayMs: 60_000, log: app.log });
      stop = () => {
        stopRetention();
        stopReconcile();
        stopDelays();
      };
    });
    app.addHook('onClose', async () => stop());
  }
}
