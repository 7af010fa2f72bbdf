// The supported models: GENERATOR_PROFILE names one, or it follows from the model in GENERATOR_MODEL.
import { fluxPulidProfile } from './flux-pulid.js';
import { genericProfile, type InputMap } from './generic.js';
import { instantIdProfile } from './instant-id.js';
import type { ModelProfile } from './profile.js';
import { pulidProfile } from './pulid.js';

const PROFILES: readonly ModelProfile[] = [instantIdProfile, pulidProfile, fluxPulidProfile];
export const PROFILE_KEYS = [...PROFILES.map((p) => p.key), 'generic'] as const;

/** The profile for a key, or for a model reference ("owner/name" or "owner/name:version"); null when none fits. */
export function findProfile(options: { key?: string | undefined; model?: string | undefined; inputMap?: InputMap | null }): ModelProfile | null {
  if (options.key === 'generic') return options.inputMap ? genericProfile(options.inputMap) : null;
  if (options.key) return PROFILES.find((p) => p.key === options.key) ?? null;
  const model = options.model?.split(':')[0]?.toLowerCase();
  const known = PROFILES.find((p) => p.model === model);
  if (known) return known;
  return options.inputMap ? genericProfile(options.inputMap) : null;
}
