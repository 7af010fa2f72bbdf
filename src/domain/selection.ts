// The wizard's selections as data, without their schema (order-selection.ts validates them): what the browser
// needs on every step, so a step that validates nothing does not load the schema library. The order button's
// completeness check is here too: the summary runs it before it has loaded the schemas.
import { PACKAGES, isExtraOffered, type BaseStyle, type ExtraKey, type Gender, type Location, type Outfit, type PackageKey } from './catalog.js';
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

/** Version of the withdrawal-waiver text at the order button; stored with the consent. */
export const WAIVER_TEXT_VERSION = '2026-11-01';

export const BILLING_LIMITS = { name: 120, address: 300 } as const;

export interface CompleteSelection {
  gender: Gender;
  style: BaseStyle;
  package: PackageKey;
  location: Location | null;
  outfit: Outfit | null;
  extras: ExtraKey[];
}

export type SelectionProblem = 'genderRequired' | 'styleRequired' | 'packageRequired' | 'refinementRequired' | 'extraNotOffered' | 'outfitNotOffered' | 'locationNotOffered';

/**
 * A selection that can be ordered: every step answered, location (and, where the shop can make new
 * outfits, an outfit) exactly when the package has refinement, only extras the package offers. Without
 * a generator an outfit is refused: nobody could deliver it.
 */
export function completeSelection(
  selection: Selection,
  capabilities: Capabilities,
): { ok: true; value: CompleteSelection } | { ok: false; code: SelectionProblem } {
  if (!selection.gender) return { ok: false, code: 'genderRequired' };
  if (!selection.style) return { ok: false, code: 'styleRequired' };
  if (!selection.package) return { ok: false, code: 'packageRequired' };
  if (selection.outfit && !capabilities.newOutfits) return { ok: false, code: 'outfitNotOffered' };
  if (selection.location && !offeredLocations(capabilities).includes(selection.location)) return { ok: false, code: 'locationNotOffered' };
  const pkg = PACKAGES[selection.package];
  if (pkg.hasRefinement && (!selection.location || (capabilities.newOutfits && !selection.outfit))) return { ok: false, code: 'refinementRequired' };
  const extras = [...new Set(selection.extras)];
  if (extras.some((extra) => !isExtraOffered(selection.package!, extra))) return { ok: false, code: 'extraNotOffered' };
  return {
    ok: true,
    value: {
      gender: selection.gender,
      style: selection.style,
      package: selection.package,
      location: pkg.hasRefinement ? selection.location : null,
      outfit: pkg.hasRefinement && capabilities.newOutfits ? selection.outfit : null,
      extras,
    },
  };
}
