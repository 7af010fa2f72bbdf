// Each profile sends its model's own input names and reads its model's output shape; a wrong one says so.
import { expect, test } from 'vitest';
import { GeneratorError } from '../generator-error.js';
import { fluxPulidProfile } from './flux-pulid.js';
import { genericProfile, parseInputMap, type InputMap } from './generic.js';
import { instantIdProfile } from './instant-id.js';
import { fitSize, readOutputs, splitCount, type GenerationRequest } from './profile.js';
import { pulidProfile } from './pulid.js';
import { findProfile } from './registry.js';

const request: GenerationRequest = {
  faces: ['https://shop.example/a.jpg', 'https://shop.example/b.jpg', 'https://shop.example/c.jpg', 'https://shop.example/d.jpg', 'https://shop.example/e.jpg'],
  prompt: 'a portrait',
  negativePrompt: 'blurry',
  count: 10,
  seed: 1000,
  width: 1024,
  height: 1280,
};

test('counts split into calls, sizes fitted into a model\'s limits keeping the portrait shape', () => {
  expect(splitCount(10, 4)).toEqual([4, 4, 2]);
  expect(splitCount(3, 8)).toEqual([3]);
  expect(splitCount(2, 1)).toEqual([1, 1]);
  expect(fitSize(1024, 1280, { min: 512, max: 2048, multiple: 64 })).toEqual({ width: 1024, height: 1280 });
  expect(fitSize(1024, 1280, { min: 256, max: 1024, multiple: 16 })).toEqual({ width: 816, height: 1024 });
});

test('InstantID: one face photo, up to 8 pictures per call, seeds that never repeat, PNG; no size (its predictor has none)', () => {
  const calls = instantIdProfile.calls(request);
  expect(calls.map((c) => [c.outputs, c.input.seed])).toEqual([[8, 1000], [2, 1008]]);
  expect(calls[0]).toEqual({ outputs: 8, input: { image: request.faces[0], prompt: 'a portrait', negative_prompt: 'blurry', seed: 1000, num_outputs: 8, output_format: 'png' } });
  // A single picture, as the generator service asks for each attempt: the attempt's seed goes to the model.
  expect(instantIdProfile.calls({ ...request, count: 1, seed: 77 })).toEqual([{ outputs: 1, input: expect.objectContaining({ seed: 77, num_outputs: 1 }) }]);
  // It returns a list (List[Path]); one address alone is read as a list of one.
  expect(instantIdProfile.outputs(['https://replicate.delivery/x/out_0.png'], 1)).toEqual(['https://replicate.delivery/x/out_0.png']);
  expect(instantIdProfile.outputs('https://replicate.delivery/x/out_0.png', 1)).toEqual(['https://replicate.delivery/x/out_0.png']);
  expect(() => instantIdProfile.outputs(['https://replicate.delivery/x/out_0.png'], 2)).toThrow(/answered 1 of 2 images/);
});

test('PuLID (SDXL): a main and up to three auxiliary faces, num_samples up to 8, its own size names', () => {
  const calls = pulidProfile.calls(request);
  expect(calls.map((c) => c.outputs)).toEqual([8, 2]);
  expect(calls[0]!.input).toMatchObject({ main_face_image: request.faces[0], auxiliary_face_image1: request.faces[1], auxiliary_face_image3: request.faces[3], num_samples: 8, seed: 1000, image_width: 1024, image_height: 1280 });
  expect(calls[0]!.input).not.toHaveProperty('auxiliary_face_image4');
  expect(calls[1]!.input).toMatchObject({ num_samples: 2, seed: 1001 });
  expect(pulidProfile.calls({ ...request, faces: [request.faces[0]!], count: 3 })[0]!.input).not.toHaveProperty('auxiliary_face_image1');
});

test('FLUX PuLID: one face, num_outputs up to 4, seeds that never repeat (image i gets seed + i)', () => {
  const calls = fluxPulidProfile.calls(request);
  expect(calls.map((c) => [c.outputs, c.input.seed])).toEqual([[4, 1000], [4, 1004], [2, 1008]]);
  expect(calls[0]!.input).toMatchObject({ main_face_image: request.faces[0], num_outputs: 4, width: 1024, height: 1280 });
});

test('outputs: no images, a string for a list, too few, or something that is not an address are errors for staff', () => {
  const list = ['https://replicate.delivery/a.png', 'data:image/png;base64,iVBORw0KGgo='];
  expect(readOutputs('p', 'list', list, 2)).toEqual(list);
  for (const [raw, message] of [
    [[], /answered no images/],
    [null, /answered no output/],
    ['https://replicate.delivery/a.png', /answered 1 of 2 images; profile "p" expects a list of 2 images/],
    [['https://replicate.delivery/a.png'], /answered 1 of 2 images/],
    [['a caption', 'another'], /answered a string \(a caption/],
    [[{ url: 'x' }, 'y'], /answered a object/],
  ] as const) {
    expect(() => readOutputs('p', 'list', raw, 2), JSON.stringify(raw)).toThrow(GeneratorError);
    expect(() => readOutputs('p', 'list', raw, 2)).toThrow(message);
  }
});

test('the generic profile: mapping from GENERATOR_INPUT_MAP (PhotoMaker\'s names as the example), refused when wrong', () => {
  const map = parseInputMap(
    JSON.stringify({ faces: ['input_image', 'input_image2', 'input_image3', 'input_image4'], prompt: 'prompt', negativePrompt: 'negative_prompt', count: 'num_outputs', seed: 'seed', maxPerCall: 4, output: 'list', fixed: { style_name: 'Photographic (Default)' } }),
  ) as InputMap;
  expect(typeof map).toBe('object');
  const calls = genericProfile(map).calls(request);
  expect(calls.map((c) => c.outputs)).toEqual([4, 4, 2]);
  expect(calls[0]!.input).toEqual({ style_name: 'Photographic (Default)', input_image: request.faces[0], input_image2: request.faces[1], input_image3: request.faces[2], input_image4: request.faces[3], prompt: 'a portrait', negative_prompt: 'blurry', num_outputs: 4, seed: 1000 });
  expect(genericProfile({ ...map, faces: { list: 'input_images' } }).calls(request)[0]!.input.input_images).toEqual(request.faces);
  expect(parseInputMap('{')).toBe('is not JSON');
  expect(parseInputMap(JSON.stringify({ faces: 'image', prompt: 'prompt' }))).toMatch(/output/);
  expect(parseInputMap(JSON.stringify({ faces: 'image', prompt: 'prompt', output: 'list', maxPerCall: 4 }))).toMatch(/needs count/);
  expect(parseInputMap(JSON.stringify({ faces: 'image', prompt: 'prompt', output: 'list', promt: 'x' }))).toMatch(/promt|Unrecognized/);
});

test('profiles are found by key or by the model in GENERATOR_MODEL, with or without a version', () => {
  expect(findProfile({ model: 'zsxkib/pulid:' + 'a'.repeat(64) })).toBe(pulidProfile);
  expect(findProfile({ model: 'zsxkib/instant-id' })).toBe(instantIdProfile);
  expect(findProfile({ key: 'flux-pulid', model: 'acme/whatever' })).toBe(fluxPulidProfile);
  expect(findProfile({ model: 'acme/unknown' })).toBeNull();
  expect(findProfile({ key: 'generic' })).toBeNull();
});
