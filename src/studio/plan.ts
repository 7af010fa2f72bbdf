// Which drafts an order gets: the package's count (plus the extra variants if booked), spread over the
// formats, the booked backdrops and the customer's best photos. Pure: the same order and generation always
// give the same plan, so a job that runs again makes the same drafts (and skips those already made).
import { PACKAGES, requiredResultCount, type BaseStyle, type ExtraKey, type Location, type Outfit, type PackageKey } from '../domain/catalog.js';
import { BACKDROP_VARIANTS, type BackdropKind } from './backdrops.js';
import { OUTPUT_FORMAT_KEYS, type OutputFormatKey } from './formats.js';
import type { DraftSpec } from './render.js';

export interface PlanPhoto {
  id: string;
  /** The gate's verdict: better photos are used first. */
  verdict: 'ok' | 'warning' | 'unchecked';
  /** Per format, how well the photo gives it, 0 to 1 (framing.ts photoFills); missing: fully. */
  fills?: Partial<Record<OutputFormatKey, number>>;
  /** The gate saw someone else at the photo's side (its otherPeople warning): pieces of them may stay in a draft. */
  othersAtSide?: boolean;
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

/** Framings per photo, format and backdrop: as planned, a little wider, a little tighter (render.ts). */
export const FRAMING_VARIATIONS = 3;

interface Combination {
  photo: number;
  format: number;
  variant: number;
  variation: number;
}

/**
 * Every draft of an order differs from the others: each is a combination of photo, format, backdrop and framing
 * not used before, chosen so that photos, formats and backdrops take turns (the least used first, and pairs of
 * them too). Only when every combination is used does one come again. A later generation continues the
 * sequence, so "regenerate" and the extra variants make new drafts, not copies.
 */
/**
 * What a combination costs whose photo the gate warned about (too dark, blurred, someone at the side) or could not
 * check: more than a clean photo's first framing variation (1000), less than its second (2000). So an order's clean
 * photos give their every combination of format and backdrop, and a second framing of each, before a warned photo
 * gives any: warned photos fill a package only where the clean ones run out.
 */
const WARNED_PENALTY = 1500;
/**
 * What a combination costs whose photo gives its format less well than the order's best photo for it (framing.ts
 * photoFills: the face beyond the format's largest share, or enlarged too far). Up to FIT_TOLERANCE less, a little
 * per missing share (a clean photo still before a warned one); more than that, the photo cannot give the format:
 * a fixed part puts it after the warned photos that can. The best photo for a format never pays, so every format
 * is still made when no photo gives it.
 */
const NEAR_FIT_PER_SHARE = 5000;
const UNFIT_PENALTY = 3000;
const UNFIT_PER_SHARE = 10_000;
const FIT_TOLERANCE = 0.1;
/**
 * What a combination costs on top of its warning whose photo shows someone else at its side: the studio cuts such
 * a friend away, but a shoulder or hair of someone seen from behind can stay (no face to tell them apart by).
 */
const OTHERS_PENALTY = 200;

function combinations(
  photos: number,
  backgrounds: number,
  picks: number,
  perGeneration: number,
  shortfall: (photo: number, format: number) => number = () => 0,
  penalty: (photo: number) => number = () => 0,
): Combination[] {
  const all: Combination[] = [];
  for (let variation = 0; variation < FRAMING_VARIATIONS; variation++) {
    for (let photo = 0; photo < photos; photo++) {
      for (let format = 0; format < OUTPUT_FORMAT_KEYS.length; format++) {
        for (let variant = 0; variant < backgrounds; variant++) all.push({ photo, format, variant, variation });
      }
    }
  }
  const uses = new Map<string, number>();
  const count = (key: string) => uses.get(key) ?? 0;
  const keysOf = (c: Combination) => [`p${c.photo}`, `f${c.format}`, `v${c.variant}`, `pf${c.photo}.${c.format}`, `pv${c.photo}.${c.variant}`, `fv${c.format}.${c.variant}`];
  // Formats weigh most (every set has each format), then backdrops, then photos.
  const weights = [10, 30, 20, 4, 4, 2];
  let used = new Set<number>();
  const picked: Combination[] = [];
  let previous: Combination | null = null;
  for (let n = 0; n < picks; n++) {
    if (used.size === all.length) used = new Set();
    // Each generation is balanced in itself (a regenerated set has every format again); what it used stays used.
    if (n % perGeneration === 0) uses.clear();
    let best = -1;
    let bestScore = Infinity;
    for (let i = 0; i < all.length; i++) {
      if (used.has(i)) continue;
      const c = all[i]!;
      const keys = keysOf(c);
      let score = c.variation * 1000 + shortfall(c.photo, c.format) + penalty(c.photo) + (previous && previous.photo === c.photo ? 5 : 0);
      for (let k = 0; k < keys.length; k++) score += count(keys[k]!) * weights[k]!;
      if (score < bestScore) {
        bestScore = score;
        best = i;
      }
    }
    const chosen = all[best]!;
    used.add(best);
    for (const key of keysOf(chosen)) uses.set(key, count(key) + 1);
    picked.push(chosen);
    previous = chosen;
  }
  return picked;
}

export function planDrafts(input: PlanInput): PlannedDraft[] {
  const photos = [...input.photos].sort((a, b) => VERDICT_ORDER[a.verdict] - VERDICT_ORDER[b.verdict] || a.id.localeCompare(b.id));
  if (photos.length === 0) return [];
  const count = requiredResultCount(input.package, input.extras);
  // The package's number of backgrounds, in the chosen location; without one (basic) the studio wall. The studio
  // draws no room: an office asked for while a generator made the orders (staff since switched the order to the
  // studio) gets the studio wall, and staff see what was asked for.
  const kind: BackdropKind = input.location === 'creative' ? 'creative' : 'studio';
  const backgrounds = Math.min(BACKDROP_VARIANTS, PACKAGES[input.package].backgrounds);
  // Generation g continues where generation g − 1 stopped.
  // Against the best photo for that format: when no photo fills a format, the best of them makes it.
  const fill = (photo: number, format: number) => Math.min(1, photos[photo]!.fills?.[OUTPUT_FORMAT_KEYS[format]!] ?? 1);
  const best = OUTPUT_FORMAT_KEYS.map((_, format) => Math.max(...photos.map((__, photo) => fill(photo, format))));
  const shortfall = (photo: number, format: number) => {
    const missing = best[format]! - fill(photo, format);
    return missing > FIT_TOLERANCE ? UNFIT_PENALTY + missing * UNFIT_PER_SHARE : Math.max(0, missing) * NEAR_FIT_PER_SHARE;
  };
  const penalty = (photo: number) => (photos[photo]!.verdict === 'ok' ? 0 : WARNED_PENALTY) + (photos[photo]!.othersAtSide ? OTHERS_PENALTY : 0);
  const continued = combinations(photos.length, backgrounds, count * (input.generation + 1), count, shortfall, penalty).slice(count * input.generation);
  // Each generation's drafts start with a 4:5 portrait, as staff expect the list to begin.
  const start = Math.max(0, continued.findIndex((c) => c.format === 0));
  const sequence = [...continued.slice(start), ...continued.slice(0, start)];
  return sequence.map((c, index) => ({
    index,
    key: draftKey(input.generation, index),
    photoId: photos[c.photo]!.id,
    spec: {
      format: OUTPUT_FORMAT_KEYS[c.format]!,
      backdrop: { kind, variant: c.variant },
      style: input.style,
      ...(c.variation ? { variation: c.variation } : {}),
    },
    requestedOutfit: input.outfit,
  }));
}
