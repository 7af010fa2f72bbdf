// What the app reaches the outside world through, made from the config unless a test hands its own in: the
// database, file storage, mail, payments, the studio's models and the external image generator.
import type { FastifyInstance } from 'fastify';
import { createInference, type Inference } from '../studio/inference/client.js';
import type { AppOverrides } from './app-types.js';
import type { AppConfig } from './config.js';
import { openDatabase, type DatabaseHandle } from './db/client.js';
import { createGenerator } from './generator/create-generator.js';
import { checkGenerator } from './generator/model-schema.js';
import type { ImageGenerator } from './generator/provider.js';
import { uploadUrlProblem } from './generator/upload-address.js';
import { createMailer, type Mailer } from './mail/mailer.js';
import { STUDIO_INFERENCE_WORKER, STUDIO_MODELS_DIR } from './paths.js';
import { createPaymentProvider } from './payment-providers/create-payment-provider.js';
import type { PaymentProvider } from './payment-providers/provider.js';
import { createStorage } from './storage/create-storage.js';
import type { Storage } from './storage/storage.js';

export interface AppAdapters {
  db: DatabaseHandle;
  storage: Storage;
  mailer: Mailer;
  payments: PaymentProvider;
  now: () => Date;
  inference: Inference;
  generator: ImageGenerator | null;
}

/** Opens the adapters, decorates the app with them, and closes what the app opened when it closes. */
export async function createAdapters(app: FastifyInstance, config: AppConfig, overrides: AppOverrides): Promise<AppAdapters> {
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
  const generator = overrides.generator !== undefined ? overrides.generator : config.generator ? createGenerator(config.generator) : null;
  return { db, storage, mailer, payments, now, inference, generator };
}

/**
 * Where the generator's jobs run, its profile is checked against the model's own published schema at start:
 * a mismatch is in the log before a paid order meets it (`npm run generator:check` prints the same).
 */
export function startGeneratorCheck(app: FastifyInstance, config: AppConfig, overrides: AppOverrides, generator: ImageGenerator | null): void {
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
}
