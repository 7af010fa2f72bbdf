// The pose model gives its convolutions' filters back once they are packed (packed-filters.ts). Its answers
// must stay the same to the bit: compared here with a model that keeps its filters, on real photographs of
// one and of several people, at the input sizes detectPoses() sends (both sides multiples of 32).
import { createRequire } from 'node:module';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import * as tf from '@tensorflow/tfjs-core';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import { beforeAll, expect, test } from 'vitest';
import { PROJECT_ROOT } from '../../testing/project-root.js';
import { convolutionOnlyFilters, loadPoseModel } from './tf-runtime.js';

const MODEL = path.join(PROJECT_ROOT, 'src/studio/models/movenet-multipose.json');
const PHOTOS: [string, number, number][] = [
  ['franck_01829.jpg', 256, 192],
  ['sample1.jpg', 256, 160],
  ['sample3.jpg', 192, 256],
];

beforeAll(async () => {
  setWasmPaths(`${path.dirname(createRequire(import.meta.url).resolve('@tensorflow/tfjs-backend-wasm'))}/`);
  await tf.setBackend('wasm');
  await tf.ready();
});

test('only weights that are nothing but a convolution filter are released', async () => {
  const json = JSON.parse(await readFile(MODEL, 'utf8')) as tf.io.ModelJSON;
  const names = convolutionOnlyFilters(json);
  // MultiPose Lightning's 80 convolutions (54 fused, 17 fused depthwise, 9 depthwise) each have a filter of their own.
  expect(names).toHaveLength(80);
  // A bias is an input of a fused convolution too, but not its filter (input 1): never released.
  const biases = (json.modelTopology as { node: { op: string; input: string[] }[] }).node.filter((node) => node.op === '_FusedConv2D').map((node) => node.input[2]!.split(':')[0]!);
  expect(biases.filter((name) => names.includes(name))).toEqual([]);
});

test('a pose model that gave its packed filters back finds the same poses as one that kept them', { timeout: 60_000 }, async () => {
  const kept = await loadPoseModel(MODEL, { releaseFilters: false });
  const released = await loadPoseModel(MODEL);
  expect(kept.releasedBytes).toBe(0);
  expect(released.releasedBytes).toBeGreaterThan(17_000_000);
  const people: number[] = [];
  for (const [file, width, height] of PHOTOS) {
    const data = await sharp(path.join(PROJECT_ROOT, 'test/fixtures/faces', file)).rotate().resize(width, height, { fit: 'fill' }).removeAlpha().raw().toBuffer();
    const run = async (model: typeof kept) => {
      const output = tf.tidy(() => model.execute(tf.tensor4d(new Int32Array(data), [1, height, width, 3], 'int32')) as tf.Tensor);
      const values = Array.from(await output.data());
      output.dispose();
      return values;
    };
    const expected = await run(kept);
    expect(await run(released)).toEqual(expected);
    // People found (each person's score is the last of their 56 values): the answers are not empty.
    people.push(Array.from({ length: 6 }, (_, person) => expected[person * 56 + 55]!).filter((score) => score >= 0.15).length);
  }
  expect(people[0]).toBeGreaterThanOrEqual(1);
  expect(Math.max(...people)).toBeGreaterThanOrEqual(2);
});
