// Background work yields the CPU to customers: a worker process (and the models' thread in any process) runs at
// a lower scheduling priority ("nice"), so a web process sharing the machine answers uploads and pages first
// while photo checks and drafts take what is left. Only ever lowers the priority (no privilege needed).
import { readdirSync } from 'node:fs';
import os from 'node:os';

/**
 * Lowers this process's priority to `nice` (0–19): every thread it has (Linux: each task; threads started later
 * inherit it from the thread that starts them), or the calling thread alone with `thread: true` (a worker
 * thread). Threads already at or below that priority are left as they are. Returns how many were lowered.
 */
export function lowerPriority(nice: number, options: { thread?: boolean } = {}): number {
  if (nice <= 0) return 0;
  const ids = options.thread || process.platform !== 'linux' ? [0] : threadIds();
  let lowered = 0;
  for (const id of ids) {
    try {
      if (os.getPriority(id) >= nice) continue;
      os.setPriority(id, nice);
      lowered++;
    } catch {
      // A thread that ended meanwhile, or a platform that does not allow it: it keeps its priority.
    }
  }
  return lowered;
}

function threadIds(): number[] {
  try {
    return readdirSync('/proc/self/task').map(Number).filter(Number.isInteger);
  } catch {
    return [0];
  }
}
