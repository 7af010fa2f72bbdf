// The published interfaces of the models the profiles are written for, as the servers publish them, for the
// stand-ins (cog-stand-in.ts serves them at GET /openapi.json, replicate-stand-in.ts as a version's
// `openapi_schema`). Each is the OpenAPI document Cog 0.13 generates from the model's `predict` signature
// (pydantic 1: `ge`/`le` as minimum/maximum, `choices` as an enumeration behind an allOf reference, no default
// for `None`, `x-order` in the signature's order, `Path` as a string of format uri; python/cog/predictor.py and
// the fixtures of python/tests/server/test_http.py at v0.13.6), written from each predictor's source at the
// commit named (long descriptions and a long default prompt shortened). Test-only: the shop reads a model's real
// schema from its server (model-schema.ts); `validateInput` answers as Cog's input model does.

type InputType = 'string' | 'integer' | 'number' | 'boolean' | 'path';

interface PublishedInput {
  type: InputType;
  description?: string;
  default?: string | number | boolean;
  ge?: number;
  le?: number;
  choices?: readonly (string | number)[];
  /** `Input()` without a default; an input whose default is None is not. */
  required?: true;
}

export interface PublishedModel {
  /** owner/name on Replicate. */
  name: string;
  /** Where the signature was read. */
  source: string;
  openapi: Record<string, unknown>;
  /** The input that sets how many images one prediction returns, if any. */
  countInput: string | null;
}

/** Pydantic 1's title for a field: words capitalised, underscores as spaces. */
const title = (name: string) => name.split('_').map((word) => (word ? word[0]!.toUpperCase() + word.slice(1) : word)).join(' ');

function cogOpenApi(inputs: Record<string, PublishedInput>, output: 'list' | 'single'): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  const enums: Record<string, unknown> = {};
  const required: string[] = [];
  Object.entries(inputs).forEach(([name, spec], order) => {
    if (spec.required) required.push(name);
    const common = { ...(spec.description ? { description: spec.description } : {}), ...(spec.default !== undefined ? { default: spec.default } : {}) };
    if (spec.choices) {
      enums[name] = { title: name, description: 'An enumeration.', enum: spec.choices, type: typeof spec.choices[0] === 'number' ? 'integer' : 'string' };
      properties[name] = { allOf: [{ $ref: `#/components/schemas/${name}` }], ...common, 'x-order': order };
      return;
    }
    properties[name] = {
      title: title(name),
      type: spec.type === 'path' ? 'string' : spec.type,
      ...(spec.type === 'path' ? { format: 'uri' } : {}),
      ...common,
      ...(spec.ge !== undefined ? { minimum: spec.ge } : {}),
      ...(spec.le !== undefined ? { maximum: spec.le } : {}),
      'x-order': order,
    };
  });
  const file = { type: 'string', format: 'uri' };
  return {
    openapi: '3.0.2',
    info: { title: 'Cog', version: '0.1.0' },
    paths: {},
    components: {
      schemas: {
        Input: { title: 'Input', ...(required.length ? { required } : {}), type: 'object', properties },
        Output: output === 'list' ? { title: 'Output', type: 'array', items: file } : { title: 'Output', ...file },
        ...enums,
      },
    },
  };
}

