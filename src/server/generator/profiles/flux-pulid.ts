// zsxkib/flux-pulid on Replicate (PuLID on FLUX.1-dev): one face photo per call, at most 4 images per call.
// Input names from the model's Cog predictor, github.com/zsxkib/PuLID predict.py (`main_face_image: Path`,
// `prompt`, `negative_prompt`, `width` / `height` 256–1536, `seed` (image i gets seed + i), `num_outputs` 1–4,
// `output_format` png|jpg|webp|base64 -> List[Path]).
import { fitSize, readOutputs, splitCount, type ModelProfile } from './profile.js';

export const fluxPulidProfile: ModelProfile = {
  key: 'flux-pulid',
  model: 'zsxkib/flux-pulid',
  output: 'list',
  calls(request) {
    const size = fitSize(request.width, request.height, { min: 256, max: 1536, multiple: 16 });
    return splitCount(request.count, 4).map((outputs, call) => ({
      outputs,
      input: {
        main_face_image: request.faces[0],
        prompt: request.prompt,
        negative_prompt: request.negativePrompt,
        width: size.width,
        height: size.height,
        // The model seeds image i with seed + i: calls step by 4 so no two pictures share a seed.
        seed: request.seed + call * 4,
        num_outputs: outputs,
        output_format: 'png',
      },
    }));
  },
  outputs: (raw, expected) => readOutputs('flux-pulid', 'list', raw, expected),
};
