// Builds the Fastify app from a validated config: external plugins, then app services as
// typed decorators, then feature routes. Tests build it too (with their own database).
import { randomUUID } from 'node:crypto';
import { constants as zlibConstants } from 'node:zlib';
import { existsSync } from 'node:fs';
import path from 'node:path';
import compress from '@fastify/compress';
import helmet from '@fastify/helmet';
import Fastify, { type FastifyInstance } from 'fastify';
import type { AppConfig } from './config.js';
import { openDatabase, type DatabaseHandle } from './db/client.js';
import { loggableError } from './db/errors.js';
import { clientErrorHandler, frameworkErrorHandler, registerErrorHandling } from './http/error-handler.js';
import { registerBodyTimeouts } from './http/timeouts.js';
import { zodSerializerCompiler, zodValidatorCompiler } from './http/zod-provider.js';
import { createMailer, type Mailer } from './mail/mailer.js';
import { outboxRoutes } from './mail/outbox-routes.js';
import { catalogRoutes } from './modules/catalog/routes.js';
import { healthRoutes } from './modules/health/routes.js';
import { createAdminService } from './modules/admin/admin-service.js';
import { adminRoutes } from './modules/admin/routes.js';
import { createAuthService, type AuthService } from './modules/auth/auth-service.js';
import { registerStaffGuard } from './modules/auth/guard.js';
import { authRoutes } from './modules/auth/routes.js';
import { contactRoutes } from './modules/contact/routes.js';
import { createCustomerOrderService } from './modules/customer-orders/customer-order-service.js';
import { customerOrderRoutes } from './modules/customer-orders/routes.js';
import { createOrderService } from './modules/orders/order-service.js';
import { createTeamService } from './modules/teams/team-service.js';
import { teamRoutes } from './modules/teams/routes.js';
import { shopCapabilities } from './capabilities.js';
import { RECONCILE, type PaymentEventService } from './modules/orders/payment-events.js';
import { createRetentionService, type RetentionService } from './modules/retention/retention-service.js';
import { schedulePeriodic } from './jobs/periodic.js';
import { orderRoutes } from './modules/orders/routes.js';
import { paymentRoutes } from './modules/payments/routes.js';
import { createPaymentProvider } from './payment-providers/create-payment-provider.js';
import type { PaymentProvider } from './payment-providers/provider.js';
import { PROJECT_ROOT, STUDIO_INFERENCE_WORKER, STUDIO_MODELS_DIR, WEB_DIST_DIR } from './paths.js';
import { createInference, type Inference } from '../studio/inference/client.js';
import { createGenerator } from './generator/create-generator.js';
import { checkGenerator } from './generator/model-schema.js';
import type { ImageGenerator } from './generator/provider.js';
import { createJobQueue, type JobQueue } from './jobs/queue.js';
import { deferredMailHandler } from './mail/deferred-mail.js';
import { createInvoiceService, type InvoiceService } from './modules/invoices/invoice-service.js';
import { createOrderLifecycle, productionStarter } from './modules/order-lifecycle/order-lifecycle.js';
import { createRefundService } from './modules/refunds/refund-service.js';
import { refundRoutes } from './modules/refunds/routes.js';
import { createWithdrawalDesk, withdrawalRoutes } from './modules/withdrawals/routes.js';
import { createWithdrawalService } from './modules/withdrawals/withdrawal-service.js';
import { createGeneratorService } from './modules/production/generator-service.js';
import { createDelayNotices } from './modules/orders/delay-notices.js';
import { uploadUrlProblem } from './generator/upload-address.js';
import { createGarbageRelease } from './jobs/garbage.js';
import { createJobRunner, type JobRunner } from './jobs/runner.js';
import { createPhotoCheck } from './modules/production/photo-quality.js';
import { studioRoutes } from './modules/production/routes.js';
import { createStudioService, type StudioService } from './modules/production/studio-service.js';
import { createStorage } from './storage/create-storage.js';
import { localFilesRoutes } from './storage/local-files-routes.js';
import type { LocalStorage } from './storage/local-storage.js';
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

/** How often the photo-check queue's own runner looks for work when it has none. */
const PHOTO_CHECK_IDLE_MS = 300;

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

/**
 * Logs carry no personal data: errors without query parameters (db/errors.ts), requests without query
 * values (status tokens, download signatures and e-mail addresses travel in query strings).
 */
export const logSerializers = {
  err: loggableError,
  req(request: { method: string; url: string; hostname?: string; ip?: string; socket?: { remotePort?: number } }) {
    const [pathname, query] = request.url.split('?', 2) as [string, string | undefined];
    const keys = query ? [...new URLSearchParams(query).keys()].map((key) => `${key.slice(0, 40)}=…`) : [];
    return {
      method: request.method,
      url: keys.length ? `${pathname.slice(0, 300)}?${keys.join('&')}` : pathname.slice(0, 300),
      host: request.hostname,
      remoteAddress: request.ip,
    };
  },
};