/** zsxkib/instant-id: github.com/zsxkib/InstantID cog/predict.py at 37d5202. `image` has no default: required. */
export const INSTANT_ID: PublishedModel = {
  name: 'zsxkib/instant-id',
  source: 'github.com/zsxkib/InstantID cog/predict.py @ 37d5202',
  countInput: 'num_outputs',
  openapi: cogOpenApi(
    {
      image: { type: 'path', description: 'Input face image', required: true },
      pose_image: { type: 'path', description: '(Optional) reference pose image' },
      prompt: { type: 'string', description: 'Input prompt', default: 'a person' },
      negative_prompt: { type: 'string', description: 'Input Negative Prompt', default: '' },
      sdxl_weights: {
        type: 'string',
        description: 'Pick which base weights you want to use',
        default: 'stable-diffusion-xl-base-1.0',
        choices: ['stable-diffusion-xl-base-1.0', 'juggernaut-xl-v8', 'afrodite-xl-v2', 'albedobase-xl-20', 'albedobase-xl-v13', 'animagine-xl-30', 'anime-art-diffusion-xl', 'anime-illust-diffusion-xl', 'dreamshaper-xl', 'dynavision-xl-v0610', 'guofeng4-xl', 'nightvision-xl-0791', 'omnigen-xl', 'pony-diffusion-v6-xl', 'protovision-xl-high-fidel', 'RealVisXL_V3.0_Turbo', 'RealVisXL_V4.0_Lightning'],
      },
      face_detection_input_width: { type: 'integer', description: 'Width of the input image for face detection', default: 640, ge: 640, le: 4096 },
      face_detection_input_height: { type: 'integer', description: 'Height of the input image for face detection', default: 640, ge: 640, le: 4096 },
      scheduler: { type: 'string', description: 'Scheduler', default: 'EulerDiscreteScheduler', choices: ['DEISMultistepScheduler', 'HeunDiscreteScheduler', 'EulerDiscreteScheduler', 'DPMSolverMultistepScheduler', 'DPMSolverMultistepScheduler-Karras', 'DPMSolverMultistepScheduler-Karras-SDE'] },
      num_inference_steps: { type: 'integer', description: 'Number of denoising steps', default: 30, ge: 1, le: 500 },
      guidance_scale: { type: 'number', description: 'Scale for classifier-free guidance', default: 7.5, ge: 1, le: 50 },
      ip_adapter_scale: { type: 'number', description: 'Scale for image adapter strength (for detail)', default: 0.8, ge: 0, le: 1.5 },
      controlnet_conditioning_scale: { type: 'number', description: 'Scale for IdentityNet strength (for fidelity)', default: 0.8, ge: 0, le: 1.5 },
      enable_pose_controlnet: { type: 'boolean', description: 'Enable Openpose ControlNet, overrides strength if set to false', default: true },
      pose_strength: { type: 'number', description: 'Openpose ControlNet strength, effective only if `enable_pose_controlnet` is true', default: 0.4, ge: 0, le: 1 },
      enable_canny_controlnet: { type: 'boolean', description: 'Enable Canny ControlNet, overrides strength if set to false', default: false },
      canny_strength: { type: 'number', description: 'Canny ControlNet strength, effective only if `enable_canny_controlnet` is true', default: 0.3, ge: 0, le: 1 },
      enable_depth_controlnet: { type: 'boolean', description: 'Enable Depth ControlNet, overrides strength if set to false', default: false },
      depth_strength: { type: 'number', description: 'Depth ControlNet strength, effective only if `enable_depth_controlnet` is true', default: 0.5, ge: 0, le: 1 },
      enable_lcm: { type: 'boolean', description: 'Enable Fast Inference with LCM (Latent Consistency Models)', default: false },
      lcm_num_inference_steps: { type: 'integer', description: 'Only used when `enable_lcm` is set to True, Number of denoising steps when using LCM', default: 5, ge: 1, le: 10 },
      lcm_guidance_scale: { type: 'number', description: 'Only used when `enable_lcm` is set to True, Scale for classifier-free guidance when using LCM', default: 1.5, ge: 1, le: 20 },
      enhance_nonface_region: { type: 'boolean', description: 'Enhance non-face region', default: true },
      output_format: { type: 'string', description: 'Format of the output images', default: 'webp', choices: ['webp', 'jpg', 'png'] },
      output_quality: { type: 'integer', description: 'Quality of the output images, from 0 to 100. 100 is best quality, 0 is lowest quality.', default: 80, ge: 0, le: 100 },
      seed: { type: 'integer', description: 'Random seed. Leave blank to randomize the seed' },
      num_outputs: { type: 'integer', description: 'Number of images to output', default: 1, ge: 1, le: 8 },
      disable_safety_checker: { type: 'boolean', description: 'Disable safety checker for generated images', default: false },
    },
    'list',
  ),
};

