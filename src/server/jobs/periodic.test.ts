import { afterEach, expect, test, vi } from 'vitest';
import { schedulePeriodic } from './periodic.js';

afterEach(() => {
  vi.useRealTimers();
});

function recordingLog() {
  const lines: { level: string; msg: string }[] = [];
  const at = (level: string) => (_obj: object, msg: string) => lines.push({ level, msg });
  return { lines, log: { error: at('error'), info: at('info'), warn: at('warn'), debug: at('debug') } as never };
}

test('a failing run is tried again soon with growing pauses, logged once, and the schedule resumes after a success', async () => {
  vi.useFakeTimers();
  const times: number[] = [];
  let failuresLeft = 3;
  const { lines, log } = recordingLog();
  const stop = schedulePeriodic(
    async () => {
      times.push(Date.now());
      if (failuresLeft-- > 0) throw new Error('database unavailable');
    },
    { name: 'test', intervalMs: 60_000, firstDelayMs: 1_000, retryMs: 500, log },
  );
  const start = Date.now();
  await vi.advanceTimersByTimeAsync(1_000 + 500 + 1_000 + 2_000 + 60_000);
  stop();
  // First run, retries after 0.5 s, 1 s and 2 s, then the regular interval.
  expect(times.map((t) => t - start)).toEqual([1_000, 1_500, 2_500, 4_500, 64_500]);
  expect(lines.filter((l) => l.level === 'error')).toHaveLength(1);
  expect(lines.filter((l) => l.msg === 'periodic job resumed')).toHaveLength(1);
});

test('the pause after failures never exceeds the interval, and stop() ends the schedule', async () => {
  vi.useFakeTimers();
  let runs = 0;
  const { log } = recordingLog();
  const stop = schedulePeriodic(
    async () => {
      runs++;
      throw new Error('down');
    },
    { name: 'test', intervalMs: 4_000, firstDelayMs: 0, retryMs: 1_000, log },
  );
  await vi.advanceTimersByTimeAsync(0 + 1_000 + 2_000 + 4_000 + 4_000);
  expect(runs).toBe(5);
  stop();
  await vi.advanceTimersByTimeAsync(60_000);
  expect(runs).toBe(5);
});
