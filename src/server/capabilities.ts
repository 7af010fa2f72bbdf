// The one place where the server decides what its pictures can be (see src/domain/capabilities.ts).
import { capabilitiesFor, type Capabilities } from '../domain/capabilities.js';
import type { AppConfig } from './config.js';

export function shopCapabilities(config: Pick<AppConfig, 'defaultProductionMode' | 'generator'>): Capabilities {
  return capabilitiesFor({ defaultProductionMode: config.defaultProductionMode, generatorConfigured: config.generator !== null });
}
