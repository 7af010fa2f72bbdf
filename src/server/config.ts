// The only reader of process.env. A wrong setting stops the start with a message naming it.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PRODUCTION_MODES, type ProductionMode } from '../domain/order-state.js';
import { z } from 'zod';
import { validateCampaign, type Campaign } from '../domain/campaign.js';
import { BASE_STYLES, LOCATIONS, PACKAGE_KEYS, type PackageKey } from '../domain/catalog.js';
import { SOCIAL_NETWORKS, type ConsentServices, type ExamplePair, type ExternalLink, type SiteInfo } from '../domain/site.js';
import { parseInputMap, type InputMap } from './generator/profiles/generic.js';
import { findProfile, PROFILE_KEYS } from './generator/profiles/registry.js';
import { PROJECT_ROOT } from './paths.js';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
const url = z.url({ error: 'must be a URL' });
const optionalString = z.string().trim().min(1).optional();
const httpsUrl = z.url({ protocol: /^https$/, error: 'must be an https:// URL' });

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
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, { error: 'must be a postgres:// URL' })
    .optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
  S3_BUCKET: optionalString,
  S3_REGION: z.string().default('eu-central-1'),
  S3_ENDPOINT: url.optional(),
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  S3_FORCE_PATH_STYLE: bool.default(false),
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
  PAYMENT_PROVIDER: z.enum(['sandbox', 'stripe'], { error: 'must be sandbox or stripe' }).optional(),
  ALLOW_SANDBOX_IN_PRODUCTION: bool.default(false),
  STRIPE_SECRET_KEY: optionalString,
  STRIPE_WEBHOOK_SECRET: optionalString,
  ADMIN_EMAIL: z.email({ error: 'must be an e-mail address' }).optional(),
  ADMIN_PASSWORD: z.string().min(12, { error: 'must be at least 12 characters' }).optional(),
  SITE_NAME: z.string().trim().min(1).default('Bewerbungsfoto Studio'),
  SITE_LEGAL_NAME: optionalString,
  SITE_PHONE: optionalString,
  SITE_ADDRESS: optionalString,
  SITE_VAT_ID: optionalString,
  SITE_TAX_NUMBER: optionalString,
  SITE_RESPONSIBLE_PERSON: optionalString,
  SITE_REGISTER_ENTRY: optionalString,
  PRIVACY_EMAIL: z.email({ error: 'must be an e-mail address' }).optional(),
  SOCIAL_LINKS: optionalString,
  SISTER_SITES: optionalString,
  ANALYTICS_SCRIPT_URL: httpsUrl.optional(),
  ANALYTICS_NAME: optionalString,
  CHAT_SCRIPT_URL: httpsUrl.optional(),
  CHAT_NAME: optionalString,
  EXAMPLES_FILE: optionalString,
  RUN_JOBS: bool.default(true),
  UPLOAD_INLINE_CHECKS: z.coerce.number({ error: 'must be a number' }).int().min(0).max(64).default(4),
  BACKGROUND_NICE: z.coerce.number({ error: 'must be a number from 0 to 19' }).int().min(0).max(19).default(10),
  GENERATOR: z.enum(['replicate', 'cog'], { error: 'must be replicate or cog' }).optional(),
  REPLICATE_API_TOKEN: optionalString,
  REPLICATE_API_URL: url.optional(),
  COG_URL: url.optional(),
  GENERATOR_MODEL: optionalString,
  GENERATOR_PROFILE: z.enum(PROFILE_KEYS, { error: `must be one of ${PROFILE_KEYS.join(', ')}` }).optional(),
  GENERATOR_INPUT_MAP: optionalString,
  GENERATOR_WEBHOOK_SECRET: optionalString,
  GENERATOR_NAME: optionalString,
  DEFAULT_PRODUCTION_MODE: z.enum(PRODUCTION_MODES, { error: 'must be studio, generator or manual' }).default('studio'),
  CAMPAIGN_PERCENT: z.coerce.number({ error: 'must be a number' }).int().min(0).max(90).default(20),
  CAMPAIGN_PACKAGES: z.string().default('pro,premium'),
  CAMPAIGN_STARTS_AT: z.string().default('2026-11-01T00:00:00+01:00'),
  CAMPAIGN_ENDS_AT: z.string().default('2027-01-01T00:00:00+01:00'),
});

export type StorageConfig =
  | { driver: 'local'; dir: string }
  | {
      driver: 's3';
      bucket: string;
      region: string;
      endpoint: string | undefined;
      accessKeyId: string | undefined;
      secretAccessKey: string | undefined;
      forcePathStyle: boolean;
    };

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
  database: { kind: 'postgres'; url: string; poolSize: number } | { kind: 'pglite'; dataDir: string };
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
  payments:
    | { provider: 'sandbox' }
    | { provider: 'stripe'; secretKey: string; webhookSecret: string };
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

