// A model without its own profile: the mapping is a setting, GENERATOR_INPUT_MAP, a JSON object naming the
// model's inputs, e.g. for tencentarc/photomaker (github.com/TencentARC/PhotoMaker predict.py):
// {"faces":["input_image","input_image2","input_image3","input_image4"],"prompt":"prompt",
//  "negativePrompt":"negative_prompt","count":"num_outputs","seed":"seed","maxPerCall":4,"output":"list",
//  "fixed":{"style_name":"Photographic (Default)"}}
// `faces` is one input name (the best photo), a list of names (one photo each) or {"list": name} (all photos
// as one array input); `output` is "list" (List[Path]) or "single" (Path).
import { z } from 'zod';
import { fitSize, readOutputs, splitCount, type ModelProfile } from './profile.js';

const name = z.string().min(1);
export const inputMapSchema = z
  .object({
    faces: z.union([name, z.array(name).min(1), z.object({ list: name }).strict()]),
    prompt: name,
    negativePrompt: name.optional(),
    count: name.optional(),
    seed: name.optional(),
    width: name.optional(),
    height: name.optional(),
    /** Largest image size the model takes (default 1024). */
    maxSide: z.number().int().min(256).max(4096).default(1024),
    /** Images one call makes at most (1 without `count`). */
    maxPerCall: z.number().int().min(1).max(16).default(1),
    output: z.enum(['list', 'single']),
    /** Further inputs sent as they are. */
    fixed: z.record(z.string(), z.unknown()).default({}),
  })
  .strict();
export type InputMap = z.infer<typeof inputMapSchema>;

/** Reads GENERATOR_INPUT_MAP; the message names what is wrong. */
export function parseInputMap(json: string): InputMap | string {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    return 'is not JSON';
  }
  const parsed = inputMapSchema.safeParse(raw);
  if (!parsed.success) return parsed.error.issues.map((issue) => `${issue.path.join('.') || '(top)'}: ${issue.message}`).join('; ');
  if (!parsed.data.count && parsed.data.maxPerCall > 1) return 'maxPerCall above 1 needs count (the input that sets the number of images)';
  return parsed.data;
}

export function genericProfile(map: InputMap): ModelProfile {
  return {
    key: 'generic',
    model: null,
    output: map.output,
    calls(request) {
      const size = fitSize(request.width, request.height, { min: 256, max: map.maxSide, multiple: 64 });
      const faces = typeof map.faces === 'string' ? { [map.faces]: request.faces[0] } : Array.isArray(map.faces) ? Object.fromEntries(map.faces.slice(0, request.faces.length).map((input, i) => [input, request.faces[i]])) : { [map.faces.list]: request.faces };
      return splitCount(request.count, map.maxPerCall).map((outputs, call) => ({
        outputs,
        input: {
          ...map.fixed,
          ...faces,
          [map.prompt]: request.prompt,
          ...(map.negativePrompt ? { [map.negativePrompt]: request.negativePrompt } : {}),
          ...(map.count ? { [map.count]: outputs } : {}),
          ...(map.seed ? { [map.seed]: request.seed + call * map.maxPerCall } : {}),
          ...(map.width ? { [map.width]: size.width } : {}),
          ...(map.height ? { [map.height]: size.height } : {}),
        },
      }));
    },
    outputs: (raw, expected) => readOutputs('generic', map.output, raw, expected),
  };
}
