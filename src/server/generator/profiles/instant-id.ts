// zsxkib/instant-id on Replicate (InstantID on SDXL): one face photo per call, up to 8 images per call. Inputs
// and output from the model's published Cog predictor (github.com/zsxkib/InstantID, cog/predict.py): `image:
// Path` (the face), `prompt`, `negative_prompt`, `seed: int` (none: random), `num_outputs` 1–8, `output_format`
// webp|jpg|png (webp unless asked), and many more left at their defaults; it returns `List[Path]`. It has no
// width or height: a picture takes the face photo's shape, scaled to 1024–1280 px (the drafts are framed from it
// afterwards). Checked against the configured model's own schema by `npm run generator:check`.
import { readOutputs, splitCount, type ModelProfile } from './profile.js';

/** The predictor's `num_outputs` limit. */
const MAX_PER_CALL = 8;

export const instantIdProfile: ModelProfile = {
  key: 'instant-id',
  model: 'zsxkib/instant-id',
  output: 'list',
  calls(request) {
    return splitCount(request.count, MAX_PER_CALL).map((outputs, call) => ({
      outputs,
      input: {
        image: request.faces[0],
        prompt: request.prompt,
        negative_prompt: request.negativePrompt,
        // One generator per call, seeded once: its images differ from each other; the next call steps past them.
        seed: request.seed + call * MAX_PER_CALL,
        num_outputs: outputs,
        output_format: 'png',
      },
    }));
  },
  outputs: (raw, expected) => readOutputs('instant-id', 'list', raw, expected),
};