/** At the start, temporary files older than this are left over from a crash. */
const STARTUP_TEMPORARY_STALE_MS = 5 * 60 * 1000;

export function contentSecurityPolicy(config: AppConfig): Record<string, string[]> {
  const imgSources = ["'self'", 'data:', 'blob:'];
  if (config.storage.driver === 's3') {
    // Presigned links point at the bucket's host.
    imgSources.push(
      config.storage.endpoint ? new URL(config.storage.endpoint).origin : `https://${config.storage.bucket}.s3.${config.storage.region}.amazonaws.com`,
    );
  }
  for (const pair of config.examples) {
    for (const image of [pair.before, pair.after]) if (image.src.startsWith('https://')) imgSources.push(new URL(image.src).origin);
  }
  // Analytics and chat (only when configured) load after consent; their scripts talk to their own origin.
  const thirdParty = [config.consentServices.analytics, config.consentServices.chat].flatMap((s) => (s ? [new URL(s.scriptUrl).origin] : []));
  return {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'", ...thirdParty],
    styleSrc: ["'self'"],
    imgSrc: [...new Set([...imgSources, ...thirdParty])],
    connectSrc: ["'self'", ...thirdParty],
    frameSrc: thirdParty.length ? thirdParty : ["'none'"],
    fontSrc: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
    ...(config.env === 'production' ? { upgradeInsecureRequests: [] } : {}),
  };
}

