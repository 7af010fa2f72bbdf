// Replicate's HTTP API through its official client (npm `replicate`): POST /v1/predictions with a version,
// or POST /v1/models/{owner}/{name}/predictions for an official model's latest version; GET
// /v1/predictions/{id}; POST /v1/predictions/{id}/cancel. There is no delete: Replicate removes an API
// prediction's inputs and output files itself after an hour, so the service copies outputs at once.
// https://replicate.com/docs/reference/http, github.com/replicate/replicate-javascript
import Replicate from 'replicate';
import { GeneratorError } from './generator-error.js';
import { readOutput, toPrediction, type ImageGenerator, type Prediction } from './provider.js';
import type { ModelProfile } from './profiles/profile.js';

export interface ReplicateOptions {
  token: string;
  /** "owner/name" (its latest version) or "owner/name:version". */
  model: string;
  profile: ModelProfile;
  name: string;
  /** The API's address (default https://api.replicate.com/v1; a stand-in in tests). */
  baseUrl?: string;
  maxOutputBytes?: number;
  timeoutMs?: number;
}

export function parseModelReference(model: string): { model: `${string}/${string}`; version: string | null } | null {
  const match = /^([a-z0-9][a-z0-9._-]*)\/([a-z0-9][a-z0-9._-]*)(?::([0-9a-f]{64}))?$/i.exec(model.trim());
  if (!match) return null;
  return { model: `${match[1]}/${match[2]}`, version: match[3] ?? null };
}

/** The client throws ApiError (with the response) for a non-2xx answer, TypeError when unreachable. */
function asGeneratorError(what: string, error: unknown): GeneratorError {
  const status = (error as { response?: { status?: unknown } }).response?.status;
  const message = (error as Error).message ?? String(error);
  return new GeneratorError(`${what}: ${typeof status === 'number' ? `Replicate answered ${status}: ` : 'Replicate is not reachable: '}${message.slice(0, 300)}`, typeof status === 'number' ? status : null);
}

export function createReplicateGenerator(options: ReplicateOptions): ImageGenerator {
  const reference = parseModelReference(options.model);
  if (!reference) throw new GeneratorError(`GENERATOR_MODEL must be owner/name or owner/name:version, not ${options.model}`);
  const timeoutMs = options.timeoutMs ?? 30_000;
  const baseUrl = options.baseUrl ?? 'https://api.replicate.com/v1';
  const client = new Replicate({
    auth: options.token,
    baseUrl,
    fetch: (input, init) => fetch(input, { ...init, signal: init?.signal ?? AbortSignal.timeout(timeoutMs) }),
  });
  const ownOrigin = new URL(baseUrl).origin;

  async function call(what: string, request: () => Promise<unknown>): Promise<Prediction> {
    let body: unknown;
    try {
      body = await request();
    } catch (error) {
      throw asGeneratorError(what, error);
    }
    return toPrediction(body);
  }

  return {
    kind: 'replicate',
    name: options.name,
    profile: options.profile,
    readable: true,
    create(input, { webhookUrl }) {
      return call('create prediction', () =>
        client.predictions.create({
          ...(reference.version ? { version: reference.version } : { model: reference.model }),
          input,
          ...(webhookUrl ? { webhook: webhookUrl, webhook_events_filter: ['completed' as const] } : {}),
        }),
      );
    },
    check(id) {
      return call('read prediction', () => client.predictions.get(id));
    },
    async cancel(id) {
      try {
        await client.predictions.cancel(id);
      } catch (error) {
        const failure = asGeneratorError('cancel prediction', error);
        // Gone already is what we wanted.
        if (failure.status !== 404) throw failure;
      }
    },
    model: options.model,
    async openapi() {
      const [owner, name] = reference.model.split('/') as [string, string];
      try {
        if (reference.version) return (await client.models.versions.get(owner, name, reference.version)).openapi_schema;
        const model = await client.models.get(owner, name);
        if (!model.latest_version) throw new GeneratorError(`${reference.model} has no version on Replicate`);
        return model.latest_version.openapi_schema;
      } catch (error) {
        if (error instanceof GeneratorError) throw error;
        throw asGeneratorError(`schema of ${options.model}`, error);
      }
    },
    // Output files live on replicate.delivery (https); the stand-in serves them from its own address.
    fetchOutput: (url) => readOutput(url, { allowedOrigin: ownOrigin, maxBytes: options.maxOutputBytes ?? 25 * 1024 * 1024, timeoutMs }),
  };
}