function parseCampaign(env: z.output<typeof envSchema>, problems: string[]): Campaign | null {
  if (env.CAMPAIGN_PERCENT === 0) return null;
  const packages = env.CAMPAIGN_PACKAGES.split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  const campaign: Campaign = {
    id: `campaign-${env.CAMPAIGN_STARTS_AT.slice(0, 10)}`,
    percent: env.CAMPAIGN_PERCENT,
    packages: packages as PackageKey[],
    startsAt: new Date(env.CAMPAIGN_STARTS_AT),
    endsAt: new Date(env.CAMPAIGN_ENDS_AT),
  };
  for (const problem of validateCampaign(campaign)) problems.push(`CAMPAIGN_*: ${problem} (packages: ${PACKAGE_KEYS.join(', ')})`);
  return campaign;
}

/** "key=https://…, key=https://…" into links; `label` names each key. */
function parseLinks(name: string, value: string | undefined, label: (key: string) => string | null, problems: string[]): ExternalLink[] {
  if (!value) return [];
  const links: ExternalLink[] = [];
  for (const part of value.split(',').map((p) => p.trim()).filter(Boolean)) {
    const match = /^([a-z]{2,12})=(https:\/\/\S+)$/.exec(part);
    const shown = match ? label(match[1]!) : null;
    if (!match || !shown || !httpsUrl.safeParse(match[2]).success) {
      problems.push(`${name}: "${part}" must look like key=https://… (${name === 'SOCIAL_LINKS' ? Object.keys(SOCIAL_NETWORKS).join(', ') : 'a language code such as en or fr'})`);
      continue;
    }
    links.push({ key: match[1]!, label: shown, url: match[2]! });
  }
  return links;
}

/** A sister site's language in its own words ("English", "Español"). */
function languageName(code: string): string | null {
  try {
    const name = new Intl.DisplayNames([code], { type: 'language', fallback: 'none' }).of(code);
    return name ? name.charAt(0).toLocaleUpperCase(code) + name.slice(1) : null;
  } catch {
    return null;
  }
}

// A file of the shop (served from public/) or an https address.
const imageSource = z.string().regex(/^(\/[A-Za-z0-9._/-]+|https:\/\/\S+)$/);
const exampleImage = z
  .object({
    src: imageSource,
    width: z.number().int().min(1).max(4000),
    height: z.number().int().min(1).max(4000),
    small: z.object({ src: imageSource, width: z.number().int().min(1).max(4000) }).strict().optional(),
  })
  .strict();
const examplesSchema = z
  .object({
    pairs: z
      .array(
        z
          .object({
            id: z.string().regex(/^[a-z0-9-]{1,40}$/),
            before: exampleImage,
            after: exampleImage,
            style: z.enum(BASE_STYLES),
            location: z.enum(LOCATIONS),
            credit: z.string().trim().min(1).max(200),
          })
          .strict(),
      )
      .max(12),
  })
  .strict();

export const DEFAULT_EXAMPLES_FILE = path.join(PROJECT_ROOT, 'public', 'examples', 'examples.json');