/** zsxkib/flux-pulid: github.com/zsxkib/PuLID predict.py, branch cog-flux-pulid at 833fb9a. Every input has a default: none required. */
export const FLUX_PULID: PublishedModel = {
  name: 'zsxkib/flux-pulid',
  source: 'github.com/zsxkib/PuLID predict.py @ 833fb9a (branch cog-flux-pulid)',
  countInput: 'num_outputs',
  openapi: cogOpenApi(
    {
      main_face_image: { type: 'path', description: 'Upload an ID image for face generation', default: '' },
      main_face_base64: { type: 'string', description: 'Upload an ID image for face generation', default: '' },
      prompt: { type: 'string', description: 'Enter a text prompt to guide image generation', default: 'portrait, color, cinematic' },
      negative_prompt: { type: 'string', description: 'Enter a negative prompt to specify what to avoid in the image', default: 'bad quality, worst quality, text, signature, watermark, extra limbs' },
      width: { type: 'integer', description: 'Set the width of the generated image (256-1536 pixels)', default: 896, ge: 256, le: 1536 },
      height: { type: 'integer', description: 'Set the height of the generated image (256-1536 pixels)', default: 1152, ge: 256, le: 1536 },
      num_steps: { type: 'integer', description: 'Set the number of denoising steps (1-20)', default: 20, ge: 1, le: 20 },
      start_step: { type: 'integer', description: 'Set the timestep to start inserting ID', default: 0, ge: 0, le: 10 },
      guidance_scale: { type: 'number', description: 'Set the guidance scale for text prompt influence (1.0-10.0)', default: 4, ge: 1, le: 10 },
      id_weight: { type: 'number', description: 'Set the weight of the ID image influence (0.0-3.0)', default: 1, ge: 0, le: 3 },
      seed: { type: 'integer', description: 'Set a random seed for generation (leave blank or -1 for random)' },
      true_cfg: { type: 'number', description: 'Set the Classifier-Free Guidance (CFG) scale', default: 1, ge: 1, le: 10 },
      max_sequence_length: { type: 'integer', description: 'Set the max sequence length for prompt (T5), smaller is faster (128-512)', default: 128, ge: 128, le: 512 },
      output_format: { type: 'string', description: 'Choose the format of the output image', default: 'webp', choices: ['png', 'jpg', 'webp', 'base64'] },
      output_quality: { type: 'integer', description: 'Set the quality of the output image for jpg and webp (1-100)', default: 80, ge: 1, le: 100 },
      num_outputs: { type: 'integer', description: 'Set the number of images to generate (1-4)', default: 1, ge: 1, le: 4 },
    },
    'list',
  ),
};

/** zsxkib/pulid (SDXL): github.com/zsxkib/PuLID predict.py, branch cog-sdxl-pulid at e0f5144. `main_face_image` required; four images unless asked. */
export const PULID: PublishedModel = {
  name: 'zsxkib/pulid',
  source: 'github.com/zsxkib/PuLID predict.py @ e0f5144 (branch cog-sdxl-pulid)',
  countInput: 'num_samples',
  openapi: cogOpenApi(
    {
      main_face_image: { type: 'path', description: 'ID image (main)', required: true },
      auxiliary_face_image1: { type: 'path', description: 'Additional ID image (auxiliary)' },
      auxiliary_face_image2: { type: 'path', description: 'Additional ID image (auxiliary)' },
      auxiliary_face_image3: { type: 'path', description: 'Additional ID image (auxiliary)' },
      prompt: { type: 'string', description: 'Prompt', default: 'portrait,color,cinematic,in garden,soft light,detailed face' },
      negative_prompt: { type: 'string', description: 'Negative Prompt', default: 'flaws in the eyes, flaws in the face, flaws, lowres, non-HDRi, low quality, worst quality' },
      cfg_scale: { type: 'number', description: 'CFG, recommend value range [1, 1.5], 1 will be faster', default: 1.2, ge: 1, le: 1.5 },
      num_steps: { type: 'integer', description: 'Steps', default: 4, ge: 1, le: 100 },
      image_height: { type: 'integer', description: 'Height', default: 1024, ge: 512, le: 2024 },
      image_width: { type: 'integer', description: 'Width', default: 768, ge: 512, le: 2024 },
      identity_scale: { type: 'number', description: 'ID scale', default: 0.8, ge: 0, le: 5 },
      generation_mode: { type: 'string', description: 'mode', default: 'fidelity', choices: ['fidelity', 'extremely style'] },
      mix_identities: { type: 'boolean', description: 'ID Mix (if you want to mix two ID image, please turn this on, otherwise, turn this off)', default: false },
      seed: { type: 'integer', description: 'Random seed. Leave blank to randomize the seed' },
      num_samples: { type: 'integer', description: 'Num samples', default: 4, ge: 1, le: 8 },
      output_format: { type: 'string', description: 'Format of the output images', default: 'webp', choices: ['webp', 'jpg', 'png'] },
      output_quality: { type: 'integer', description: 'Quality of the output images, from 0 to 100. 100 is best quality, 0 is lowest quality.', default: 80, ge: 0, le: 100 },
    },
    'list',
  ),
};

