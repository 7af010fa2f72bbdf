import sharp from 'sharp';
import { expect, test } from 'vitest';
import { PORTRAIT } from '../../testing/images.js';
import { createTestInference } from '../test/inference.js';

test('the models thread ends when idle, giving its memory back, and starts again for the next photo', { timeout: 60_000 }, async () => {
  const inference = createTestInference({ idleMs: 300 });
  try {
    const { data, info } = await sharp(PORTRAIT).resize(480).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const image = { data: new Uint8Array(data), width: info.width, height: info.height };
    expect(inference.threadRunning).toBe(false);
    expect(await inference.detectFaces(image)).toHaveLength(1);
    expect(inference.threadRunning).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(inference.threadRunning).toBe(false);
    expect(await inference.detectFaces(image)).toHaveLength(1);
    expect(inference.threadRunning).toBe(true);
  } finally {
    await inference.close();
  }
});

test('a photo that arrives just as the idle thread is being stopped is answered by the next thread, not failed by the old one', { timeout: 60_000 }, async () => {
  const inference = createTestInference({ idleMs: 200 });
  try {
    const { data, info } = await sharp(PORTRAIT).resize(480).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const image = { data: new Uint8Array(data), width: info.width, height: info.height };
    expect(await inference.detectFaces(image)).toHaveLength(1);
    // The moment the idle timer lets go of the thread (its exit is still to come), the next photo.
    while (inference.threadRunning) await new Promise((resolve) => setTimeout(resolve, 1));
    expect(await inference.detectFaces(image)).toHaveLength(1);
  } finally {
    await inference.close();
  }
});
