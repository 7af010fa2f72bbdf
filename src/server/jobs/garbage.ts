// Image work (a photo's check, a draft) leaves its pixels in buffers outside V8's heap: decoded photos, masks,
// the images sent to the models' thread. V8 counts them, but starts a collection on their account only once
// such memory has grown by about 64 MB; until then a worker carries that much of dead images (measured in one
// process with the models' thread: a check of a 12 MP photo leaves about 6 MB; fifteen checks in a row went
// from 344 up to 407 MB before V8 collected, and stayed at 339–373 MB with this). Started with --expose-gc (the
// worker's and the embedded shop's commands), a process collects after a job, or a step of one, that left more
// than a few MB behind; without the flag this does nothing.

/** Collect once this much external memory has come since the last collection. */
export const GARBAGE_THRESHOLD_BYTES = 12 * 1024 * 1024;

type Collect = () => void;

/**
 * Returns a function to call after each job: it collects garbage (a full collection, about 5–15 ms for a
 * worker's heap) when external memory grew by more than `threshold` since it last did, and says whether it did.
 */
export function createGarbageRelease(options: { threshold?: number; gc?: Collect | undefined; external?: () => number } = {}): () => boolean {
  const threshold = options.threshold ?? GARBAGE_THRESHOLD_BYTES;
  const gc = 'gc' in options ? options.gc : (globalThis as { gc?: Collect }).gc;
  const external = options.external ?? (() => process.memoryUsage().external);
  if (!gc) return () => false;
  let after = external();
  return () => {
    const now = external();
    // Freed by V8 on its own meanwhile: measure from there.
    if (now < after) after = now;
    if (now - after < threshold) return false;
    gc();
    after = external();
    return true;
  };
}
