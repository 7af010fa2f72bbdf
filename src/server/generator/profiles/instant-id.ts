// zsxkib/instant-id on Replicate (InstantID on SDXL), one face photo per call and one image per call.
// Input names from the model's Cog predictor, github.com/instantX-research/InstantID cog/predict.py
// (`predict(image: Path, prompt, negative_prompt, width 512–2048, height 512–2048, ip_adapter_scale,
// controlnet_conditioning_scale, num_inference_steps, guidance_scale) -> Path`). That version has no seed and
// no number of outputs, so `count` pictures are `count` calls with the best face photo; later versions on
// Replicate add inputs but keep these names (pin the version in GENERATOR_MODEL).
import { fitSize, readOutputs, splitCount, type ModelProfile } from './profile.js';

export const instantIdProfile: ModelProfile = {
  key: 'instant-id',
  model: 'zsxkib/instant-id',
  calls(request) {
    const size = fitSize(request.width, request.height, { min: 512, max: 2048, multiple: 64 });
    return splitCount(request.count, 1).map((outputs) => ({
      outputs,
      input: {
        image: request.faces[0],
        prompt: request.prompt,
        negative_prompt: request.negativePrompt,
        width: size.width,
        height: size.height,
      },
    }));
  },
  outputs: (raw, expected) => readOutputs('instant-id', 'single', raw, expected),
};
