// The shop's services over the adapters (app-adapters.ts), the ones other parts reach through the app as typed
// decorators, and the job runners that work the queue in this process.
import type { FastifyInstance } from 'fastify';
import type { AppAdapters } from './app-adapters.js';
import type { AppOverrides } from './app-types.js';
import { shopCapabilities } from './capabilities.js';
import type { AppConfig } from './config.js';
import { createGarbageRelease } from './jobs/garbage.js';
import { createJobQueue, type JobQueue } from './jobs/queue.js';
import { createJobRunner, type RunnerOptions } from './jobs/runner.js';
import { deferredMailHandler } from './mail/deferred-mail.js';
import { createAdminService } from './modules/admin/admin-service.js';
import { createAuthService, type AuthService } from './modules/auth/auth-service.js';
import { registerStaffGuard } from './modules/auth/guard.js';
import { createCustomerOrderService } from './modules/customer-orders/customer-order-service.js';
import { createInvoiceService } from './modules/invoices/invoice-service.js';
import { createOrderLifecycle, productionStarter } from './modules/order-lifecycle/order-lifecycle.js';
import { createDelayNotices } from './modules/orders/delay-notices.js';
import { createOrderService } from './modules/orders/order-service.js';
import { createGeneratorService } from './modules/production/generator-service.js';
import { createPhotoCheck } from './modules/production/photo-quality.js';
import { createStudioService, type StudioService } from './modules/production/studio-service.js';
import { createRefundService } from './modules/refunds/refund-service.js';
import { createRetentionService, type RetentionService } from './modules/retention/retention-service.js';
import { createTeamService } from './modules/teams/team-service.js';
import { createWithdrawalDesk } from './modules/withdrawals/routes.js';
import { createWithdrawalService } from './modules/withdrawals/withdrawal-service.js';

/** How often the photo-check queue's own runner looks for work when it has none. */
const PHOTO_CHECK_IDLE_MS = 300;

export interface AppServices extends AppAdapters {
  auth: AuthService;
  studio: StudioService;
  generatorService: ReturnType<typeof createGeneratorService>;
  orders: ReturnType<typeof createOrderService>;
  teams: ReturnType<typeof createTeamService>;
  customerOrders: ReturnType<typeof createCustomerOrderService>;
  admin: ReturnType<typeof createAdminService>;
  refunds: ReturnType<typeof createRefundService>;
  withdrawals: ReturnType<typeof createWithdrawalService>;
  withdrawalDesk: ReturnType<typeof createWithdrawalDesk>;
  retention: RetentionService;
  delayNotices: ReturnType<typeof createDelayNotices>;
}

export function createServices(app: FastifyInstance, config: AppConfig, overrides: AppOverrides, adapters: AppAdapters): AppServices {
  const { db, storage, mailer, payments, inference, generator, now } = adapters;
  const checkPhoto = createPhotoCheck(inference, app.log);
  const invoices = createInvoiceService({ db: db.db, storage, site: config.site, paymentProviderLabel: config.payments.provider === 'stripe' ? 'Stripe' : 'Sandbox (Test)', now });
  app.decorate('invoices', invoices);
  const refunds = createRefundService({ db: db.db, payments, invoices, mailer, site: config.site, publicUrl: config.publicUrl, appSecret: config.appSecret, now, log: app.log });
  const jobQueue = createJobQueue(db.db, now);
  const studio = createStudioService({ db: db.db, storage, inference, queue: jobQueue, now, log: app.log });
  app.decorate('jobs', jobQueue);
  app.decorate('studio', studio);
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
  startJobRunners(app, config, overrides, {
    jobQueue,
    handlers: { ...studio.handlers, ...generatorService.handlers, ...orders.handlers, ...deferredMailHandler(orders.paymentEvents.mailSenders) },
    photoCheckHandlers: orders.handlers,
  });

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
  const withdrawals = createWithdrawalService({ db: db.db, payments, mailer, site: config.site, supportEmail: config.mail.supportEmail, now, log: app.log });
  const withdrawalDesk = createWithdrawalDesk(db.db, now, withdrawals);

  const retention = createRetentionService({ db, storage, now, log: app.log });
  app.decorate('retention', retention);
  const delayNotices = createDelayNotices({ db: db.db, now, log: app.log });
  app.decorate('delayNotices', delayNotices);
  return { ...adapters, auth, studio, generatorService, orders, teams, customerOrders, admin, refunds, withdrawals, withdrawalDesk, retention, delayNotices };
}

type JobHandlers = RunnerOptions['handlers'];

/** The job runners of this process (none when RUN_JOBS=false), started when the app is ready. */
function startJobRunners(
  app: FastifyInstance,
  config: AppConfig,
  overrides: AppOverrides,
  work: { jobQueue: JobQueue; handlers: JobHandlers; photoCheckHandlers: JobHandlers },
): void {
  const { jobQueue } = work;
  // Shared by both runners: what their image work leaves behind is collected (with --expose-gc, garbage.ts).
  const afterWork = createGarbageRelease();
  const jobRunner = config.runJobs
    ? createJobRunner({
        queue: jobQueue,
        handlers: work.handlers,
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
    const photoCheckRunner = createJobRunner({ queue: jobQueue, handlers: work.photoCheckHandlers, log: app.log, idleMs: PHOTO_CHECK_IDLE_MS, afterWork });
    const runners = [jobRunner, photoCheckRunner];
    app.addHook('onReady', async () => runners.forEach((runner) => runner.start()));
    // Before the onClose hooks close the database and the models: the jobs under way finish first.
    app.addHook('preClose', async () => {
      await Promise.all(runners.map((runner) => runner.stop()));
    });
  }
}
