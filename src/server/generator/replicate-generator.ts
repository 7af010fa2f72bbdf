// The HTTP adapter for a prediction API of the Replicate kind: POST /v1/predictions (model version and
// input), GET /v1/predictions/{id}, DELETE /v1/predictions/{id}; bearer token; outputs as URLs.
import { GeneratorError, type ImageGenerator, type Prediction, type PredictionStatus } from './provider.js';

export interface ReplicateOptions {
  baseUrl: string;
  token: string;
  /** The model version (or "owner/model") to run. */
  model: string;
  name: string;
  /** Largest output we accept. */
  maxOutputBytes?: number;
  timeoutMs?: number;
}

const STATUSES: readonly PredictionStatus[] = ['starting', 'processing', 'succeeded', 'failed', 'canceled'];

function toPrediction(body: unknown): Prediction {
  const raw = body as { id?: unknown; status?: unknown; output?: unknown; error?: unknown };
  if (typeof raw.id !== 'string' || !STATUSES.includes(raw.status as PredictionStatus)) throw new GeneratorError('the generator answered something that is not a prediction');
  const output = Array.isArray(raw.output) ? raw.output.filter((u): u is string => typeof u === 'string') : typeof raw.output === 'string' ? [raw.output] : [];
  return { id: raw.id, status: raw.status as PredictionStatus, output, error: typeof raw.error === 'string' ? raw.error : raw.error ? JSON.stringify(raw.error) : null };
}

export function createReplicateGenerator(options: ReplicateOptions): ImageGenerator {
  const base = options.baseUrl.replace(/\/$/, '');
  const timeoutMs = options.timeoutMs ?? 30_000;
  const maxBytes = options.maxOutputBytes ?? 25 * 1024 * 1024;

  async function call(method: string, path: string, body?: unknown): Promise<Response> {
    let response: Response;
    try {
      response = await fetch(`${base}${path}`, {
        method,
        headers: { authorization: `Bearer ${options.token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      throw new GeneratorError(`the generator is not reachable: ${(error as Error).message}`);
    }
    return response;
  }

  async function json(response: Response, what: string): Promise<Prediction> {
    if (!response.ok) throw new GeneratorError(`${what}: the generator answered ${response.status} ${(await response.text()).slice(0, 200)}`, response.status);
    return toPrediction(await response.json());
  }

  return {
    name: options.name,
    async create(input, webhookUrl) {
      const response = await call('POST', '/v1/predictions', {
        version: options.model,
        input: { prompt: input.prompt, input_images: input.images, num_outputs: input.count },
        ...(webhookUrl ? { webhook: webhookUrl, webhook_events_filter: ['completed'] } : {}),
      });
      return json(response, 'create prediction');
    },
    async get(id) {
      return json(await call('GET', `/v1/predictions/${encodeURIComponent(id)}`), 'read prediction');
    },
    async fetchOutput(url) {
      // Outputs come from the provider's file host: only https (or the configured base, for a stand-in).
      if (!url.startsWith('https://') && !url.startsWith(`${base}/`)) throw new GeneratorError(`output address refused: ${url.slice(0, 100)}`);
      let response: Response;
      try {
        response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
      } catch (error) {
        throw new GeneratorError(`output not reachable: ${(error as Error).message}`);
      }
      if (!response.ok) throw new GeneratorError(`output: ${response.status}`, response.status);
      const length = Number(response.headers.get('content-length') ?? 0);
      if (length > maxBytes) throw new GeneratorError('output too large');
      const buffer = Buffer.from(await response.arrayBuffer());
      if (buffer.length > maxBytes) throw new GeneratorError('output too large');
      return buffer;
    },
    async remove(id) {
      const response = await call('DELETE', `/v1/predictions/${encodeURIComponent(id)}`);
      // Gone already counts as removed.
      if (!response.ok && response.status !== 404) throw new GeneratorError(`delete prediction: ${response.status}`, response.status);
    },
  };
}
