// The only reader of process.env. A wrong setting stops the start with a message naming it.
// Each area's settings and their checks are in config/ (storage, payments, site, generator); this file puts
// them together in one schema and one AppConfig.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { Campaign } from '../domain/campaign.js';
import { PRODUCTION_MODES, type ProductionMode } from '../domain/order-state.js';
import type { ConsentServices, ExamplePair, SiteInfo } from '../domain/site.js';
import { bool, optionalString, url } from './config/fields.js';
import { generatorEnv, parseGenerator, type GeneratorConfig } from './config/generator.js';
import { campaignEnv, paymentsConfig, paymentsEnv, parseCampaign, type PaymentsConfig } from './config/payments.js';
import { checkLegalDetails, siteConfig, siteEnv } from './config/site.js';
import { databaseConfig, storageConfig, storageEnv, type DatabaseConfig, type StorageConfig } from './config/storage.js';
import { PROJECT_ROOT } from './paths.js';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

// The areas' parts stand where their settings always stood: a value's problems are listed in this order.
const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test'], { error: 'must be development, production or test' }).default('development'),
  PORT: z.coerce.number({ error: 'must be a port number' }).int().min(0).max(65535, { error: 'must be a port number from 0 to 65535' }).default(3000),
  HOST: optionalString,
  PUBLIC_URL: url.optional(),
  DATA_DIR: optionalString,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: z
    .string()
    .regex(/^(true|false|\d{1,2}|[0-9a-fA-F.:/,\s]+)$/, { error: 'must be false, true, a number of proxy hops, or a list of proxy addresses' })
    .default('false')
    .transform((v): boolean | number | string => (v === 'true' ? true : v === 'false' ? false : /^\d+$/.test(v) ? Number(v) : v)),
  APP_SECRET: z.string().min(32, { error: 'must be at least 32 characters' }).optional(),
  ...storageEnv.shape,
  RETENTION_INTERVAL_MINUTES: z.coerce.number({ error: 'must be a number of minutes' }).int().min(0).max(24 * 60).default(15),
  LIMIT_DRAFTS_PER_HOUR: z.coerce.number({ error: 'must be a number' }).int().min(1).max(100_000).default(30),
  LIMIT_UPLOAD_MB_PER_HOUR: z.coerce.number({ error: 'must be a number of MB' }).int().min(10).max(1_000_000).default(500),
  REQUEST_TIMEOUT_SECONDS: z.coerce.number({ error: 'must be a number of seconds' }).int().min(5).max(3600).default(120),
  BODY_TIMEOUT_SECONDS: z.coerce.number({ error: 'must be a number of seconds' }).int().min(1).max(600).default(10),
  HEADERS_TIMEOUT_SECONDS: z.coerce.number({ error: 'must be a number of seconds' }).int().min(1).max(600).default(15),
  SIGNED_URL_TTL_SECONDS: z.coerce.number().int().min(60).max(7 * 24 * 3600).default(3600),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, { error: 'must be an smtp:// or smtps:// URL' })
    .optional(),
  MAIL_FROM: z.string().default('Bewerbungsfoto Studio <bestellung@bewerbungsfoto.example>'),
  SUPPORT_EMAIL: z.email({ error: 'must be an e-mail address' }).default('support@bewerbungsfoto.example'),
  ...paymentsEnv.shape,
  ADMIN_EMAIL: z.email({ error: 'must be an e-mail address' }).optional(),
  ADMIN_PASSWORD: z.string().min(12, { error: 'must be at least 12 characters' }).optional(),
  ...siteEnv.shape,
  RUN_JOBS: bool.default(true),
  UPLOAD_INLINE_CHECKS: z.coerce.number({ error: 'must be a number' }).int().min(0).max(64).default(4),
  BACKGROUND_NICE: z.coerce.number({ error: 'must be a number from 0 to 19' }).int().min(0).max(19).default(10),
  ...generatorEnv.shape,
  DEFAULT_PRODUCTION_MODE: z.enum(PRODUCTION_MODES, { error: 'must be studio, generator or manual' }).default('studio'),
  ...campaignEnv.shape,
});

