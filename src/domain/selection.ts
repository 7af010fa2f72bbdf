// The wizard's selections as data, without their schema (order-selection.ts validates them): what the browser
// needs on every step, so a step that validates nothing does not load the schema library.
import type { BaseStyle, ExtraKey, Gender, Location, Outfit, PackageKey } from './catalog.js';
import { offeredLocations, type Capabilities } from './capabilities.js';

/** What the customer has chosen so far (selectionSchema in order-selection.ts checks exactly this shape). */
export interface Selection {
  gender: Gender | null;
  style: BaseStyle | null;
  package: PackageKey | null;
  location: Location | null;
  outfit: Outfit | null;
  extras: ExtraKey[];
}

/** Version of the consent to process face photos at the upload step. */
export const PHOTO_CONSENT_VERSION = '2026-11-01';

export const EMPTY_SELECTION: Selection = { gender: null, style: null, package: null, location: null, outfit: null, extras: [] };

/**
 * A draft keeps only what the shop can make: without a generator an outfit or an office (sent by a tab opened
 * while one was configured) is dropped when the draft is saved, not refused, so the wizard's background saves
 * never fail on it. The order button refuses them (completeSelection).
 */
export function deliverableSelection(selection: Selection, capabilities: Capabilities): Selection {
  const outfit = capabilities.newOutfits ? selection.outfit : null;
  const location = selection.location && offeredLocations(capabilities).includes(selection.location) ? selection.location : null;
  return outfit === selection.outfit && location === selection.location ? selection : { ...selection, outfit, location };
}
