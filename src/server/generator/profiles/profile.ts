// A model profile maps our request (the customer's face photos, prompt, count, seed, size) onto one model's
// own input names, written from that model's published input schema, and reads its output back. One module
// per model; registry.ts picks one by GENERATOR_PROFILE (or by the model named in GENERATOR_MODEL).
import { GeneratorError } from '../generator-error.js';

export interface GenerationRequest {
  /** Short-lived links to the customer's photos, best first. */
  faces: string[];
  prompt: string;
  negativePrompt: string;
  /** Pictures wanted in total (the profile splits them into calls). */
  count: number;
  /** Seed of the first call; a profile gives each call its own seed derived from it. */
  seed: number;
  /** Wanted size; a profile fits it into its model's limits, keeping the aspect ratio. */
  width: number;
  height: number;
}

export interface ModelCall {
  input: Record<string, unknown>;
  /** Images this call must answer with. */
  outputs: number;
}

export interface ModelProfile {
  readonly key: string;
  /** The model (owner/name) the profile was written for; null for the generic one. */
  readonly model: string | null;
  /** What the model's published schema says it returns: `list` (Cog List[Path]) or `single` (Path). */
  readonly output: 'list' | 'single';
  /** The predictions that make `count` pictures (several when the model makes fewer per call). */
  calls(request: GenerationRequest): ModelCall[];
  /** The output of one finished call as image references (URLs or data: URIs); anything else is an error. */
  outputs(raw: unknown, expected: number): string[];
}

/** `count` split into calls of at most `perCall` outputs: 10 by 4 is [4, 4, 2]. */
export function splitCount(count: number, perCall: number): number[] {
  const calls: number[] = [];
  for (let left = count; left > 0; left -= perCall) calls.push(Math.min(perCall, left));
  return calls;
}

/** The wanted size scaled into [min, max] on both sides, rounded down to a multiple (SDXL: 64, FLUX: 16). */
export function fitSize(width: number, height: number, limits: { min: number; max: number; multiple: number }): { width: number; height: number } {
  let scale = Math.min(1, limits.max / Math.max(width, height));
  scale = Math.max(scale, limits.min / Math.min(width, height));
  const round = (v: number) => Math.min(limits.max, Math.max(limits.min, Math.floor((v * scale) / limits.multiple) * limits.multiple));
  return { width: round(width), height: round(height) };
}

function describe(raw: unknown): string {
  if (raw === null || raw === undefined) return 'no output';
  if (typeof raw === 'string') return `a string (${raw.slice(0, 40)}…)`;
  if (Array.isArray(raw)) return `a list of ${raw.length}`;
  return `a ${typeof raw}`;
}

function isImageReference(value: unknown): value is string {
  return typeof value === 'string' && (/^https?:\/\//.test(value) || /^data:[^,]*;base64,/.test(value));
}

/**
 * Reads a model's output: a list of images (Cog `List[Path]`) or one image (`Path`), whichever the profile's
 * schema declares (`shape`, named in the errors); a model that answers the other form is read all the same (one
 * image is a list of one), since a model version may change it. Anything else, no images, or fewer than
 * `expected` is an error staff can act on, never an empty order.
 */
export function readOutputs(profile: string, shape: 'list' | 'single', raw: unknown, expected: number): string[] {
  const wrong = (what: string) => new GeneratorError(`the model answered ${what}; profile "${profile}" expects ${shape === 'list' ? `a list of ${expected} images` : 'one image'} (check GENERATOR_PROFILE and GENERATOR_MODEL, and run npm run generator:check)`);
  if (!Array.isArray(raw) && typeof raw !== 'string') throw wrong(describe(raw));
  const items: unknown[] = Array.isArray(raw) ? raw : [raw];
  if (items.length === 0) throw wrong('no images');
  // A path with no address: a Cog container started without --upload-url answers where the file lies inside
  // itself (Cog 0.13.6, asynchronous predictions). A setting to fix: asking again would pay for another such answer.
  const path = items.find((item): item is string => typeof item === 'string' && item.startsWith('/'));
  if (path !== undefined) {
    throw new GeneratorError(
      `the Cog container answered a file path inside itself (${path.slice(0, 120)}), which the shop cannot read: it was started without --upload-url. Start it with the upload address npm run generator:check prints, then run the generator again`,
      null,
      true,
    );
  }
  const bad = items.find((item) => !isImageReference(item));
  if (bad !== undefined) throw wrong(`${describe(bad)} where an image address belongs`);
  if (items.length < expected) throw wrong(`${items.length} of ${expected} images`);
  return (items as string[]).slice(0, expected);
}
