// What the generator is asked for: the customer's booking (style, setting, outfit, gender, package) turned into
// one prompt and negative prompt per picture. Pure and in one place: the same order, generation and attempt
// always give the same requests, so a job that runs again asks for the same pictures.
//
// The package's outfits and backgrounds are spread over its pictures (basic 1 × 1, pro up to 3 × 3, premium up
// to 5 × 5, as the package cards promise); booked extra variants are new pictures with their own seeds and
// combinations, never copies.
import { PACKAGES, requiredResultCount, type BaseStyle, type ExtraKey, type Gender, type Location, type Outfit, type PackageKey } from '../domain/catalog.js';

export interface GenerationRequest {
  package: PackageKey;
  extras: readonly ExtraKey[];
  style: BaseStyle;
  /** Booked setting and outfit; null where the package has no refinement (basic): the style decides. */
  location: Location | null;
  outfit: Outfit | null;
  gender: Gender;
  /** 0 for the first run; each new run (staff "generate again") takes the next number. */
  generation: number;
  /** Mixed into every seed so two orders never get the same pictures. */
  orderId: string;
}

export interface PlannedPicture {
  index: number;
  /** Unique per order and generation: one slot makes one picture, however often its job runs. */
  key: string;
  prompt: string;
  negativePrompt: string;
  /** Which of the catalogue's outfits and backgrounds this picture wears (shown to staff). */
  outfit: { category: Outfit; variant: number; description: string };
  background: { location: Location; variant: number; description: string };
  /** Seed of the first attempt; a picture asked for again (it failed the identity check) gets seedFor(…, attempt). */
  seed: number;
  /** The portrait format the generator is asked for; the three output formats are framed from it. */
  aspectRatio: '4:5';
}

/** Per outfit category and gender: concrete garments, at least as many as the biggest package's outfits. */
export const OUTFIT_CATALOGUE: Readonly<Record<Outfit, Readonly<Record<Gender, readonly string[]>>>> = {
  business: {
    male: [
      'a tailored navy suit, crisp white shirt and a dark silk tie',
      'a charcoal grey suit with a light blue shirt, no tie',
      'a dark blazer over a white shirt with a subtle patterned tie',
      'a mid-grey three-piece suit with a white shirt and a burgundy tie',
      'a black suit with a pale grey shirt, top button open',
    ],
    female: [
      'a tailored navy blazer over a white silk blouse',
      'a charcoal grey pantsuit jacket with a cream top',
      'a black blazer over a light blue blouse',
      'a structured camel blazer over a black fine-knit top',
      'an elegant dark sheath dress with a matching jacket',
    ],
    diverse: [
      'a tailored navy blazer over a white crew-neck top',
      'a charcoal grey suit jacket over a light shirt, no tie',
      'a black blazer over a pale grey shirt',
      'a structured camel blazer over a black fine-knit top',
      'a dark double-breasted jacket over a white shirt, open collar',
    ],
  },
  smart_casual: {
    male: [
      'a light blue oxford shirt with an open collar',
      'a navy knit polo under an unstructured grey blazer',
      'a white shirt with a dark V-neck sweater over it',
      'a casual tan blazer over a white t-shirt',
      'a dark green merino sweater over a collared shirt',
    ],
    female: [
      'a soft cream blouse with a delicate neckline',
      'a fine-knit navy sweater over a white collared shirt',
      'a light unstructured blazer over a striped top',
      'a dusty rose silk shirt, top button open',
      'a dark green merino sweater with a simple necklace',
    ],
    diverse: [
      'a light blue oxford shirt with an open collar',
      'a fine-knit navy sweater over a white collared shirt',
      'a casual tan blazer over a white t-shirt',
      'a soft grey henley under an open unstructured jacket',
      'a dark green merino sweater over a collared shirt',
    ],
  },
  casual: {
    male: [
      'a plain heather grey crew-neck t-shirt',
      'a navy knit sweater',
      'a denim shirt with rolled sleeves',
      'a white linen shirt, relaxed fit',
      'an olive henley shirt',
    ],
    female: [
      'a plain white crew-neck t-shirt',
      'a soft oatmeal knit sweater',
      'a light denim shirt',
      'a relaxed striped breton top',
      'a sage green cotton blouse',
    ],
    diverse: [
      'a plain heather grey crew-neck t-shirt',
      'a soft oatmeal knit sweater',
      'a light denim shirt',
      'a white linen shirt, relaxed fit',
      'an olive henley shirt',
    ],
  },
};

/** Per setting: concrete backgrounds, at least as many as the biggest package's backgrounds. */
export const BACKGROUND_CATALOGUE: Readonly<Record<Location, readonly string[]>> = {
  office: [
    'a bright modern open-plan office with glass walls, softly out of focus',
    'a calm meeting room with a large window and daylight, softly out of focus',
    'a contemporary office lobby with warm wood and plants, softly out of focus',
    'a minimalist office with white walls and a bookshelf, softly out of focus',
    'a high-rise office with a city view through the window, softly out of focus',
  ],
  studio: [
    'a seamless light grey studio backdrop',
    'a smooth white studio backdrop with a soft gradient',
    'a mottled charcoal studio backdrop',
    'a warm beige studio backdrop',
    'a deep navy studio backdrop with a gentle vignette',
  ],
  creative: [
    'a textured concrete wall with soft daylight',
    'a colourful painted wall in muted teal and ochre, softly out of focus',
    'a bright loft with exposed brick, softly out of focus',
    'an urban street scene at golden hour, strongly out of focus',
    'a green park with soft bokeh',
  ],
};

