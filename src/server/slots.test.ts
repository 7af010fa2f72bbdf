import { expect, test } from 'vitest';
import { createSlots } from './slots.js';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

test('at most the given number of tasks run at once, the rest in the order they came; a failure frees its slot', async () => {
  const inSlot = createSlots(2);
  let running = 0;
  let most = 0;
  const started: number[] = [];
  const task = (i: number) => async () => {
    started.push(i);
    running++;
    most = Math.max(most, running);
    await tick();
    running--;
    if (i === 1) throw new Error('broken');
    return i;
  };
  const results = await Promise.allSettled([0, 1, 2, 3, 4].map((i) => inSlot(task(i))));
  expect(most).toBe(2);
  expect(started).toEqual([0, 1, 2, 3, 4]);
  expect(results.map((r) => (r.status === 'fulfilled' ? r.value : 'failed'))).toEqual([0, 'failed', 2, 3, 4]);
  // Every slot is free again: two start at once.
  running = 0;
  most = 0;
  await Promise.all([inSlot(task(5)), inSlot(task(6))]);
  expect(most).toBe(2);
});
