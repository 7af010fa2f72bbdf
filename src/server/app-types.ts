// What the app carries (its Fastify decorators) and what tests and the worker may put in place of the configured
// adapters: the types every part of the composition root (app.ts, app-*.ts) shares, so none imports app.ts.
import type { Inference } from '../studio/inference/client.js';
import type { AppConfig } from './config.js';
import type { DatabaseHandle } from './db/client.js';
import type { ImageGenerator } from './generator/provider.js';
import type { JobQueue } from './jobs/queue.js';
import type { JobRunner } from './jobs/runner.js';
import type { Mailer } from './mail/mailer.js';
import type { AuthService } from './modules/auth/auth-service.js';
import type { InvoiceService } from './modules/invoices/invoice-service.js';
import type { createDelayNotices } from './modules/orders/delay-notices.js';
import type { PaymentEventService } from './modules/orders/payment-events.js';
import type { StudioService } from './modules/production/studio-service.js';
import type { RetentionService } from './modules/retention/retention-service.js';
import type { PaymentProvider } from './payment-providers/provider.js';
import type { Storage } from './storage/storage.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: AppConfig;
    db: DatabaseHandle;
    storage: Storage;
    mailer: Mailer;
    payments: PaymentProvider;
    retention: RetentionService;
    delayNotices: ReturnType<typeof createDelayNotices>;
    auth: AuthService;
    /** Face detection and person segmentation (a worker thread, started on first use). */
    inference: Inference;
    jobs: JobQueue;
    invoices: InvoiceService;
    studio: StudioService;
    /** Payment events and the reconciliation with the provider (orders/payment-events.ts). */
    paymentEvents: PaymentEventService;
    /** The job runner of this process (null when RUN_JOBS=false). */
    jobRunner: JobRunner | null;
    /** Every route the app registered, so tests can walk them (for example all of /api/admin). */
    routeTable: { method: string; url: string }[];
    /** The clock; tests may replace it. */
    now: () => Date;
    /** The generator profile's check against its model's schema at start, and its problems (null: not checked here). */
    generatorCheck: Promise<string[]> | null;
  }
}

export interface AppOverrides {
  db?: DatabaseHandle;
  storage?: Storage;
  mailer?: Mailer;
  payments?: PaymentProvider;
  inference?: Inference;
  /** An image generator in place of the configured HTTP one (null: none). */
  generator?: ImageGenerator | null;
  generatorPollMs?: number;
  /** Cog: between two repeats of the idempotent PUT (default a minute). */
  generatorRecheckMs?: number;
  /** Tests run jobs themselves (jobRunner.drain()) instead of in the background. */
  startJobs?: boolean;
  /** Uploads checked at once before photos go to the photo-check queue (tests: 0, every photo waits). */
  inlineUploads?: number;
  now?: () => Date;
  /** Logger options; tests pass false. */
  logger?: boolean;
  /**
   * Whether the web pages are served (default true). A worker process (worker-main.ts) answers no HTTP: it
   * does not load the pages' modules, which every web process loads before it starts.
   */
  webPages?: boolean;
  /** Where log lines go instead of stdout (tests capture them to check what is logged). */
  logStream?: { write(line: string): void };
}
