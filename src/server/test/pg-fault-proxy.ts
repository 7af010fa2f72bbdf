// A TCP proxy between the shop and PostgreSQL that counts statements and can stop the world at any one of
// them: kill the shop's process, cut that connection, or hold it while the test terminates the backends.
// It reads only the frame headers of the PostgreSQL frontend protocol (a type byte and a length; the first
// frame of a connection, the startup message, has no type byte) and forwards the bytes untouched.
// A statement ends with a Query ('Q', simple protocol) or a Sync ('S', extended protocol): statement n is
// everything a client sends after n - 1 of those.
import net from 'node:net';

export type FaultAction =
  /** Do not forward statement n; call `onFault` (e.g. to SIGKILL the shop) and leave the sockets to die with it. */
  | { kind: 'kill'; onFault: () => void }
  /** Do not forward statement n; cut this client's connection on both sides, as a failing network or server would. */
  | { kind: 'drop'; onFault?: () => void }
  /** Hold statement n until `release()`; `onFault` runs when it is held (the test then terminates backends). */
  | { kind: 'hold'; onFault: () => void };

export interface FaultProxy {
  readonly port: number;
  /** The same URL with the proxy's host and port. */
  urlFor(databaseUrl: string): string;
  /** Statements completed by all clients since the last reset. */
  readonly statements: number;
  resetCount(): void;
  /**
   * Acts before the first message of statement n (1-based, counted from now) of whichever client sends it. With
   * `from`, only one connection counts: the first whose statement text matches it, that statement being 1 (so
   * the shop's background work on other connections, such as the job runner's polls, cannot take the count).
   */
  arm(n: number, action: FaultAction, options?: { from?: RegExp }): void;
  disarm(): void;
  /** Whether the armed fault fired. */
  readonly fired: boolean;
  /** Sends the held statement on (to a backend that may be gone by now). */
  release(): void;
  /** Refuses new connections (the server is "down") until `accept(true)`. */
  accept(accepting: boolean): void;
  close(): Promise<void>;
}

const STATEMENT_END = new Set([0x51 /* Q */, 0x53 /* S */]);

export async function startFaultProxy(target: { host: string; port: number }): Promise<FaultProxy> {
  let completed = 0;
  let armed: { n: number; action: FaultAction; from?: RegExp | undefined } | null = null;
  /** With `from`: the one connection that counts, and its completed statements. */
  let counting: { socket: net.Socket; completed: number } | null = null;
  let fired = false;
  let held: (() => void) | null = null;
  let accepting = true;
  const sockets = new Set<net.Socket>();

  const server = net.createServer((client) => {
    sockets.add(client);
    if (!accepting) {
      client.destroy();
      return;
    }
    const upstream = net.connect(target.port, target.host);
    sockets.add(upstream);
    const cut = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', cut);
    upstream.on('error', cut);
    client.on('close', () => {
      sockets.delete(client);
      upstream.destroy();
    });
    upstream.on('close', () => {
      sockets.delete(upstream);
      client.destroy();
    });
    upstream.on('data', (chunk) => {
      if (!client.destroyed) client.write(chunk);
    });

    let buffer = Buffer.alloc(0);
    let started = false;
    // 'dropped': nothing more is forwarded; 'held': bytes wait in the buffer for release().
    let state: 'flowing' | 'dropped' | 'held' = 'flowing';
    const pump = () => {
      while (state === 'flowing') {
        // Startup (and SSL/cancel requests): int32 length including itself, no type byte.
        const headerSize = started ? 5 : 4;
        if (buffer.length < headerSize) return;
        const length = started ? buffer.readInt32BE(1) + 1 : buffer.readInt32BE(0);
        if (buffer.length < length) return;
        const type = started ? buffer[0]! : null;
        // A statement's text is in its Query ('Q') or Parse ('P') message.
        if (armed?.from && !counting && (type === 0x51 || type === 0x50) && armed.from.test(buffer.subarray(5, length).toString('utf8'))) {
          counting = { socket: client, completed: 0 };
        }
        const due = armed?.from ? counting?.socket === client && counting.completed === armed.n - 1 : completed === (armed?.n ?? 0) - 1;
        if (started && armed && due && type !== 0x58 /* Terminate */) {
          const { action } = armed;
          armed = null;
          fired = true;
          if (action.kind === 'hold') {
            state = 'held';
            held = () => {
              held = null;
              state = 'flowing';
              if (upstream.destroyed) client.destroy();
              else pump();
            };
          } else {
            state = 'dropped';
            buffer = Buffer.alloc(0);
            if (action.kind === 'drop') cut();
          }
          action.onFault?.();
          return;
        }
        const frame = buffer.subarray(0, length);
        buffer = buffer.subarray(length);
        started = true;
        upstream.write(frame);
        if (type !== null && STATEMENT_END.has(type)) {
          completed++;
          if (counting?.socket === client) counting.completed++;
        }
      }
    };
    client.on('data', (chunk) => {
      if (state === 'dropped') return;
      buffer = Buffer.concat([buffer, chunk]);
      pump();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;

  return {
    port,
    urlFor(databaseUrl) {
      const url = new URL(databaseUrl);
      url.hostname = '127.0.0.1';
      url.port = String(port);
      return url.toString();
    },
    get statements() {
      return completed;
    },
    resetCount() {
      completed = 0;
    },
    arm(n, action, options) {
      completed = 0;
      fired = false;
      counting = null;
      armed = { n, action, from: options?.from };
    },
    disarm() {
      armed = null;
      counting = null;
    },
    get fired() {
      return fired;
    },
    release() {
      held?.();
    },
    accept(value) {
      accepting = value;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
