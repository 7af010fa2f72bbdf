// A profile against the schema its model publishes: Cog's OpenAPI as Cog itself renders it, every mismatch named.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createCogGenerator } from './cog-generator.js';
import { checkGenerator, checkInput, checkProfile, readModelSchema } from './model-schema.js';
import { fluxPulidProfile } from './profiles/flux-pulid.js';
import { instantIdProfile } from './profiles/instant-id.js';
import { fitSize, readOutputs, splitCount, type ModelProfile } from './profiles/profile.js';
import { FLUX_PULID, INSTANT_ID, PULID } from '../test/generator/published-models.js';
import { pulidProfile } from './profiles/pulid.js';
import { createReplicateGenerator } from './replicate-generator.js';
import { cogUploadUrl } from './upload-address.js';
import { startCogStandIn, type CogStandIn } from '../test/generator/cog-stand-in.js';
import { startReplicateStandIn, type ReplicateStandIn } from '../test/generator/replicate-stand-in.js';
import { GeneratorError } from './generator-error.js';
import { PROJECT_ROOT } from '../paths.js';

/** The instant-id profile as it was first written, from a description of the model: its first day's faults. */
const describedInstantId: ModelProfile = {
  key: 'instant-id',
  model: 'zsxkib/instant-id',
  output: 'single',
  calls: (request) =>
    splitCount(request.count, 1).map((outputs) => ({
      outputs,
      input: { image: request.faces[0], prompt: request.prompt, negative_prompt: request.negativePrompt, ...fitSize(request.width, request.height, { min: 512, max: 2048, multiple: 64 }) },
    })),
  outputs: (raw, expected) => readOutputs('instant-id', 'single', raw, expected),
};

test("Cog's own rendering of inputs is read: required, types, limits, choices behind an allOf reference, file outputs", () => {
  // components.schemas as Cog 0.13.6's own test expects them (python/tests/server/test_http.py, openapi_complex_input).
  const cog = {
    components: {
      schemas: {
        Input: {
          title: 'Input',
          required: ['no_default', 'path', 'image', 'choices', 'int_choices'],
          type: 'object',
          properties: {
            no_default: { title: 'No Default', type: 'string', 'x-order': 0 },
            default_without_input: { title: 'Default Without Input', type: 'string', default: 'default', 'x-order': 1 },
            input_with_default: { title: 'Input With Default', type: 'integer', default: -10, 'x-order': 2 },
            path: { title: 'Path', description: 'Some path', type: 'string', format: 'uri', 'x-order': 3 },
            image: { title: 'Image', description: 'Some path', type: 'string', format: 'uri', 'x-order': 4 },
            choices: { allOf: [{ $ref: '#/components/schemas/choices' }], 'x-order': 5 },
            int_choices: { allOf: [{ $ref: '#/components/schemas/int_choices' }], 'x-order': 6 },
          },
        },
        Output: { title: 'Output', type: 'array', items: { type: 'string', format: 'uri' } },
        choices: { title: 'choices', enum: ['foo', 'bar'], description: 'An enumeration.', type: 'string' },
        int_choices: { description: 'An enumeration.', enum: [3, 4, 5], title: 'int_choices', type: 'integer' },
      },
    },
  };
  const schema = readModelSchema(cog);
  expect(schema.required).toEqual(['no_default', 'path', 'image', 'choices', 'int_choices']);
  expect(schema.inputs.path).toEqual({ type: 'string', format: 'uri', minimum: null, maximum: null, choices: null });
  expect(schema.inputs.int_choices!.choices).toEqual([3, 4, 5]);
  expect(schema.output).toBe('list');
  // `-> str` is no image; `-> Path` is one.
  expect(readModelSchema({ components: { schemas: { ...cog.components.schemas, Output: { title: 'Output', type: 'string' } } } }).output).toBe('other');
  expect(readModelSchema({ components: { schemas: { ...cog.components.schemas, Output: { title: 'Output', type: 'string', format: 'uri' } } } }).output).toBe('single');
  expect(() => readModelSchema({ openapi: '3.0.2', components: {} })).toThrow(GeneratorError);
  expect(() => readModelSchema('<html>')).toThrow(/publishes no input and output schema/);

  expect(checkInput({ no_default: 'x', path: 'https://a/b.png', image: 'data:image/png;base64,AA==', choices: 'foo', int_choices: 4 }, schema)).toEqual([]);
  expect(checkInput({ path: 'a.png', image: 7, choices: 'baz', int_choices: 4.5, width: 512, input_with_default: '3' }, schema)).toEqual([
    'input "no_default" is required by the model and not sent',
    'input "path" must be an address (http, https or data:), not "a.png"',
    'input "image" must be an address, not 7',
    'input "choices" is "baz", not one of the model\'s choices ("foo", "bar")',
    'input "int_choices" is 4.5, not one of the model\'s choices (3, 4, 5)',
    'input "width" is not one the model has (the model drops it without a word)',
    'input "input_with_default" must be a whole number, not "3"',
  ]);
});

