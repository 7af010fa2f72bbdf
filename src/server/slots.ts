// Work that holds a lot of memory while it runs (decoding a photo, laying out an invoice) takes one of a few
// slots: a burst of requests waits its turn instead of holding all of it at once.

/** At most `max` tasks run at once; the others wait in the order they came, and a slot is freed on failure too. */
export function createSlots(max: number) {
  let running = 0;
  const waiting: Array<() => void> = [];
  return async function inSlot<T>(task: () => Promise<T>): Promise<T> {
    if (running < max) running++;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await task();
    } finally {
      // Hand the slot straight to the next waiter, or give it back.
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}