export const PUBLISHED_MODELS: readonly PublishedModel[] = [INSTANT_ID, PULID, FLUX_PULID];

export interface InputError {
  loc: string[];
  msg: string;
  type: string;
}

/**
 * A prediction's input as Cog's input model (pydantic 1) takes it: inputs the model does not have are dropped,
 * numbers given as text are converted, and a missing required input, a wrong type, a value out of range or not
 * among the choices is a 422 with pydantic's messages. Returns what the predictor would receive, or the errors.
 */
export function validateInput(model: PublishedModel, input: Record<string, unknown>): { received: Record<string, unknown>; errors: InputError[] } {
  const schemas = (model.openapi.components as { schemas: Record<string, { properties?: Record<string, Record<string, unknown>>; required?: string[]; enum?: unknown[] }> }).schemas;
  const properties = schemas.Input!.properties!;
  const errors: InputError[] = [];
  const received: Record<string, unknown> = {};
  const error = (name: string, msg: string, type: string) => errors.push({ loc: ['body', 'input', name], msg, type });
  for (const name of schemas.Input!.required ?? []) if (input[name] === undefined || input[name] === null) error(name, 'field required', 'value_error.missing');
  for (const [name, value] of Object.entries(input)) {
    const property = properties[name];
    if (!property || value === undefined || value === null) continue;
    const ref = (property.allOf as { $ref: string }[] | undefined)?.[0]?.$ref;
    const choices = ref ? schemas[ref.split('/').pop()!]!.enum! : null;
    if (choices) {
      if (!choices.includes(value)) error(name, `value is not a valid enumeration member; permitted: ${choices.map((c) => (typeof c === 'string' ? `'${c}'` : String(c))).join(', ')}`, 'type_error.enum');
      else received[name] = value;
      continue;
    }
    let converted: unknown = value;
    if (property.type === 'integer' || property.type === 'number') {
      const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
      if (!Number.isFinite(n) || (property.type === 'integer' && !Number.isInteger(n))) {
        error(name, property.type === 'integer' ? 'value is not a valid integer' : 'value is not a valid float', property.type === 'integer' ? 'type_error.integer' : 'type_error.float');
        continue;
      }
      if (typeof property.minimum === 'number' && n < property.minimum) {
        error(name, `ensure this value is greater than or equal to ${property.minimum}`, 'value_error.number.not_ge');
        continue;
      }
      if (typeof property.maximum === 'number' && n > property.maximum) {
        error(name, `ensure this value is less than or equal to ${property.maximum}`, 'value_error.number.not_le');
        continue;
      }
      converted = n;
    } else if (property.type === 'boolean') {
      if (typeof value !== 'boolean') {
        error(name, 'value could not be parsed to a boolean', 'type_error.bool');
        continue;
      }
    } else if (property.type === 'string') {
      if (typeof value !== 'string') {
        error(name, 'str type expected', 'type_error.str');
        continue;
      }
      // A Path that is no http(s) or data: address is taken as a file inside the container (cog/types.py).
    }
    received[name] = converted;
  }
  return { received, errors };
}

/** How many images a prediction with this (received) input returns, and in which shape. */
export function outputsOf(model: PublishedModel, received: Record<string, unknown>): { count: number; shape: 'list' | 'single' } {
  const output = (model.openapi.components as { schemas: { Output: { type?: string } } }).schemas.Output;
  const shape = output.type === 'array' ? 'list' : 'single';
  const declared = model.countInput ? received[model.countInput] : undefined;
  const fallback = model.countInput ? ((model.openapi.components as { schemas: { Input: { properties: Record<string, { default?: number }> } } }).schemas.Input.properties[model.countInput]?.default ?? 1) : 1;
  return { shape, count: shape === 'single' ? 1 : typeof declared === 'number' ? declared : fallback };
}

/** The image format the predictor saves its files in (`output_format`, or its default); null: the model has no such input. */
export function fileFormatOf(model: PublishedModel, received: Record<string, unknown>): 'png' | 'jpg' | 'webp' | null {
  const chosen = received.output_format ?? (model.openapi.components as { schemas: { Input: { properties: Record<string, { default?: unknown }> } } }).schemas.Input.properties.output_format?.default;
  return chosen === 'png' || chosen === 'jpg' || chosen === 'webp' ? chosen : null;
}
