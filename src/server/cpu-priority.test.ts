import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { createTestInference } from '../studio/test/inference.js';

// In a child process, as lowering a priority cannot be undone without privileges.
const MODULE = fileURLToPath(new URL('./cpu-priority.ts', import.meta.url));

function run(script: string): unknown {
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
  return JSON.parse(out.trim().split('\n').pop()!);
}

test('a worker process lowers every thread it has, and threads it starts later inherit it', () => {
  const result = run(`
    import { readdirSync } from 'node:fs';
    import os from 'node:os';
    import { Worker } from 'node:worker_threads';
    import { lowerPriority } from ${JSON.stringify(MODULE)};
    const before = new Worker('setInterval(() => {}, 1000)', { eval: true });
    await new Promise((resolve) => before.once('online', resolve));
    const lowered = lowerPriority(7);
    const after = new Worker('setInterval(() => {}, 1000)', { eval: true });
    await new Promise((resolve) => after.once('online', resolve));
    const priorities = readdirSync('/proc/self/task').map((tid) => { try { return os.getPriority(Number(tid)); } catch { return null; } }).filter((p) => p !== null);
    console.log(JSON.stringify({ lowered, priorities, again: lowerPriority(7), zero: lowerPriority(0) }));
    process.exit(0);
  `) as { lowered: number; priorities: number[]; again: number; zero: number };
  expect(result.lowered).toBeGreaterThan(2);
  expect(result.priorities.length).toBeGreaterThan(result.lowered);
  expect(new Set(result.priorities)).toEqual(new Set([7]));
  expect(result.again).toBe(0); // never raised again, nothing to lower twice
  expect(result.zero).toBe(0);
});

test("the models' thread runs at the background priority; the process that started it keeps its own", { timeout: 60_000 }, async () => {
  const niceOf = (tid: string) => {
    try {
      // /proc/<pid>/task/<tid>/stat: the 19th field is the nice value (after the command in parentheses).
      return Number(readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1]!.split(' ')[16]);
    } catch {
      return null;
    }
  };
  const inference = createTestInference({ nice: 9 });
  try {
    await inference.detectFaces({ data: new Uint8Array(64 * 64 * 3), width: 64, height: 64 });
    const nices = readdirSync('/proc/self/task').map((tid) => ({ tid, nice: niceOf(tid) }));
    expect(nices.filter((task) => task.nice === 9).length).toBeGreaterThan(0);
    expect(nices.find((task) => task.tid === String(process.pid))!.nice).toBe(0);
  } finally {
    await inference.close();
  }
});
