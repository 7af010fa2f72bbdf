// The models' WebAssembly memory keeps its largest size, and what it reaches depends on the order of the models'
// first runs (tf-runtime.ts, RuntimeOptions.posesFirst). Two threads, each with models of its own, do the same
// work on real photographs of several people: the upload check's (faces, descriptors) and the drafts' (person
// masks, poses), in the order a worker meets them (a check before its first draft).
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import sharp from 'sharp';
import { expect, test } from 'vitest';
import { PROJECT_ROOT } from '../../testing/project-root.js';
import { POSE_INPUT } from './pose-size.js';
import { SEGMENTATION_SIZE } from './segmentation-size.js';
import type { RgbImage } from './types.js';

const PHOTOS = ['franck_01829.jpg', 'sample1.jpg', 'sample3.jpg', 'sample5.jpg'].map((file) => path.join(PROJECT_ROOT, 'test/fixtures/faces', file));

async function rgb(file: string, width: number, height: number, fit: 'inside' | 'fill'): Promise<RgbImage> {
  const { data, info } = await sharp(file).rotate().resize(width, height, { fit }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width: info.width, height: info.height };
}

/** The work in a thread of its own (a module instance of tfjs of its own); its answers and its memory's size. */
function runInThread(posesFirst: boolean, photos: { gate: RgbImage; square: RgbImage; pose: RgbImage }[]): Promise<{ poses: unknown[]; descriptors: unknown[]; bytes: number }> {
  const tsx = pathToFileURL(path.join(path.dirname(createRequire(import.meta.url).resolve('tsx/package.json')), 'dist/esm/api/index.mjs')).href;
  const runtime = pathToFileURL(path.join(PROJECT_ROOT, 'src/studio/inference/tf-runtime.ts')).href;
  const work = `
    const { workerData, parentPort } = await import('node:worker_threads');
    (await import(${JSON.stringify(tsx)})).register();
    const { loadRuntime, modelMemoryBytes } = await import(${JSON.stringify(runtime)});
    const models = await loadRuntime({ modelDir: workerData.modelDir, posesFirst: workerData.posesFirst });
    const poses = [];
    const descriptors = [];
    for (let round = 0; round < 2; round++) {
      for (const photo of workerData.photos) {
        const [face] = await models.detectFaces(photo.gate);
        descriptors.push(await models.describeFace(photo.gate, face));
        await models.segment(photo.square);
        poses.push(await models.detectPoses(photo.pose));
      }
    }
    parentPort.postMessage({ poses, descriptors, bytes: modelMemoryBytes() });
  `;
  const worker = new Worker(`(async () => {${work}})();`, {
    eval: true,
    workerData: { modelDir: path.join(PROJECT_ROOT, 'src/studio/models'), posesFirst, photos },
  });
  return new Promise<{ poses: unknown[]; descriptors: unknown[]; bytes: number }>((resolve, reject) => {
    worker.once('message', resolve);
    // An unhandled rejection in the thread ends it with an error; an exit without either fails at once, not at the timeout.
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the thread exited with code ${code} before it answered`)));
  }).finally(() => worker.terminate());
}

test('a thread that makes drafts loads the pose model first: the same answers, and its models take less memory', { timeout: 120_000 }, async () => {
  const photos = await Promise.all(
    PHOTOS.map(async (file) => ({
      gate: await rgb(file, 256, 256, 'inside'),
      square: await rgb(file, SEGMENTATION_SIZE, SEGMENTATION_SIZE, 'fill'),
      pose: await rgb(file, POSE_INPUT, POSE_INPUT, 'inside'),
    })),
  );
  const [lazy, first] = await Promise.all([runInThread(false, photos), runInThread(true, photos)]);
  expect(first.poses).toEqual(lazy.poses);
  expect(first.descriptors).toEqual(lazy.descriptors);
  // Real answers: a descriptor for every photo, someone found on each.
  expect(lazy.descriptors.every((d) => Array.isArray(d) && d.length === 128)).toBe(true);
  expect(lazy.poses.every((p) => Array.isArray(p) && p.length > 0)).toBe(true);
  // Measured: 144 MB against 120 MB (the memory grows in whole steps; a fixed order of runs gives fixed sizes).
  // The margin holds for tfjs-backend-wasm 4.22 and its XNNPACK: another version may grow its memory otherwise,
  // and then this figure is measured again, not the order given up.
  expect(first.bytes).toBeLessThan(lazy.bytes - 16 * 1024 * 1024);
});
