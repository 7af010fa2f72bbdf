// The external image generator: Replicate's API or a Cog container, and the profile that says which inputs its
// model takes.
import { z } from 'zod';
import { parseInputMap, type InputMap } from '../generator/profiles/generic.js';
import { findProfile, PROFILE_KEYS } from '../generator/profiles/registry.js';
import { optionalString, url } from './fields.js';

export const generatorEnv = z.object({
  GENERATOR: z.enum(['replicate', 'cog'], { error: 'must be replicate or cog' }).optional(),
  REPLICATE_API_TOKEN: optionalString,
  REPLICATE_API_URL: url.optional(),
  COG_URL: url.optional(),
  GENERATOR_MODEL: optionalString,
  GENERATOR_PROFILE: z.enum(PROFILE_KEYS, { error: `must be one of ${PROFILE_KEYS.join(', ')}` }).optional(),
  GENERATOR_INPUT_MAP: optionalString,
  GENERATOR_WEBHOOK_SECRET: optionalString,
  GENERATOR_NAME: optionalString,
});

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

export function parseGenerator(env: z.output<typeof generatorEnv>, problems: string[]): GeneratorConfig | null {
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
