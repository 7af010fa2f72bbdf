// The HTTP API every Cog model container serves (github.com/replicate/cog docs/http.md):
// PUT /predictions/{id} with `Prefer: respond-async` starts a prediction under our id and answers 202 at once;
// the same PUT again while it runs creates nothing new and answers for it; POST /predictions/{id}/cancel
// stops it (404 when unknown); GET /health-check tells whether the model is READY. There is no GET of a
// prediction ("polling for prediction status is not currently supported"): the result arrives only by the
// webhook, unsigned. Its file outputs, for an asynchronous prediction: uploaded to the shop when the container
// runs with --upload-url (upload-address.ts), else paths inside the container nobody can read.
import { GeneratorError } from './generator-error.js';
import { readOutput, toPrediction, type ImageGenerator, type Prediction } from './provider.js';
import type { ModelProfile } from './profiles/profile.js';

export interface CogOptions {
  /** The container's address, e.g. http://gpu-1:5000 */
  baseUrl: string;
  profile: ModelProfile;
  name: string;
  maxOutputBytes?: number;
  timeoutMs?: number;
}

export type CogHealth = NonNullable<Awaited<ReturnType<NonNullable<ImageGenerator['health']>>>>;

export function createCogGenerator(options: CogOptions): ImageGenerator & { health(): Promise<CogHealth> } {
  const base = options.baseUrl.replace(/\/$/, '');
  const timeoutMs = options.timeoutMs ?? 30_000;

  async function request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
    try {
      return await fetch(`${base}${path}`, {
        method,
        headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      throw new GeneratorError(`the Cog container is not reachable: ${(error as Error).message}`);
    }
  }

  async function put(id: string, input: Record<string, unknown>, webhookUrl: string | null): Promise<Prediction> {
    const response = await request(
      'PUT',
      `/predictions/${encodeURIComponent(id)}`,
      { id, input, ...(webhookUrl ? { webhook: webhookUrl, webhook_events_filter: ['completed'] } : {}) },
      { prefer: 'respond-async' },
    );
    // 409: every prediction slot is taken by another prediction (ours would have been answered for).
    if (!response.ok) throw new GeneratorError(`start prediction: the Cog container answered ${response.status} ${(await response.text()).slice(0, 300)}`, response.status);
    return toPrediction(await response.json(), id);
  }

  return {
    kind: 'cog',
    name: options.name,
    profile: options.profile,
    readable: false,
    create: (input, { id, webhookUrl }) => put(id, input, webhookUrl),
    check: (id, input, webhookUrl) => put(id, input, webhookUrl),
    async cancel(id) {
      const response = await request('POST', `/predictions/${encodeURIComponent(id)}/cancel`);
      if (!response.ok && response.status !== 404) throw new GeneratorError(`cancel prediction: the Cog container answered ${response.status}`, response.status);
    },
    fetchOutput: (reference) => readOutput(reference, { allowedOrigin: new URL(base).origin, maxBytes: options.maxOutputBytes ?? 25 * 1024 * 1024, timeoutMs }),
    model: base,
    async openapi() {
      const response = await request('GET', '/openapi.json');
      if (!response.ok) throw new GeneratorError(`schema: the Cog container answered ${response.status} to GET /openapi.json`, response.status);
      return response.json();
    },
    async health() {
      const response = await request('GET', '/health-check');
      if (!response.ok) throw new GeneratorError(`health check: the Cog container answered ${response.status}`, response.status);
      return ((await response.json()) as { status: CogHealth }).status;
    },
  };
}
