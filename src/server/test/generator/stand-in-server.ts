// The HTTP server under the stand-ins of a generator's API (cog-stand-in.ts, replicate-stand-in.ts): on
// 127.0.0.1 (a random port unless one is given), each request's body read whole before it is handled, JSON
// answers, and the timers of the predictions under way, cleared when it stops. Test-only.
import http from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StandInRequest {
  req: IncomingMessage;
  res: ServerResponse;
  /** The request's address, on the server's own origin. */
  url: URL;
  /** The request's body as it came. */
  chunks: Buffer[];
  /** Answers with JSON. */
  send(status: number, payload: unknown): void;
}

export interface StandInServer {
  /** http://127.0.0.1:<port> */
  base: string;
  /** Runs `work` after `ms`, unless the server stops first. */
  after(ms: number, work: () => void): void;
  /** Clears the timers not run yet and stops listening. */
  stop(): Promise<void>;
}

export async function startStandInServer(handle: (request: StandInRequest) => Promise<void>, port = 0): Promise<StandInServer> {
  let base = '';
  const timers = new Set<NodeJS.Timeout>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        const send = (status: number, payload: unknown) => {
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(payload));
        };
        await handle({ req, res, url: new URL(req.url ?? '/', base), chunks, send });
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    after(ms, work) {
      const timer = setTimeout(() => {
        timers.delete(timer);
        work();
      }, ms);
      timers.add(timer);
    },
    stop: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        server.close(() => resolve());
      }),
  };
}
