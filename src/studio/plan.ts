// Which drafts an order gets: the package's count (plus the extra variants if booked), spread over the
// formats, the booked backdrops and the customer's best photos. Pure: the same order and generation always
// give the same plan, so a job that runs again makes the same drafts (and skips those already made).
import { PACKAGES, requiredResultCount, type BaseStyle, type ExtraKey, type Location, type Outfit, type PackageKey } from '../domain/catalog.js';
import { BACKDROP_VARIANTS, type BackdropKind } from './backdrops.js';
import { OUTPUT_FORMAT_KEYS } from './formats.js';
import type { DraftSpec } from './render.js';

export interface PlanPhoto {
  id: string;
  /** The gate's verdict: better photos are used first. */
  verdict: 'ok' | 'warning' | 'unchecked';
}

export interface PlanInput {
  package: PackageKey;
  extras: readonly ExtraKey[];
  style: BaseStyle;
  location: Location | null;
  outfit: Outfit | null;
  photos: PlanPhoto[];
  /** 0 for the first drafts; each "regenerate" takes the next number and so other photos and backdrops. */
  generation: number;
}

export interface PlannedDraft {
  index: number;
  /** Unique per order: one slot makes one image, however often its job runs. */
  key: string;
  photoId: string;
  spec: DraftSpec;
  /** What the customer asked for that the studio cannot change (the outfit): shown to staff. */
  requestedOutfit: Outfit | null;
}

const VERDICT_ORDER = { ok: 0, warning: 1, unchecked: 2 } as const;

export function draftKey(generation: number, index: number): string {
  return `studio:${generation}:${index}`;
}

export function planDrafts(input: PlanInput): PlannedDraft[] {
  const photos = [...input.photos].sort((a, b) => VERDICT_ORDER[a.verdict] - VERDICT_ORDER[b.verdict] || a.id.localeCompare(b.id));
  if (photos.length === 0) return [];
  const count = requiredResultCount(input.package, input.extras);
  // The package's number of backgrounds, in the chosen location; without one (basic) the studio wall.
  const kind: BackdropKind = input.location ?? 'studio';
  const backgrounds = Math.min(BACKDROP_VARIANTS, PACKAGES[input.package].backgrounds);
  const shift = input.generation * 7;
  return Array.from({ length: count }, (_, index) => {
    const turn = index + shift;
    return {
      index,
      key: draftKey(input.generation, index),
      photoId: photos[turn % photos.length]!.id,
      spec: {
        format: OUTPUT_FORMAT_KEYS[index % OUTPUT_FORMAT_KEYS.length]!,
        backdrop: { kind, variant: (Math.floor(index / OUTPUT_FORMAT_KEYS.length) + input.generation) % backgrounds },
        style: input.style,
      },
      requestedOutfit: input.outfit,
    };
  });
}