const STYLE_WORDS: Readonly<Record<BaseStyle, string>> = {
  professional: 'classic, confident and trustworthy business portrait',
  casual: 'relaxed, friendly and approachable portrait',
  creative: 'modern, expressive editorial portrait',
};

const LIGHT: Readonly<Record<BaseStyle, string>> = {
  professional: 'soft even studio lighting with a gentle key light',
  casual: 'natural soft daylight',
  creative: 'soft directional light with subtle contrast',
};

/** The style's setting and outfit where the package has no refinement (basic). */
const DEFAULTS: Readonly<Record<BaseStyle, { location: Location; outfit: Outfit }>> = {
  professional: { location: 'studio', outfit: 'business' },
  casual: { location: 'studio', outfit: 'smart_casual' },
  creative: { location: 'creative', outfit: 'smart_casual' },
};

/** What no application photo may show: the usual failures of image models and anything off-brief. */
const NEGATIVE_BASE = [
  'different person',
  'changed facial features',
  'deformed face',
  'asymmetric eyes',
  'cartoon',
  'illustration',
  'painting',
  '3d render',
  'plastic skin',
  'over-smoothed skin',
  'heavy makeup',
  'extra fingers',
  'extra limbs',
  'multiple people',
  'cropped head',
  'text',
  'watermark',
  'logo',
  'sunglasses',
  'hat',
  'blurry',
  'low resolution',
  'overexposed',
  'oversaturated',
];

const NEGATIVE_BY_STYLE: Readonly<Record<BaseStyle, readonly string[]>> = {
  professional: ['casual clothes', 't-shirt', 'hoodie', 'party outfit', 'cleavage'],
  casual: ['formal suit', 'tie', 'party outfit'],
  creative: ['party outfit', 'costume'],
};

const SUBJECT: Readonly<Record<Gender, string>> = { male: 'man', female: 'woman', diverse: 'person' };

export function draftKeyForGeneration(generation: number, index: number): string {
  return `generator:${generation}:${index}`;
}

/** FNV-1a: a stable 31-bit seed from text, the same on every machine. */
function hash31(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) & 0x7fffffff;
}

/** The seed of one picture's attempt: a picture asked for again is a new picture, not a repeat. */
export function seedFor(orderId: string, generation: number, index: number, attempt: number): number {
  return hash31(`${orderId}:${generation}:${index}:${attempt}`);
}

export function promptFor(input: {
  style: BaseStyle;
  gender: Gender;
  outfit: string;
  background: string;
}): { prompt: string; negativePrompt: string } {
  const prompt =
    `Professional head-and-shoulders application photo of the ${SUBJECT[input.gender]} from the reference photos, ` +
    `keeping their face, hair, skin tone and identity exactly; ${STYLE_WORDS[input.style]}; ` +
    `wearing ${input.outfit}; in front of ${input.background}; ${LIGHT[input.style]}; ` +
    'looking into the camera with a natural, friendly expression; sharp focus on the eyes; photorealistic, 85 mm lens.';
  const negativePrompt = [...NEGATIVE_BASE, ...NEGATIVE_BY_STYLE[input.style]].join(', ');
  return { prompt, negativePrompt };
}

/**
 * The pictures of one run. Every outfit and background of the package appears early and every combination
 * comes before any repeats; past the package's own combinations (extra variants) each further round shifts
 * the pairing, and each picture has its own seed.
 */
export function planGeneration(request: GenerationRequest): PlannedPicture[] {
  const pkg = PACKAGES[request.package];
  const count = requiredResultCount(request.package, request.extras);
  const defaults = DEFAULTS[request.style];
  const location = pkg.hasRefinement && request.location ? request.location : defaults.location;
  const category = pkg.hasRefinement && request.outfit ? request.outfit : defaults.outfit;
  const outfits = OUTFIT_CATALOGUE[category][request.gender];
  const backgrounds = BACKGROUND_CATALOGUE[location];
  const outfitCount = Math.min(pkg.outfits, outfits.length);
  const backgroundCount = Math.min(pkg.backgrounds, backgrounds.length);
  const combinations = outfitCount * backgroundCount;
  return Array.from({ length: count }, (_, index) => {
    const round = Math.floor(index / combinations);
    const within = index % combinations;
    // A new run starts elsewhere in the catalogue, so "generate again" does not repeat the same looks.
    // Diagonal pairing: the first pictures already show every outfit and every background; the next ones pair
    // them anew, so all combinations come before any repeats.
    const outfitVariant = (within + request.generation) % outfitCount;
    const backgroundVariant = (within + Math.floor(within / outfitCount) + round + request.generation) % backgroundCount;
    const outfit = outfits[outfitVariant]!;
    const background = backgrounds[backgroundVariant]!;
    return {
      index,
      key: draftKeyForGeneration(request.generation, index),
      ...promptFor({ style: request.style, gender: request.gender, outfit, background }),
      outfit: { category, variant: outfitVariant, description: outfit },
      background: { location, variant: backgroundVariant, description: background },
      seed: seedFor(request.orderId, request.generation, index, 0),
      aspectRatio: '4:5',
    };
  });
}
