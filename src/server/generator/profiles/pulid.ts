// zsxkib/pulid on Replicate (PuLID on SDXL): up to four face photos per call (one main, three auxiliary),
// at most 8 images per call. Input names from the model's Cog predictor (predict.py of the SDXL PuLID Cog
// model: `main_face_image: Path`, `auxiliary_face_image1..3: Path`, `prompt`, `negative_prompt`,
// `image_width` / `image_height` 512–2024, `num_samples` 1–8, `seed`, `output_format` -> List[Path]); check
// against https://replicate.com/zsxkib/pulid/api/schema for the version you pin.
import { fitSize, readOutputs, splitCount, type ModelProfile } from './profile.js';

export const pulidProfile: ModelProfile = {
  key: 'pulid',
  model: 'zsxkib/pulid',
  output: 'list',
  calls(request) {
    const size = fitSize(request.width, request.height, { min: 512, max: 2024, multiple: 64 });
    const [main, ...auxiliary] = request.faces;
    return splitCount(request.count, 8).map((outputs, call) => ({
      outputs,
      input: {
        main_face_image: main,
        ...Object.fromEntries(auxiliary.slice(0, 3).map((face, i) => [`auxiliary_face_image${i + 1}`, face])),
        prompt: request.prompt,
        negative_prompt: request.negativePrompt,
        image_width: size.width,
        image_height: size.height,
        num_samples: outputs,
        seed: request.seed + call,
        output_format: 'png',
      },
    }));
  },
  outputs: (raw, expected) => readOutputs('pulid', 'list', raw, expected),
};
