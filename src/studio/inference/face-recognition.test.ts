// The descriptor net gives its filters' memory back once they are packed (packed-filters.ts). Its descriptors
// must stay the same to the bit: compared here with a net that keeps its filters, on 150 px crops (the chip's
// size) of real photographs of different people, in this process, on the WebAssembly backend the models'
// thread runs.
import { createRequire } from 'node:module';
import path from 'node:path';
import sharp from 'sharp';
import * as tf from '@tensorflow/tfjs-core';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import { beforeAll, expect, test } from 'vitest';
import { PROJECT_ROOT } from '../../testing/project-root.js';
import { CHIP_SIZE, loadFaceRecognitionNet } from './face-recognition.js';
import type { RgbImage } from './types.js';

const PHOTOS = ['franck_01829.jpg', 'franck_03979.jpg', 'sample2.jpg', 'sample5.jpg'].map((file) => path.join(PROJECT_ROOT, 'test/fixtures/faces', file));

async function chip(file: string): Promise<RgbImage> {
  const data = await sharp(file).rotate().resize(CHIP_SIZE, CHIP_SIZE, { fit: 'cover', position: 'attention' }).removeAlpha().raw().toBuffer();
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width: CHIP_SIZE, height: CHIP_SIZE };
}

beforeAll(async () => {
  setWasmPaths(`${path.dirname(createRequire(import.meta.url).resolve('@tensorflow/tfjs-backend-wasm'))}/`);
  await tf.setBackend('wasm');
  await tf.ready();
});

test('a net that gave its packed filters back describes every face exactly as one that kept them', { timeout: 60_000 }, async () => {
  const kept = await loadFaceRecognitionNet({ releaseFilters: false });
  const released = await loadFaceRecognitionNet();
  expect(kept.releasedBytes).toBe(0);
  // All of the net's filters (about 21 MB of its 21.4): if the backend's records changed shape, nothing is
  // freed and this fails (the net would still work, with the memory kept).
  expect(released.releasedBytes).toBeGreaterThan(20_000_000);
  const descriptors: number[][] = [];
  for (const file of PHOTOS) {
    const image = await chip(file);
    const expected = await kept.describeChip(image);
    // Twice: the second run uses the operators packed by the first, with the filters long freed.
    expect(await released.describeChip(image)).toEqual(expected);
    expect(await released.describeChip(image)).toEqual(expected);
    descriptors.push(expected);
  }
  // Real descriptors, not a constant: different photos give different ones.
  expect(new Set(descriptors.map((d) => d.join(','))).size).toBe(PHOTOS.length);
});
