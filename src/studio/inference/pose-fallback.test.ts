// A worker's models' thread loads the pose model first (RuntimeOptions.posesFirst). When that model will not
// load, the thread still checks uploads and segments people; only a pose search (a draft's) fails, with the
// loader's error.
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { PROJECT_ROOT } from '../../testing/project-root.js';
import { loadRuntime } from './tf-runtime.js';
import { SEGMENTATION_SIZE } from './segmentation-size.js';
import type { RgbImage } from './types.js';

const MODELS = path.join(PROJECT_ROOT, 'src/studio/models');
const PHOTO = path.join(PROJECT_ROOT, 'test/fixtures/faces/franck_01829.jpg');
let modelDir: string;

async function rgb(width: number, height: number, fit: 'inside' | 'fill'): Promise<RgbImage> {
  const { data, info } = await sharp(PHOTO).rotate().resize(width, height, { fit }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width: info.width, height: info.height };
}

beforeAll(async () => {
  // The studio's models without the pose model: the person segmentation only.
  modelDir = await mkdtemp(path.join(os.tmpdir(), 'models-without-poses-'));
  for (const file of ['selfie.json', 'selfie.bin']) await copyFile(path.join(MODELS, file), path.join(modelDir, file));
});

afterAll(async () => {
  await rm(modelDir, { recursive: true, force: true });
});

test('a pose model that will not load first leaves the checks and the person mask working; a pose search fails with why', { timeout: 60_000 }, async () => {
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
  try {
    const models = await loadRuntime({ modelDir, posesFirst: true });
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]![0])).toMatch(/^the pose model could not be loaded first, it loads on first use: .*movenet-multipose\.json/);

    const photo = await rgb(256, 256, 'inside');
    const faces = await models.detectFaces(photo);
    expect(faces).toHaveLength(1);
    const descriptor = await models.describeFace(photo, faces[0]);
    expect(descriptor).toHaveLength(128);
    const mask = await models.segment(await rgb(SEGMENTATION_SIZE, SEGMENTATION_SIZE, 'fill'));
    // Someone is in the middle of the photo, and the corners are backdrop.
    const at = (x: number, y: number) => mask[y * SEGMENTATION_SIZE + x]!;
    expect(at(SEGMENTATION_SIZE / 2, Math.round(SEGMENTATION_SIZE * 0.6))).toBeGreaterThan(200);
    expect(at(2, 2)).toBeLessThan(50);

    await expect(models.detectPoses(photo)).rejects.toThrow(/movenet-multipose\.json/);
  } finally {
    warn.mockRestore();
  }
});