export async function buildApp(config: AppConfig, overrides: AppOverrides = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger:
      overrides.logger === false
        ? false
        : { level: config.logLevel, serializers: logSerializers, ...(overrides.logStream ? { stream: overrides.logStream } : {}) },
    genReqId: () => randomUUID(),
    // Fastify gives each plugin 10 s to start. The web routes load every page's module first: from the
    // TypeScript sources (tests, development) on a busy machine that took longer, and a start is better slow
    // than failed. A plugin that truly hangs still fails the start after a minute.
    pluginTimeout: 60_000,
    // A client-sent id is not trusted: it would let anyone forge log correlation.
    requestIdHeader: false,
    // A number means "this many proxies in front": only their X-Forwarded-For entries are believed.
    trustProxy: typeof config.trustProxy === 'number' ? ((_address: string, hop: number) => hop < (config.trustProxy as number)) : config.trustProxy,
    bodyLimit: 1024 * 1024,
    // Slow clients are cut off (http/timeouts.ts): the whole request, the request line and headers, checked
    // every second instead of Node's 30 s.
    requestTimeout: config.timeouts.requestMs,
    http: { headersTimeout: config.timeouts.headersMs, connectionsCheckingInterval: 1000 },
    // What goes wrong before a route or a request exists answers in our error shape too (http/error-handler.ts).
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
  });
  app.setValidatorCompiler(zodValidatorCompiler);
  app.setSerializerCompiler(zodSerializerCompiler);
  registerErrorHandling(app);
  registerBodyTimeouts(app, { bodyMs: config.timeouts.bodyMs });
  const routeTable: { method: string; url: string }[] = [];
  app.decorate('routeTable', routeTable);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routeTable.push({ method, url: route.url });
  });

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  await app.register(helmet, {
    // A fresh nonce per answer: React's few inline scripts (Suspense reveal timing) carry it; nothing else runs.
    enableCSPNonces: true,
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy(config) },
    hsts: config.env === 'production' ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    frameguard: { action: 'deny' },
    crossOriginEmbedderPolicy: false,
  });

  // Pages and API answers are compressed on the fly (a fast brotli level: a page costs about a millisecond;
  // level 6 costs what 5 does and makes a page about 200 bytes smaller, which keeps the larger pages within
  // the first round trip of a new connection, about 14 KB);
  // built assets are compressed once at build time and served as .br/.gz files. Request bodies are never
  // inflated: the body limit must hold for what arrives on the wire.
  await app.register(compress, {
    global: true,
    globalDecompression: false,
    encodings: ['br', 'gzip'],
    threshold: 1024,
    brotliOptions: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 6 } },
  });

  const db =
    overrides.db ??
    (await openDatabase(
      config.database.kind === 'postgres'
        ? { ...config.database, onConnectionError: (error) => app.log.warn({ err: error }, 'database connection lost; the pool replaces it') }
        : config.database,
    ));
  const storage = overrides.storage ?? createStorage(config.storage, { secret: config.appSecret, defaultTtlSeconds: config.signedUrlTtlSeconds });
  const mailer = overrides.mailer ?? createMailer({ db: db.db, smtpUrl: config.mail.smtpUrl, from: config.mail.from, logger: app.log });
  app.decorate('config', config);
  app.decorate('db', db);
  app.decorate('storage', storage);
  const now = overrides.now ?? (() => new Date());
  const payments = overrides.payments ?? createPaymentProvider(config.payments, { db: db.db, publicUrl: config.publicUrl, appSecret: config.appSecret, now });
  app.decorate('mailer', mailer);
  app.decorate('payments', payments);
  app.decorate('now', now);
  app.addHook('onClose', async () => {
    await mailer.close();
    // A database handed in by a test belongs to the test.
    if (!overrides.db) await db.close();
  });

  // A worker (jobs, no web pages) makes drafts beside its photo checks: its pose model loads first, which keeps the
  // models' memory lower once both have run (tf-runtime.ts). A shop process that also answers customers checks
  // their uploads while they wait and makes drafts now and then: there the pose model loads on first use, as the
  // first check after the models' thread starts would wait about 0.5 s for it, and a run of checks alone would
  // carry its memory (bench/order-flow, ten uploads to `npm start`: 212-218 MB above idle with it, 151-156 without).
  const posesFirst = config.runJobs && overrides.webPages === false;
  const inference =
    overrides.inference ?? createInference({ workerFile: STUDIO_INFERENCE_WORKER, modelDir: STUDIO_MODELS_DIR, nice: config.backgroundNice, posesFirst });
  app.decorate('inference', inference);
  app.addHook('onClose', async () => {
    if (!overrides.inference) await inference.close();
  });
  const checkPhoto = createPhotoCheck(inference, app.log);
  const invoices = createInvoiceService({ db: db.db, storage, site: config.site, paymentProviderLabel: config.payments.provider === 'stripe' ? 'Stripe' : 'Sandbox (Test)', now });
  app.decorate('invoices', invoices);
  const refunds = createRefundService({ db: db.db, payments, invoices, mailer, site: config.site, publicUrl: config.publicUrl, appSecret: config.appSecret, now, log: app.log });
  const jobQueue = createJobQueue(db.db, now);
  const studio = createStudioService({ db: db.db, storage, inference, queue: jobQueue, now, log: app.log });
  app.decorate('jobs', jobQueue);
  app.decorate('studio', studio);
  const generator = overrides.generator !== undefined ? overrides.generator : config.generator ? createGenerator(config.generator) : null;
  // Where the generator's jobs run, its profile is checked against the model's own published schema at start:
  // a mismatch is in the log before a paid order meets it (`npm run generator:check` prints the same).
  const generatorCheck =
    generator && config.runJobs && overrides.generator === undefined
      ? checkGenerator(generator).then((problems) => {
          // A Cog container sends its pictures to the shop's upload address: it must be one the network may carry them over.
          const upload = generator.kind === 'cog' ? uploadUrlProblem(config.publicUrl) : null;
          if (upload) app.log.error({ event: 'generator_upload_address', problem: upload }, 'the Cog container cannot be given a safe upload address');
          if (problems.length) app.log.error({ event: 'generator_profile_mismatch', model: generator.model, profile: generator.profile.key, problems }, 'the generator profile does not fit the model: run npm run generator:check');
          else app.log.info({ event: 'generator_profile_checked', model: generator.model, profile: generator.profile.key }, 'the generator profile fits the model');
          return problems;
        })
      : null;
  app.decorate('generatorCheck', generatorCheck);
  const generatorService = createGeneratorService({
    inference,
    db: db.db,
    storage,
    generator,
    queue: jobQueue,
    publicUrl: config.publicUrl,
    webhookSecret: config.generator?.webhookSecret ?? null,
    now,
    log: app.log,
    ...(overrides.generatorPollMs ? { pollMs: overrides.generatorPollMs } : {}),
    ...(overrides.generatorRecheckMs ? { recheckMs: overrides.generatorRecheckMs } : {}),
  });

  const auth = createAuthService({ db: db.db, now });
  app.decorate('auth', auth);
  registerStaffGuard(app, auth);

  await app.register(healthRoutes);
  await app.register(catalogRoutes);
  const startProduction = productionStarter({ studio, generator: generatorService });
  const teams = createTeamService({
    db: db.db,
    storage,
    payments,
    mailer,
    appSecret: config.appSecret,
    publicUrl: config.publicUrl,
    site: config.site,
    campaign: config.campaign,
    capabilities: shopCapabilities(config),
    defaultProductionMode: config.defaultProductionMode,
    signedUrlTtlSeconds: config.signedUrlTtlSeconds,
    invoices,
    startProduction,
    now,
    log: app.log,
  });
  const orders = createOrderService({
    db: db.db,
    storage,
    mailer,
    payments,
    campaign: config.campaign,
    publicUrl: config.publicUrl,
    appSecret: config.appSecret,
    site: config.site,
    signedUrlTtlSeconds: config.signedUrlTtlSeconds,
    checkPhoto,
    inlineUploads: overrides.inlineUploads ?? config.inlineUploadChecks,
    defaultProductionMode: config.defaultProductionMode,
    capabilities: shopCapabilities(config),
    lifecycle: createOrderLifecycle({ invoices, teams, refunds, startProduction, publicUrl: config.publicUrl, appSecret: config.appSecret, now }),
    now,
    log: app.log,
  });
  app.decorate('paymentEvents', orders.paymentEvents);
  // Shared by both runners: what their image work leaves behind is collected (with --expose-gc, garbage.ts).
  const afterWork = createGarbageRelease();
  const jobRunner = config.runJobs
    ? createJobRunner({
        queue: jobQueue,
        handlers: { ...studio.handlers, ...generatorService.handlers, ...orders.handlers, ...deferredMailHandler(orders.paymentEvents.mailSenders) },
        log: app.log,
        afterWork,
      })
    : null;
  app.decorate('jobRunner', jobRunner);
  if (jobRunner && overrides.startJobs !== false) {
    // Photos waiting for their check have a runner of their own: a customer in the wizard does not wait
    // behind the drafts of paid orders. One: the general runner takes photo checks too when it has no drafts
    // to make, so two checks run at once on an idle worker (a second check runner, a third job beside a check
    // and a render, raised the worker's peak on two cores for no gain).
    const photoCheckRunner = createJobRunner({ queue: jobQueue, handlers: orders.handlers, log: app.log, idleMs: PHOTO_CHECK_IDLE_MS, afterWork });
    const runners = [jobRunner, photoCheckRunner];
    app.addHook('onReady', async () => runners.forEach((runner) => runner.start()));
    // Before the onClose hooks close the database and the models: the jobs under way finish first.
    app.addHook('preClose', async () => {
      await Promise.all(runners.map((runner) => runner.stop()));
    });
  }
  await app.register(orderRoutes, { service: orders });
  await app.register(paymentRoutes, { service: orders, provider: payments });
  const customerOrders = createCustomerOrderService({
    db: db.db,
    storage,
    appSecret: config.appSecret,
    signedUrlTtlSeconds: config.signedUrlTtlSeconds,
    site: config.site,
    invoices,
    mailer,
    publicUrl: config.publicUrl,
    now,
    log: app.log,
  });
  await app.register(customerOrderRoutes, { service: customerOrders });
  await app.register(teamRoutes, { service: teams });

  await app.register(contactRoutes);
  await app.register(authRoutes, { auth });
  const admin = createAdminService({
    db: db.db,
    storage,
    mailer,
    appSecret: config.appSecret,
    publicUrl: config.publicUrl,
    site: config.site,
    signedUrlTtlSeconds: config.signedUrlTtlSeconds,
    now,
    log: app.log,
  });
  await app.register(adminRoutes, { service: admin });
  await app.register(studioRoutes, { studio, generator: generatorService });
  await app.register(refundRoutes, { refunds });
  const withdrawals = createWithdrawalService({ db: db.db, payments, mailer, site: config.site, supportEmail: config.mail.supportEmail, now, log: app.log });
  const withdrawalDesk = createWithdrawalDesk(db.db, now, withdrawals);
  await app.register(withdrawalRoutes, { withdrawals, desk: withdrawalDesk });
  await app.register(generatorService.webhookRoutes);

  const retention = createRetentionService({ db, storage, now, log: app.log });
  app.decorate('retention', retention);
  const delayNotices = createDelayNotices({ db: db.db, now, log: app.log });
  app.decorate('delayNotices', delayNotices);
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
  if (storage.driver === 'local') {
    await app.register(localFilesRoutes, { storage: storage as LocalStorage, secret: config.appSecret });
  }
  if (config.env !== 'production') await app.register(outboxRoutes, { db: db.db });

  if (overrides.webPages === false) return app;
  // Imported here, not at the top: a worker process loads neither React nor the pages (nor the page list
  // that the page-view counter and the sitemap read from them).
  const [{ webRoutes }, { metricsRoutes }, { seoRoutes }] = await Promise.all([import('./modules/web/routes.js'), import('./modules/metrics/routes.js'), import('./modules/seo/routes.js')]);
  await app.register(metricsRoutes);
  await app.register(seoRoutes);
  const built = existsSync(path.join(WEB_DIST_DIR, 'index.html'));
  await app.register(webRoutes, {
    templatePath: built ? path.join(WEB_DIST_DIR, 'index.html') : path.join(PROJECT_ROOT, 'index.html'),
    clientDir: built ? WEB_DIST_DIR : null,
    withdrawalDesk,
  });
  return app;
}
