// The gate at upload: a check that cannot run lets the photo through unchecked (and says so), never blocks.
import { readFile } from 'node:fs/promises';
import type { FastifyBaseLogger } from 'fastify';
import { expect, test } from 'vitest';
import { PORTRAIT } from '../../../testing/images.js';
import type { Inference } from '../../../studio/inference/client.js';
import { pulidProfile } from '../../generator/profiles/pulid.js';
import { createReplicateGenerator } from '../../generator/replicate-generator.js';
import { createPhotoCheck, photoQualityView } from './photo-quality.js';

test('models that fail: the photo is accepted unchecked, the failure logged', async () => {
  const broken: Inference = {
    detectFaces: async () => {
      throw new Error('wasm backend did not start');
    },
    segment: async () => {
      throw new Error('wasm backend did not start');
    },
    describeFace: async () => {
      throw new Error('wasm backend did not start');
    },
    close: async () => {},
  };
  const lines: string[] = [];
  const log = { error: (_details: object, message: string) => void lines.push(message) } as unknown as FastifyBaseLogger;
  const photo = await readFile(PORTRAIT);
  const report = await createPhotoCheck(broken, log)(photo);
  expect(report).toBeNull();
  expect(photoQualityView(report)).toEqual({ verdict: 'unchecked', warnings: [] });
  expect(lines.join('')).toContain('photo accepted unchecked');
});

test("the generator's outputs are fetched only from https or the provider's own address", async () => {
  const generator = createReplicateGenerator({ baseUrl: 'http://127.0.0.1:9/v1', token: 't', model: 'zsxkib/pulid', profile: pulidProfile, name: 'n' });
  for (const url of ['http://169.254.169.254/latest/meta-data', 'file:///etc/passwd', 'http://127.0.0.1:9@evil.example/x.png']) {
    await expect(generator.fetchOutput(url), url).rejects.toThrow(/output address refused/);
  }
});
