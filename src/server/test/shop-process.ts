// The real start command (src/server/main.ts) in a child process, for tests that restart, kill or starve it.
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
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
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', '--import', './scripts/ignore-styles.mjs', entry], {
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
