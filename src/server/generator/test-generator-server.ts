// A local stand-in for a prediction API of the Replicate kind, on a random port: create, read and delete
// predictions (bearer token required), finishing after a few reads, with outputs served from itself.
// Test-only; nothing in the app imports it.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';

export interface StandInPrediction {
  id: string;
  status: 'starting' | 'processing' | 'succeeded' | 'failed' | 'canceled';
  input: { prompt: string; input_images: string[]; num_outputs: number };
  webhook: string | null;
  reads: number;
  deleted: boolean;
}

export interface TestGeneratorServer {
  baseUrl: string;
  /** The token it accepts (a test may change it to see a refusal). */
  token: string;
  predictions: Map<string, StandInPrediction>;
  /** Output files fetched, by name. */
  fetched: string[];
  /** Reads a prediction takes before it succeeds (or fails, see failNext). */
  readsToFinish: number;
  failNext: boolean;
  /** Served instead of the PNG output when set (a provider sending something that is not a photo). */
  outputFile: { body: Buffer; contentType: string } | null;
  stop(): Promise<void>;
}

export async function startTestGeneratorServer(portrait: Buffer): Promise<TestGeneratorServer> {
  const token = 'r8_test_token';
  const output = await sharp(portrait).resize(768, 960, { fit: 'cover' }).modulate({ hue: 30 }).png().toBuffer();
  let counter = 0;
  const state = { token, predictions: new Map<string, StandInPrediction>(), fetched: [] as string[], readsToFinish: 2, failNext: false, outputFile: null as TestGeneratorServer['outputFile'] };

  const view = (p: StandInPrediction) => ({
    id: p.id,
    status: p.status,
    error: p.status === 'failed' ? 'the model ran out of memory' : null,
    output: p.status === 'succeeded' ? Array.from({ length: p.input.num_outputs }, (_, i) => `${base}/files/${p.id}-${i}.png`) : null,
    urls: { get: `${base}/v1/predictions/${p.id}` },
  });

  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      const send = (status: number, payload?: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(payload === undefined ? '' : JSON.stringify(payload));
      };
      const url = new URL(req.url ?? '/', base);
      if (url.pathname.startsWith('/files/')) {
        state.fetched.push(url.pathname.slice('/files/'.length));
        const file = state.outputFile ?? { body: output, contentType: 'image/png' };
        res.writeHead(200, { 'content-type': file.contentType, 'content-length': file.body.length });
        res.end(file.body);
        return;
      }
      if (req.headers.authorization !== `Bearer ${state.token}`) return send(401, { detail: 'Invalid token' });
      const match = /^\/v1\/predictions(?:\/([^/]+))?$/.exec(url.pathname);
      if (!match) return send(404, { detail: 'Not found' });
      const id = match[1];
      if (req.method === 'POST' && !id) {
        const parsed = JSON.parse(body) as { input: StandInPrediction['input']; webhook?: string };
        const prediction: StandInPrediction = { id: `pred${++counter}x`, status: 'starting', input: parsed.input, webhook: parsed.webhook ?? null, reads: 0, deleted: false };
        state.predictions.set(prediction.id, prediction);
        return send(201, view(prediction));
      }
      const prediction = id ? state.predictions.get(id) : undefined;
      if (!prediction || prediction.deleted) return send(404, { detail: 'Not found' });
      if (req.method === 'GET') {
        prediction.reads++;
        if (prediction.status === 'starting' || prediction.status === 'processing') {
          prediction.status = prediction.reads >= state.readsToFinish ? (state.failNext ? 'failed' : 'succeeded') : 'processing';
          if (prediction.status === 'failed') state.failNext = false;
        }
        return send(200, view(prediction));
      }
      if (req.method === 'DELETE') {
        prediction.deleted = true;
        return send(204);
      }
      return send(405, { detail: 'Method not allowed' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(state, {
    baseUrl: base,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}
