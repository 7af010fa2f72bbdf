// What a process costs, read from /proc (Linux): CPU time (utime + stime of all its threads) and resident
// memory, and a sampler that keeps the peak resident memory of several processes between two readings.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** CPU-seconds the process has used so far (user + system, every thread), or null once it is gone. */
export function cpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: count fields after its closing one.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/** CPU time a running process has used so far (user + system, every thread), in milliseconds; throws once it is gone. */
export function cpuMilliseconds(pid) {
  const seconds = cpuSeconds(pid);
  if (seconds === null) throw new Error(`process ${pid} is gone`);
  return seconds * 1000;
}

/** Resident memory in MB (VmRSS), or null once the process is gone. */
export function rssMb(pid) {
  try {
    const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN);
    return Number.isFinite(kb) ? kb / 1024 : null;
  } catch {
    return null;
  }
}

/**
 * Samples the resident memory of named processes every `intervalMs`; `peaks()` returns each one's highest value
 * since the last `reset()`.
 */
export function rssSampler(pids, intervalMs = 100) {
  let peaks = {};
  const sample = () => {
    for (const [name, pid] of Object.entries(pids)) {
      const mb = rssMb(pid);
      if (mb !== null) peaks[name] = Math.max(peaks[name] ?? 0, mb);
    }
  };
  const timer = setInterval(sample, intervalMs);
  timer.unref();
  return {
    reset() {
      peaks = {};
      sample();
    },
    peaks() {
      sample();
      return { ...peaks };
    },
    stop: () => clearInterval(timer),
  };
}

/** CPU-seconds the whole machine has been busy (every core, every process: /proc/stat less idle and I/O wait). */
export function machineBusySeconds() {
  try {
    const [, ...ticks] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
    const [user, nice, system, _idle, _iowait, irq, softirq, steal] = ticks.map(Number);
    return (user + nice + system + irq + softirq + steal) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}
