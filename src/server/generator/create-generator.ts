// The configured generator: Replicate's API or a Cog container, with the model profile its settings name.
import type { GeneratorConfig } from '../config/generator.js';
import { createCogGenerator } from './cog-generator.js';
import { GeneratorError } from './generator-error.js';
import type { ImageGenerator } from './provider.js';
import { findProfile } from './profiles/registry.js';
import { createReplicateGenerator } from './replicate-generator.js';

export function createGenerator(config: GeneratorConfig): ImageGenerator {
  const profile = findProfile({ key: config.profile ?? undefined, model: config.model ?? undefined, inputMap: config.inputMap });
  // config.ts refuses such settings already; this is for callers that build a config by hand.
  if (!profile) throw new GeneratorError('no model profile fits: set GENERATOR_PROFILE (or GENERATOR_INPUT_MAP for the generic one)');
  if (config.kind === 'cog') return createCogGenerator({ baseUrl: config.baseUrl, profile, name: config.name });
  if (!config.model) throw new GeneratorError('GENERATOR_MODEL is required for Replicate');
  return createReplicateGenerator({ token: config.token, model: config.model, baseUrl: config.baseUrl, profile, name: config.name });
}
