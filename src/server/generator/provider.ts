// One interface for an external image generator (a hosted generative model for what the studio cannot do:
// outfits, styles), one file per protocol: Replicate's HTTP API through its official client
// (replicate-generator.ts) and the HTTP API every Cog model container serves (cog-generator.ts). What the
// model's inputs are called is a model profile's business (profiles/).
import type { PredictionStatus } from '../../domain/stored-json.js';
import { GeneratorError } from './generator-error.js';
import type { ModelProfile } from './profiles/profile.js';

/** A prediction's state (stored with a job's progress when its webhook reports it: domain/stored-json.ts). */
export type { PredictionStatus };

export interface Prediction {
  id: string;
  status: PredictionStatus;
  /** The model's output as it came (the profile reads it: a list, one address, data: URIs …). */
  output: unknown;
  error: string | null;
  /** Seconds the model ran, where the provider reports it (`metrics.predict_time`). */
  predictTime?: number;
}

export interface ImageGenerator {
  readonly kind: 'replicate' | 'cog';
  /** Who runs it (EXIF, privacy policy). */
  readonly name: string;
  readonly profile: ModelProfile;
  /**
   * Whether `check` reads the prediction's real state. Replicate: yes (GET /v1/predictions/{id}). Cog: no;
   * its HTTP API has no way to read a prediction (only its webhook reports the result), and its `check` repeats
   * the idempotent PUT, which answers for the running prediction but starts one that has ended anew: the shop
   * never calls it (it learns the end from the webhook, the files uploaded to it, or `health`).
   */
  readonly readable: boolean;
  /**
   * Starts one prediction. `id` is ours: Cog takes it as the prediction id (PUT /predictions/{id}, the
   * idempotency key); Replicate assigns its own (in the answer). The webhook is called once, on completion.
   */
  create(input: Record<string, unknown>, options: { id: string; webhookUrl: string | null }): Promise<Prediction>;
  check(id: string, input: Record<string, unknown>, webhookUrl: string | null): Promise<Prediction>;
  /** Stops a prediction we no longer want (a finished or unknown one is no error). */
  cancel(id: string): Promise<void>;
  /** One output as bytes: an address at the provider or a data: URI (size-checked here, type-checked by the caller). */
  fetchOutput(reference: string): Promise<Buffer>;
  /**
   * The configured model's published OpenAPI document (model-schema.ts reads it): a Cog container's
   * GET /openapi.json, or on Replicate the pinned version's (else the latest version's) `openapi_schema`.
   */
  openapi(): Promise<unknown>;
  /** The model as the settings name it, for the operator: an address or owner/name[:version]. */
  readonly model: string;
  /** Cog: whether the container is idle (READY), working (BUSY) or not usable; it cannot say which prediction runs. */
  health?(): Promise<'STARTING' | 'READY' | 'BUSY' | 'SETUP_FAILED' | 'DEFUNCT' | 'UNHEALTHY'>;
}

export const PREDICTION_STATUSES: readonly PredictionStatus[] = ['starting', 'processing', 'succeeded', 'failed', 'canceled'];

/** A prediction object of either API (they share these fields), or an error naming what came instead. */
export function toPrediction(body: unknown, fallbackId?: string): Prediction {
  const raw = (body ?? {}) as { id?: unknown; status?: unknown; output?: unknown; error?: unknown; metrics?: { predict_time?: unknown } | null };
  const id = typeof raw.id === 'string' ? raw.id : fallbackId;
  if (!id || !PREDICTION_STATUSES.includes(raw.status as PredictionStatus)) throw new GeneratorError('the generator answered something that is not a prediction');
  const predictTime = raw.metrics?.predict_time;
  return {
    id,
    status: raw.status as PredictionStatus,
    output: raw.output ?? null,
    error: typeof raw.error === 'string' ? raw.error : raw.error ? JSON.stringify(raw.error) : null,
    ...(typeof predictTime === 'number' ? { predictTime } : {}),
  };
}

const DATA_URI = /^data:([^;,]*)(?:;[^,]*)?;base64,(.*)$/s;

/** Fetches an output address (only https, or the given origin for a stand-in or an own host) or decodes a data: URI. */
export async function readOutput(reference: string, options: { allowedOrigin: string | null; maxBytes: number; timeoutMs: number; headers?: Record<string, string> }): Promise<Buffer> {
  const data = DATA_URI.exec(reference.slice(0, 200));
  if (data) {
    const buffer = Buffer.from(reference.slice(reference.indexOf(',') + 1), 'base64');
    if (buffer.length > options.maxBytes) throw new GeneratorError('output too large');
    return buffer;
  }
  let url: URL;
  try {
    url = new URL(reference);
  } catch {
    throw new GeneratorError(`output address refused: ${reference.slice(0, 100)}`);
  }
  if (url.protocol !== 'https:' && url.origin !== options.allowedOrigin) throw new GeneratorError(`output address refused: ${reference.slice(0, 100)}`);
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(options.timeoutMs), ...(options.headers ? { headers: options.headers } : {}) });
  } catch (error) {
    throw new GeneratorError(`output not reachable: ${(error as Error).message}`);
  }
  if (!response.ok) throw new GeneratorError(`output: ${response.status}`, response.status);
  const length = Number(response.headers.get('content-length') ?? 0);
  if (length > options.maxBytes) throw new GeneratorError('output too large');
  const buffer = Buffer.from(await response.arrayBuffer());
  if (buffer.length > options.maxBytes) throw new GeneratorError('output too large');
  return buffer;
}
