// The shop as customers see it: its name and legal details (Impressum, invoices), its links, the third-party
// scripts that wait for consent, and the before/after examples of the home page.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { BASE_STYLES, LOCATIONS } from '../../domain/catalog.js';
import { SOCIAL_NETWORKS, type ConsentServices, type ExamplePair, type ExternalLink, type SiteInfo } from '../../domain/site.js';
import { PROJECT_ROOT } from '../paths.js';
import { httpsUrl, optionalString } from './fields.js';

export const siteEnv = z.object({
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
});
type SiteEnv = z.output<typeof siteEnv>;

/** Checked in production: the details a live shop must be able to show. */
export function checkLegalDetails(env: SiteEnv, production: boolean, problems: string[]): void {
  // The Impressum (§ 5 DDG) needs a name and an address that can be served; a live shop without them is unlawful.
  if (production && (!env.SITE_ADDRESS || !env.SITE_LEGAL_NAME)) problems.push('SITE_LEGAL_NAME / SITE_ADDRESS: required in production for the Impressum');
  // § 14 (4) Nr. 2 UStG: an invoice names the seller's tax number or VAT id.
  if (production && !env.SITE_VAT_ID && !env.SITE_TAX_NUMBER) problems.push('SITE_VAT_ID / SITE_TAX_NUMBER: one is required in production for invoices (§ 14 UStG)');
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

/** The site's details (without the generator's name, which the generator settings give), services and examples. */
export function siteConfig(
  env: SiteEnv & { SUPPORT_EMAIL: string },
  problems: string[],
): { site: Omit<SiteInfo, 'generatorName'>; consentServices: ConsentServices; examples: ExamplePair[] } {
  const socialLinks = parseLinks('SOCIAL_LINKS', env.SOCIAL_LINKS, (key) => SOCIAL_NETWORKS[key] ?? null, problems);
  const sisterSites = parseLinks('SISTER_SITES', env.SISTER_SITES, languageName, problems);
  const examples = loadExamples(env.EXAMPLES_FILE, problems);
  return {
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
    },
    consentServices: { analytics: service(env.ANALYTICS_SCRIPT_URL, env.ANALYTICS_NAME), chat: service(env.CHAT_SCRIPT_URL, env.CHAT_NAME) },
    examples,
  };
}