export interface AppConfig {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  logLevel: string;
  /** Fastify's trustProxy: false, true (every hop), a number of hops, or proxy addresses. */
  trustProxy: boolean | number | string;
  appSecret: string;
  database: DatabaseConfig;
  storage: StorageConfig;
  signedUrlTtlSeconds: number;
  /** How often the deletion job runs in each app process; 0 turns it off (tests run it by hand). */
  retentionIntervalMinutes: number;
  /** Per network address and hour: new drafts, and bytes of photos received. */
  limits: { draftsPerHour: number; uploadBytesPerHour: number };
  /**
   * A whole request (an upload over a slow phone line included), a request body of any other kind (a few
   * KB of JSON), and the request line with its headers: clients slower than this are cut off.
   */
  timeouts: { requestMs: number; bodyMs: number; headersMs: number };
  mail: { smtpUrl: string | undefined; from: string; supportEmail: string };
  payments: PaymentsConfig;
  campaign: Campaign | null;
  site: SiteInfo;
  /** Third-party scripts that load in the browser only after the visitor's consent. */
  consentServices: ConsentServices;
  /** Before/after pairs for the home page (the examples manifest). */
  examples: ExamplePair[];
  /** Whether this process also works the job queue (studio drafts); `npm run worker` processes always do. */
  runJobs: boolean;
  /** Uploads this process decodes and checks itself at once; further photos wait for a worker's check (draft-uploads.ts). */
  inlineUploadChecks: number;
  /** Scheduling priority ("nice", 0–19) of background work: the worker process and the models' thread. */
  backgroundNice: number;
  /** An external image generator (Replicate's API or a Cog container) and its model profile; null when not configured. */
  generator: GeneratorConfig | null;
  /** Who makes the pictures of a new order until staff choose otherwise. */
  defaultProductionMode: ProductionMode;
  /** Seeds the first staff account when none exists. */
  initialAdmin: { email: string; password: string } | null;
}

/** A secret that survives restarts in development; production must set APP_SECRET. */
function developmentSecret(dataDir: string): string {
  const file = path.join(dataDir, '.app-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

export function loadConfig(source: Record<string, string | undefined> = process.env): AppConfig {
  // Empty strings count as unset, as in most .env tooling.
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => {
        const name = String(issue.path[0] ?? '?');
        return `${name}: ${issue.message} (got ${JSON.stringify(cleaned[name])})`;
      }),
    );
  }
  const env = parsed.data;
  const problems: string[] = [];
  const production = env.NODE_ENV === 'production';
  const dataDir = path.resolve(PROJECT_ROOT, env.DATA_DIR ?? 'data');

  if (production && !env.APP_SECRET) problems.push('APP_SECRET: required in production (at least 32 random characters)');
  if (env.NODE_ENV === 'development' && env.PUBLIC_URL?.startsWith('https://') && !/^https:\/\/(localhost|127\.0\.0\.1)(:|\/|$)/.test(env.PUBLIC_URL)) {
    problems.push('NODE_ENV: a public https address runs in development mode (dev outbox open, sandbox payments); set NODE_ENV=production');
  }
  const storage = storageConfig(env, dataDir, problems);
  const payments = paymentsConfig(env, production, problems);
  checkLegalDetails(env, production, problems);
  if (Boolean(env.ADMIN_EMAIL) !== Boolean(env.ADMIN_PASSWORD)) problems.push('ADMIN_EMAIL / ADMIN_PASSWORD: set both or neither');
  const campaign = parseCampaign(env, problems);
  const { site, consentServices, examples } = siteConfig(env, problems);
  const generator = parseGenerator(env, problems);
  // Otherwise every paid order would wait for a generator that does not exist.
  if (env.DEFAULT_PRODUCTION_MODE === 'generator' && !env.GENERATOR) problems.push('DEFAULT_PRODUCTION_MODE: generator needs GENERATOR');
  if (env.HEADERS_TIMEOUT_SECONDS > env.REQUEST_TIMEOUT_SECONDS) problems.push('HEADERS_TIMEOUT_SECONDS: must not be longer than REQUEST_TIMEOUT_SECONDS');
  if (problems.length) throw new ConfigError(problems);

  const host = env.HOST ?? (production ? '0.0.0.0' : 'localhost');
  return {
    env: env.NODE_ENV,
    port: env.PORT,
    host,
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, ''),
    dataDir,
    logLevel: env.LOG_LEVEL,
    trustProxy: env.TRUST_PROXY,
    appSecret: env.APP_SECRET ?? developmentSecret(dataDir),
    database: databaseConfig(env, dataDir),
    storage,
    signedUrlTtlSeconds: env.SIGNED_URL_TTL_SECONDS,
    retentionIntervalMinutes: env.RETENTION_INTERVAL_MINUTES,
    limits: { draftsPerHour: env.LIMIT_DRAFTS_PER_HOUR, uploadBytesPerHour: env.LIMIT_UPLOAD_MB_PER_HOUR * 1024 * 1024 },
    timeouts: { requestMs: env.REQUEST_TIMEOUT_SECONDS * 1000, bodyMs: env.BODY_TIMEOUT_SECONDS * 1000, headersMs: env.HEADERS_TIMEOUT_SECONDS * 1000 },
    mail: { smtpUrl: env.SMTP_URL, from: env.MAIL_FROM, supportEmail: env.SUPPORT_EMAIL },
    payments,
    campaign,
    initialAdmin: env.ADMIN_EMAIL && env.ADMIN_PASSWORD ? { email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD } : null,
    site: { ...site, generatorName: generator?.name ?? null },
    consentServices,
    examples,
    runJobs: env.RUN_JOBS,
    inlineUploadChecks: env.UPLOAD_INLINE_CHECKS,
    backgroundNice: env.BACKGROUND_NICE,
    defaultProductionMode: env.DEFAULT_PRODUCTION_MODE,
    generator,
  };
}