test('the published predictors: InstantID takes no size and returns a list; the profiles fit them, the described one does not', () => {
  const instantId = readModelSchema(INSTANT_ID.openapi);
  expect(instantId.required).toEqual(['image']);
  expect(instantId.inputs.num_outputs).toMatchObject({ type: 'integer', minimum: 1, maximum: 8 });
  expect(instantId.inputs.output_format!.choices).toEqual(['webp', 'jpg', 'png']);
  expect(instantId.inputs).not.toHaveProperty('width');
  expect(instantId.output).toBe('list');
  expect(checkProfile(instantIdProfile, instantId)).toEqual([]);
  expect(checkProfile(fluxPulidProfile, readModelSchema(FLUX_PULID.openapi))).toEqual([]);
  expect(checkProfile(pulidProfile, readModelSchema(PULID.openapi))).toEqual([]);
  // The profile that broke every job on a real shop's first day, each fault named once.
  expect(checkProfile(describedInstantId, instantId)).toEqual([
    'input "width" is not one the model has (the model drops it without a word)',
    'input "height" is not one the model has (the model drops it without a word)',
    'the model returns a list of images; profile "instant-id" reads one image',
  ]);
  // A profile pointed at the wrong model: FLUX PuLID's names mean nothing to InstantID, and its own face is missing.
  const wrong = checkProfile(fluxPulidProfile, instantId);
  expect(wrong).toContain('input "image" is required by the model and not sent');
  expect(wrong).toContain('input "main_face_image" is not one the model has (the model drops it without a word)');
  // …and four images a call where FLUX PuLID allows four, eight where InstantID does: the limits are the model's.
  expect(checkProfile(instantIdProfile, readModelSchema(FLUX_PULID.openapi))).toContain('input "num_outputs" is 8, above the model\'s maximum 4');
});

describe('the check against the servers themselves', () => {
  let cog: CogStandIn;
  let replicate: ReplicateStandIn;
  beforeAll(async () => {
    [cog, replicate] = await Promise.all([startCogStandIn({ model: INSTANT_ID }), startReplicateStandIn({ model: INSTANT_ID })]);
  });
  afterAll(async () => {
    await Promise.all([cog.stop(), replicate.stop()]);
  });

  test("a Cog container's GET /openapi.json and a Replicate version's openapi_schema, latest or pinned", async () => {
    expect(await checkGenerator(createCogGenerator({ baseUrl: cog.baseUrl, profile: instantIdProfile, name: 'gpu' }))).toEqual([]);
    expect(await checkGenerator(createCogGenerator({ baseUrl: cog.baseUrl, profile: describedInstantId, name: 'gpu' }))).toHaveLength(3);
    const onReplicate = (model: string, profile: ModelProfile) => createReplicateGenerator({ token: replicate.token, model, baseUrl: replicate.baseUrl, profile, name: 'Replicate' });
    expect(await checkGenerator(onReplicate('zsxkib/instant-id', instantIdProfile))).toEqual([]);
    expect(await checkGenerator(onReplicate(`zsxkib/instant-id:${replicate.versionId}`, instantIdProfile))).toEqual([]);
    expect(await checkGenerator(onReplicate(`zsxkib/instant-id:${replicate.versionId}`, describedInstantId))).toContain('the model returns a list of images; profile "instant-id" reads one image');
    // What cannot be checked is said as the provider answered, never taken for a fit.
    expect((await checkGenerator(onReplicate(`zsxkib/instant-id:${'0'.repeat(64)}`, instantIdProfile)))[0]).toMatch(/^schema of zsxkib\/instant-id:0+: Replicate answered 404/);
    expect((await checkGenerator(createCogGenerator({ baseUrl: 'http://127.0.0.1:9', profile: instantIdProfile, name: 'gpu', timeoutMs: 2000 })))[0]).toMatch(/not reachable/);
  });
});

test('`npm run generator:check` with the shop\'s settings: 0 when the profile fits the container\'s model, 1 with every mismatch named', { timeout: 60_000 }, async () => {
  const [instantId, fluxPulid] = await Promise.all([startCogStandIn({ model: INSTANT_ID }), startCogStandIn({ model: FLUX_PULID })]);
  const check = (stand: CogStandIn) =>
    promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/server/cli/generator-check.ts'], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, PUBLIC_URL: 'http://localhost:3000', PORT: '3000', GENERATOR: 'cog', COG_URL: stand.baseUrl, GENERATOR_MODEL: 'zsxkib/instant-id', GENERATOR_WEBHOOK_SECRET: 'x'.repeat(40) },
    }).then(
      ({ stdout }) => ({ code: 0, text: stdout }),
      (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, text: error.stdout + error.stderr }),
    );
  try {
    const fits = await check(instantId);
    expect(fits.code).toBe(0);
    expect(fits.text).toContain('the profile fits the model\'s published schema: inputs image, prompt, negative_prompt, seed, num_outputs, output_format; output a list of images');
    // The address the container must be started with, in the command that starts it (README).
    expect(fits.text).toContain(`python -m cog.server.http --upload-url ${cogUploadUrl('http://localhost:3000', 'x'.repeat(40))}`);
    // The container runs another model than GENERATOR_MODEL says.
    const wrong = await check(fluxPulid);
    expect(wrong.code).toBe(1);
    expect(wrong.text).toContain('the profile does not fit the model (2 problems):\n- input "image" is not one the model has (the model drops it without a word)\n- input "num_outputs" is 8, above the model\'s maximum 4');
  } finally {
    await Promise.all([instantId.stop(), fluxPulid.stop()]);
  }
});
