// The real start command (src/server/main.ts, from its sources or built as `npm start` runs it) in a child process,
// for tests that restart, kill or starve it.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rename, rm } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { inject } from 'vitest';
import { PROJECT_ROOT } from '../paths.js';

export interface ShopProcess {
  child: ChildProcess;
  /** Everything it printed so far. */
  output(): string;
  /** Resolves with the exit code (null after a signal). */
  exited: Promise<number | null>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** `entry`: the start command's source, the shop (main.ts) unless a test names another (worker-main.ts). */
export function startShopProcess(env: Record<string, string>, entry = 'src/server/main.ts'): ShopProcess {
  return spawnNode(['--import', 'tsx', '--import', './scripts/ignore-styles.mjs', entry], env);
}

/** The server bundle's entry for each start command (vite.server.config.ts). */
const BUILT_ENTRIES: Record<string, string> = { 'src/server/main.ts': 'main.js', 'src/server/worker-main.ts': 'worker.js' };

let bundle: Promise<string> | undefined;

/**
 * This test run's server bundle, built from the current sources with the production build's own config
 * (vite.server.config.ts) on first use, into the folder the global setup names and removes afterwards. Test
 * files running at once may both build it; the first rename wins and the other build is dropped.
 */
function builtServer(): Promise<string> {
  bundle ??= (async () => {
    const target = inject('shopBundleDir');
    const scratch = await mkdtemp(`${target}-building-`);
    const vite = path.join(PROJECT_ROOT, 'node_modules/vite/bin/vite.js');
    const args = [vite, 'build', '--config', 'vite.server.config.ts', '--mode', 'production', '--outDir', scratch, '--emptyOutDir', '--logLevel', 'warn'];
    const built = spawnNode(args, { NODE_ENV: 'production' });
    if ((await built.exited) !== 0) {
      await rm(scratch, { recursive: true, force: true });
      throw new Error(`the server bundle did not build:\n${built.output().slice(-2000)}`);
    }
    try {
      await rename(scratch, target);
    } catch (error) {
      // Another test file's build got there first (the folder exists and is not empty): use that one.
      if (!['ENOTEMPTY', 'EEXIST'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error;
      await rm(scratch, { recursive: true, force: true });
    }
    return target;
  })();
  return bundle;
}

/**
 * The start command as `npm start` runs it: the built server (this run's bundle, as dist/server/main.js is
 * built), not its sources through tsx. Starts in about half the time (0.85 s instead of 1.5 s to healthy on an
 * idle machine), which counts in the tests that restart the shop once per statement (crash-harness.ts). One
 * difference from dist/: the bundle lies outside dist/server/, so the studio's models' thread runs from its
 * TypeScript source (paths.ts), as in every other test.
 */
export async function startBuiltShopProcess(env: Record<string, string>, entry = 'src/server/main.ts'): Promise<ShopProcess> {
  const file = BUILT_ENTRIES[entry];
  if (!file) throw new Error(`no built entry for ${entry}`);
  return spawnNode([path.join(await builtServer(), file)], env);
}

function spawnNode(args: string[], env: Record<string, string>): ShopProcess {
  let output = '';
  const child = spawn(process.execPath, args, {
    cwd: PROJECT_ROOT,
    env: { PATH: process.env.PATH, NODE_ENV: 'development', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

export async function waitHealthy(port: number, shop: ShopProcess, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (shop.child.exitCode !== null || shop.child.signalCode !== null) throw new Error(`exited early:\n${shop.output().slice(-2000)}`);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (response.ok) return;
    } catch {
      // not yet listening
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`not healthy in time:\n${shop.output().slice(-2000)}`);
}
