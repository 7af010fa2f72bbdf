// What the shop's pictures can really be, so every page, mail and rule promises only that
// ("claims follow capability"). The server computes it once from its configuration
// (src/server/capabilities.ts) and hands it to the pages with the rest of their data.
import { LOCATIONS, type Location } from './catalog.js';
import type { ProductionMode } from './order-state.js';

export interface Capabilities {
  /**
   * The person is shown in a chosen outfit, in a newly made setting and light. Only an identity-preserving
   * image generator can do that; the studio frames the customer's own selfie, cuts the person out, places
   * them on a generated backdrop and balances the tone mildly: clothes, light and pose stay as photographed.
   */
  newOutfits: boolean;
}

/** The studio (and staff working by hand): no promise beyond the customer's own photo on a new backdrop. */
export const STUDIO_CAPABILITIES: Capabilities = Object.freeze({ newOutfits: false });

/** New orders are made by a configured generator: outfit choice and its copy appear. */
export function capabilitiesFor(input: { defaultProductionMode: ProductionMode; generatorConfigured: boolean }): Capabilities {
  return { newOutfits: input.generatorConfigured && input.defaultProductionMode === 'generator' };
}

/**
 * The locations a customer can choose. An office (a room, daylight, furniture) is a setting only a generator
 * makes believably; the studio offers the backdrops it really draws: studio paper and canvas, creative colours.
 */
export function offeredLocations(capabilities: Capabilities): readonly Location[] {
  return capabilities.newOutfits ? LOCATIONS : STUDIO_LOCATIONS;
}

const STUDIO_LOCATIONS: readonly Location[] = Object.freeze(LOCATIONS.filter((location) => location !== 'office'));
