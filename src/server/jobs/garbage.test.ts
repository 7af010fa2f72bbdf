import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, test } from 'vitest';
import { createGarbageRelease } from './garbage.js';

describe('collecting what image jobs leave behind', () => {
  test('collects once external memory grew past the threshold since the last collection, and measures anew from there', () => {
    let external = 100;
    let collections = 0;
    const release = createGarbageRelease({
      threshold: 10,
      external: () => external,
      gc: () => {
        collections++;
        external -= 8;
      },
    });
    external = 109;
    expect(release()).toBe(false);
    external = 111;
    expect(release()).toBe(true);
    expect(collections).toBe(1);
    // 103 after the collection: the next one comes 10 above that, not above 100.
    external = 112;
    expect(release()).toBe(false);
    external = 113;
    expect(release()).toBe(true);
    // V8 collected on its own in between: the growth counts from the lower level.
    external = 50;
    expect(release()).toBe(false);
    external = 59;
    expect(release()).toBe(false);
    expect(collections).toBe(2);
  });

  test('does nothing in a process started without --expose-gc', () => {
    const release = createGarbageRelease({ threshold: 0, gc: undefined, external: () => 1e12 });
    expect(release()).toBe(false);
  });

  test('with a real collector, buffers nobody holds any more are given back', async () => {
    // As --expose-gc gives it to the worker (the test runner's processes start without the flag).
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    const release = createGarbageRelease({ threshold: 16 * 1024 * 1024, gc });
    // A job's buffers: held through two collections while it works (old, so only a full collection frees them),
    // then dropped. Only a weak reference to one of them is kept, to see whether it was freed.
    const seen = ((): WeakRef<Buffer> => {
      const pixels = Array.from({ length: 8 }, () => Buffer.alloc(4 * 1024 * 1024, 1));
      gc();
      gc();
      const ref = new WeakRef(pixels[0]!);
      pixels.length = 0;
      return ref;
    })();
    // A weak reference keeps its target until the task that made it ends.
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(release()).toBe(true);
    expect(seen.deref()).toBeUndefined();
  });
});
