// What a benchmark starts stops however the benchmark ends: after its figures, after an error, on Ctrl-C or a
// kill. (A folder of its own: scripts/bench.mjs runs every .mjs file directly under bench/ as a benchmark.)
import { readFileSync, readdirSync } from 'node:fs';

/** Pids of this process's live children (Linux), whether or not the benchmark holds a handle on them yet. */
function childPids() {
  const pids = [];
  try {
    for (const task of readdirSync('/proc/self/task')) {
      try {
        pids.push(...readFileSync(`/proc/self/task/${task}/children`, 'utf8').split(/\s+/).filter(Boolean).map(Number));
      } catch {
        // the thread ended meanwhile
      }
    }
  } catch {
    // no /proc: only the explicit cleanup runs
  }
  return pids;
}

/**
 * Stops a child process (a shop from startShop: `shop.child`) and resolves once it has exited: at once when it
 * already has (lib.mjs' stop() would wait for an exit that came before), with SIGKILL after `graceMs`.
 */
export function stopChild(child, { signal = 'SIGINT', graceMs = 20_000 } = {}) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill(signal);
  });
}

let guarded = false;

/**
 * Runs `cleanup` (stopping the shop, Chrome, dropping a database) once when the process is interrupted (SIGINT,
 * SIGTERM, SIGHUP), then exits 130/143/129. Whatever the process leaves running when it exits, by any path
 * (an uncaught error included), gets SIGTERM: a shop still starting when the error came, for one.
 */
export function stopOnExit(cleanup = async () => {}) {
  let interrupted = false;
  const onSignal = async (signal) => {
    if (interrupted) return;
    interrupted = true;
    console.error(`\n${signal}: stopping what this benchmark started`);
    try {
      await cleanup();
    } catch (error) {
      console.error(error);
    }
    process.exit({ SIGINT: 130, SIGTERM: 143, SIGHUP: 129 }[signal] ?? 1);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, onSignal);
  if (!guarded) {
    guarded = true;
    process.on('exit', () => {
      for (const pid of childPids()) {
        try {
          process.kill(pid, 'SIGTERM');
        } catch {
          // gone already
        }
      }
    });
  }
}

/** `fn` run at most once: the finally block and a signal arriving during it share one cleanup. */
export function once(fn) {
  let done = null;
  return () => (done ??= Promise.resolve().then(fn));
}