/** The before/after manifest: the configured file, else the shop's own when it exists, else none. */
function loadExamples(file: string | undefined, problems: string[]): ExamplePair[] {
  const target = file ? path.resolve(PROJECT_ROOT, file) : DEFAULT_EXAMPLES_FILE;
  if (!existsSync(target)) {
    if (file) problems.push(`EXAMPLES_FILE: ${target} does not exist`);
    return [];
  }
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(target, 'utf8'));
  } catch (error) {
    problems.push(`EXAMPLES_FILE: ${target} is not valid JSON (${(error as Error).message})`);
    return [];
  }
  const parsed = examplesSchema.safeParse(raw);
  if (!parsed.success) {
    problems.push(`EXAMPLES_FILE: ${target}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
    return [];
  }
  return parsed.data.pairs;
}

function service(scriptUrl: string | undefined, name: string | undefined): ConsentServices['analytics'] {
  return scriptUrl ? { scriptUrl, name: name ?? new URL(scriptUrl).hostname } : null;
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

  let storage: StorageConfig = { driver: 'local', dir: path.join(dataDir, 'files') };
  if (env.S3_BUCKET) {
    storage = {
      driver: 's3',
      bucket: env.S3_BUCKET,
      region: env.S3_REGION,
      endpoint: env.S3_ENDPOINT,
      accessKeyId: env.S3_ACCESS_KEY_ID,
      secretAccessKey: env.S3_SECRET_ACCESS_KEY,
      forcePathStyle: env.S3_FORCE_PATH_STYLE,
    };
    if (Boolean(env.S3_ACCESS_KEY_ID) !== Boolean(env.S3_SECRET_ACCESS_KEY)) {
      problems.push('S3_ACCESS_KEY_ID / S3_SECRET_ACCESS_KEY: set both or neither');
    }
  }

  const provider = env.PAYMENT_PROVIDER ?? (env.STRIPE_SECRET_KEY ? 'stripe' : 'sandbox');
  let payments: AppConfig['payments'] = { provider: 'sandbox' };
  if (provider === 'stripe') {
    if (!env.STRIPE_SECRET_KEY) problems.push('STRIPE_SECRET_KEY: required when PAYMENT_PROVIDER is stripe');
    if (!env.STRIPE_WEBHOOK_SECRET) problems.push('STRIPE_WEBHOOK_SECRET: required when PAYMENT_PROVIDER is stripe');
    payments = { provider: 'stripe', secretKey: env.STRIPE_SECRET_KEY ?? '', webhookSecret: env.STRIPE_WEBHOOK_SECRET ?? '' };
  } else if (production && !env.ALLOW_SANDBOX_IN_PRODUCTION) {
    problems.push('PAYMENT_PROVIDER: the sandbox takes no real money; configure Stripe or set ALLOW_SANDBOX_IN_PRODUCTION=true');
  }

  // The Impressum (§ 5 DDG) needs a name and an address that can be served; a live shop without them is unlawful.
  if (production && (!env.SITE_ADDRESS || !env.SITE_LEGAL_NAME)) problems.push('SITE_LEGAL_NAME / SITE_ADDRESS: required in production for the Impressum');
  // § 14 (4) Nr. 2 UStG: an invoice names the seller's tax number or VAT id.
  if (production && !env.SITE_VAT_ID && !env.SITE_TAX_NUMBER) problems.push('SITE_VAT_ID / SITE_TAX_NUMBER: one is required in production for invoices (§ 14 UStG)');
  if (Boolean(env.ADMIN_EMAIL) !== Boolean(env.ADMIN_PASSWORD)) problems.push('ADMIN_EMAIL / ADMIN_PASSWORD: set both or neither');
  const campaign = parseCampaign(env, problems);
  const socialLinks = parseLinks('SOCIAL_LINKS', env.SOCIAL_LINKS, (key) => SOCIAL_NETWORKS[key] ?? null, problems);
  const sisterSites = parseLinks('SISTER_SITES', env.SISTER_SITES, languageName, problems);
  const examples = loadExamples(env.EXAMPLES_FILE, problems);
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
    database: env.DATABASE_URL
      ? { kind: 'postgres', url: env.DATABASE_URL, poolSize: env.DATABASE_POOL_SIZE }
      : { kind: 'pglite', dataDir: path.join(dataDir, 'db') },
    storage,
    signedUrlTtlSeconds: env.SIGNED_URL_TTL_SECONDS,
    retentionIntervalMinutes: env.RETENTION_INTERVAL_MINUTES,
    limits: { draftsPerHour: env.LIMIT_DRAFTS_PER_HOUR, uploadBytesPerHour: env.LIMIT_UPLOAD_MB_PER_HOUR * 1024 * 1024 },
    timeouts: { requestMs: env.REQUEST_TIMEOUT_SECONDS * 1000, bodyMs: env.BODY_TIMEOUT_SECONDS * 1000, headersMs: env.HEADERS_TIMEOUT_SECONDS * 1000 },
    mail: { smtpUrl: env.SMTP_URL, from: env.MAIL_FROM, supportEmail: env.SUPPORT_EMAIL },
    payments,
    campaign,
    initialAdmin: env.ADMIN_EMAIL && env.ADMIN_PASSWORD ? { email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD } : null,
    site: {
      name: env.SITE_NAME,
      legalName: env.SITE_LEGAL_NAME ?? env.SITE_NAME,
      supportEmail: env.SUPPORT_EMAIL,
      privacyEmail: env.PRIVACY_EMAIL ?? env.SUPPORT_EMAIL,
      phone: env.SITE_PHONE ?? null,
      address: env.SITE_ADDRESS ?? null,
      vatId: env.SITE_VAT_ID ?? null,
      taxNumber: env.SITE_TAX_NUMBER ?? null,
      responsiblePerson: env.SITE_RESPONSIBLE_PERSON ?? null,
      registerEntry: env.SITE_REGISTER_ENTRY ?? null,
      socialLinks,
      sisterSites,
      generatorName: generator?.name ?? null,
    },
    consentServices: { analytics: service(env.ANALYTICS_SCRIPT_URL, env.ANALYTICS_NAME), chat: service(env.CHAT_SCRIPT_URL, env.CHAT_NAME) },
    examples,
    runJobs: env.RUN_JOBS,
    inlineUploadChecks: env.UPLOAD_INLINE_CHECKS,
    backgroundNice: env.BACKGROUND_NICE,
    defaultProductionMode: env.DEFAULT_PRODUCTION_MODE,
    generator,
  };
}

export interface GeneratorConfig {
  kind: 'replicate' | 'cog';
  /** Replicate: the API token; Cog: unused. */
  token: string;
  /** Replicate's API (default https://api.replicate.com/v1) or the Cog container's address. */
  baseUrl: string;
  /** Replicate: owner/name or owner/name:version; Cog: what the container runs, if said (picks the profile). */
  model: string | null;
  profile: string | null;
  inputMap: InputMap | null;
  webhookSecret: string | null;
  name: string;
}

function parseGenerator(env: z.infer<typeof envSchema>, problems: string[]): GeneratorConfig | null {
  if (!env.GENERATOR) return null;
  let inputMap: InputMap | null = null;
  if (env.GENERATOR_INPUT_MAP) {
    const parsed = parseInputMap(env.GENERATOR_INPUT_MAP);
    if (typeof parsed === 'string') problems.push(`GENERATOR_INPUT_MAP: ${parsed}`);
    else inputMap = parsed;
  }
  if (env.GENERATOR_PROFILE === 'generic' && !env.GENERATOR_INPUT_MAP) problems.push('GENERATOR_INPUT_MAP: required with GENERATOR_PROFILE=generic');
  const model = env.GENERATOR_MODEL ?? null;
  if (model && !/^[a-z0-9][a-z0-9._-]*\/[a-z0-9][a-z0-9._-]*(:[0-9a-f]{64})?$/i.test(model)) problems.push('GENERATOR_MODEL: must be owner/name or owner/name:version (64 hex digits)');
  // Which inputs to send must be known before the first order, not found out by a failed prediction.
  if (!findProfile({ key: env.GENERATOR_PROFILE, model: model ?? undefined, inputMap }) && env.GENERATOR_PROFILE !== 'generic') {
    problems.push(`GENERATOR_PROFILE: required unless GENERATOR_MODEL is a model with a profile (${PROFILE_KEYS.join(', ')}; generic with GENERATOR_INPUT_MAP)`);
  }
  const secret = env.GENERATOR_WEBHOOK_SECRET ?? null;
  if (env.GENERATOR === 'replicate') {
    if (!env.REPLICATE_API_TOKEN) problems.push('REPLICATE_API_TOKEN: required with GENERATOR=replicate');
    if (!model) problems.push('GENERATOR_MODEL: required with GENERATOR=replicate');
    // Replicate runs "owner/name" without a version only for its official models; the profiled ones are
    // community models, and their input names belong to a version.
    else if (!model.includes(':') && findProfile({ model })) problems.push('GENERATOR_MODEL: a community model needs its version (owner/name:<64 hex digits>)');
    if (secret && !/^whsec_[A-Za-z0-9+/=]+$/.test(secret)) problems.push('GENERATOR_WEBHOOK_SECRET: Replicate\'s signing secret looks like whsec_… (GET /v1/webhooks/default/secret)');
    const baseUrl = env.REPLICATE_API_URL ?? 'https://api.replicate.com/v1';
    return { kind: 'replicate', token: env.REPLICATE_API_TOKEN ?? '', baseUrl, model, profile: env.GENERATOR_PROFILE ?? null, inputMap, webhookSecret: secret, name: env.GENERATOR_NAME ?? 'Replicate, Inc.' };
  }
  if (!env.COG_URL) problems.push('COG_URL: required with GENERATOR=cog');
  // A Cog container reports a result only by its webhook: without one the shop would never learn it.
  if (!secret || secret.length < 32) problems.push('GENERATOR_WEBHOOK_SECRET: required with GENERATOR=cog (at least 32 characters; it signs the webhook address the container calls)');
  const baseUrl = env.COG_URL ?? 'http://localhost:5000';
  return { kind: 'cog', token: '', baseUrl, model, profile: env.GENERATOR_PROFILE ?? null, inputMap, webhookSecret: secret, name: env.GENERATOR_NAME ?? new URL(baseUrl).hostname };
}
