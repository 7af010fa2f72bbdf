// A local stand-in for Replicate's HTTP API (https://replicate.com/docs/reference/http), for tests, on a random
// port; the official client talks to it through `baseUrl`. It implements what the shop uses, as documented:
// POST /v1/predictions (a version), POST /v1/models/{owner}/{name}/predictions, GET /v1/predictions/{id},
// POST /v1/predictions/{id}/cancel, bearer tokens, webhooks filtered by webhook_events_filter and signed as
// Replicate signs them (webhook-id, webhook-timestamp, webhook-signature), and output files served from
// itself as replicate.delivery serves them. Its outputs are real photos (stand-in-outputs.ts). Given a published
// model (published-models.ts), it serves GET /v1/models/{owner}/{name} (its latest version) and
// GET /v1/models/{owner}/{name}/versions/{id} with the version's `openapi_schema`, refuses an input the model
// would refuse (422, "Input validation failed") and answers in the model's output shape.
// Test-only; nothing in the app imports it.
import { createHash, randomBytes } from 'node:crypto';
import { fileFormatOf, outputsOf, validateInput, type PublishedModel } from './published-models.js';
import { signWebhook } from '../../generator/webhook-signature.js';
import { httpDelivery, inFormat, standInFile, type StandInOutput, type WebhookDelivery } from './stand-in-outputs.js';
import { startStandInServer } from './stand-in-server.js';

type Status = 'starting' | 'processing' | 'succeeded' | 'failed' | 'canceled';
type WebhookEvent = 'start' | 'output' | 'logs' | 'completed';

/** How the model behaves; a test changes it between its steps. */
export interface ModelBehaviour {
  /** Which photos it answers with. */
  output: StandInOutput;
  /**
   * How it answers: `list` (Cog List[Path]) or `single` (Path). Unset: as its published model declares (a list
   * without one); set: a model version that answers otherwise.
   */
  shape?: 'list' | 'single';
  /** Answers with this text instead of images (a model that is not an image model). */
  text: string | null;
  /** Answers with no images at all. */
  empty: boolean;
  /** Fails with this error. */
  fail: string | null;
  /** How long a prediction runs. */
  delayMs: number;
}

export interface StandInPrediction {
  id: string;
  /** "owner/name" for a model prediction, else null. */
  model: string | null;
  version: string | null;
  input: Record<string, unknown>;
  status: Status;
  output: unknown;
  error: string | null;
  webhook: string | null;
  events: WebhookEvent[];
  createdAt: Date;
  webhooksSent: number;
  canceled: boolean;
}

export interface ReplicateStandIn {
  /** For the client: `new Replicate({ auth, baseUrl })`. */
  baseUrl: string;
  /** The token it accepts (a test may change it to see a refusal). */
  token: string;
  /** The account's webhook signing secret (what GET /v1/webhooks/default/secret answers). */
  webhookSecret: string;
  behaviour: ModelBehaviour;
  /** The model it runs, as published, and its version's id; null: no schema, any input, the behaviour's shape. */
  model: PublishedModel | null;
  versionId: string;
  predictions: Map<string, StandInPrediction>;
  /** Output files fetched, by path. */
  fetched: string[];
  /** Where webhooks go (default: a real HTTP call). */
  deliver: WebhookDelivery;
  /** Ends a running prediction now (as if the model finished). */
  finish(id: string): Promise<void>;
  stop(): Promise<void>;
}

const DEFAULT_BEHAVIOUR: ModelBehaviour = { output: 'same-person', text: null, empty: false, fail: null, delayMs: 30 };

export async function startReplicateStandIn(options: { behaviour?: Partial<ModelBehaviour>; model?: PublishedModel } = {}): Promise<ReplicateStandIn> {
  let base = '';
  const state: Omit<ReplicateStandIn, 'baseUrl' | 'stop' | 'finish'> = {
    token: `r8_${randomBytes(12).toString('hex')}`,
    webhookSecret: `whsec_${randomBytes(24).toString('base64')}`,
    behaviour: { ...DEFAULT_BEHAVIOUR, ...options.behaviour },
    model: options.model ?? null,
    versionId: createHash('sha256').update(options.model?.source ?? 'no model').digest('hex'),
    predictions: new Map(),
    fetched: [],
    deliver: httpDelivery,
  };

  const view = (p: StandInPrediction) => ({
    id: p.id,
    model: p.model ?? 'acme/unknown',
    version: p.version ?? 'hidden',
    input: p.input,
    logs: '',
    output: p.output,
    data_removed: false,
    error: p.error,
    status: p.status,
    source: 'api',
    created_at: p.createdAt.toISOString(),
    started_at: p.status === 'starting' ? null : p.createdAt.toISOString(),
    completed_at: ['succeeded', 'failed', 'canceled'].includes(p.status) ? new Date().toISOString() : null,
    urls: { get: `${base}/v1/predictions/${p.id}`, cancel: `${base}/v1/predictions/${p.id}/cancel`, web: `https://replicate.com/p/${p.id}` },
    // As Replicate reports a finished prediction's run time (its API reports no price).
    metrics: p.status === 'succeeded' ? { predict_time: state.behaviour.delayMs / 1000 } : {},
  });

  async function sendWebhook(p: StandInPrediction, event: WebhookEvent): Promise<void> {
    if (!p.webhook || !p.events.includes(event)) return;
    const body = JSON.stringify(view(p));
    const id = `msg_${randomBytes(12).toString('hex')}`;
    const timestamp = Math.floor(Date.now() / 1000);
    p.webhooksSent++;
    await state.deliver(p.webhook, { 'content-type': 'application/json', 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signWebhook(state.webhookSecret, id, timestamp, body) }, body).catch(() => 0);
  }

  /** The model's answer, as the behaviour says; the number of images from the model's own count input. */
  async function complete(p: StandInPrediction): Promise<void> {
    if (p.status !== 'starting' && p.status !== 'processing') return;
    const b = state.behaviour;
    if (b.fail) {
      p.status = 'failed';
      p.error = b.fail;
    } else {
      const received = state.model ? validateInput(state.model, p.input).received : null;
      const published = state.model ? outputsOf(state.model, received!) : null;
      const format = state.model ? fileFormatOf(state.model, received!) : null;
      const shape = b.shape ?? published?.shape ?? 'list';
      const count = published ? published.count : Number(p.input.num_outputs ?? p.input.num_samples ?? 1);
      const files = await Promise.all(Array.from({ length: shape === 'single' ? 1 : count }, async (_, i) => `${base}/files/${p.id}/out-${i}.${(await inFormat(await standInFile(b.output, i), format)).extension}`));
      p.status = 'succeeded';
      p.output = b.text !== null ? b.text : b.empty ? (shape === 'list' ? [] : null) : shape === 'list' ? files : files[0];
    }
    await sendWebhook(p, 'completed');
  }

  function create(body: { version?: unknown; input?: unknown; webhook?: unknown; webhook_events_filter?: unknown }, model: string | null): StandInPrediction | string {
    if (typeof body.input !== 'object' || body.input === null) return 'input is required';
    if (!model && typeof body.version !== 'string') return 'version is required';
    if (state.model) {
      const { errors } = validateInput(state.model, body.input as Record<string, unknown>);
      if (errors.length) return errors.map((e) => `- input.${e.loc.at(-1)}: ${e.msg}\n`).join('');
    }
    const p: StandInPrediction = {
      id: randomBytes(13).toString('base64url').toLowerCase().replace(/[^a-z0-9]/g, 'x').slice(0, 26),
      model,
      version: typeof body.version === 'string' ? body.version : null,
      input: body.input as Record<string, unknown>,
      status: 'starting',
      output: null,
      error: null,
      webhook: typeof body.webhook === 'string' ? body.webhook : null,
      events: Array.isArray(body.webhook_events_filter) ? (body.webhook_events_filter as WebhookEvent[]) : ['start', 'output', 'logs', 'completed'],
      createdAt: new Date(),
      webhooksSent: 0,
      canceled: false,
    };
    state.predictions.set(p.id, p);
    void sendWebhook(p, 'start');
    server.after(state.behaviour.delayMs, () => void complete(p));
    return p;
  }

  const server = await startStandInServer(async ({ req, res, url, chunks, send }) => {
    // replicate.delivery: files need no token.
    const file = /^\/files\/([^/]+)\/out-(\d+)\.\w+$/.exec(url.pathname);
    if (file && req.method === 'GET') {
      if (!state.predictions.has(file[1]!)) return send(404, { detail: 'Not found.' });
      state.fetched.push(url.pathname);
      // In the format the prediction asked for, as its file name says.
      const asked = /\.(png|jpg|webp)$/.exec(url.pathname)?.[1] as 'png' | 'jpg' | 'webp' | undefined;
      const served = await inFormat(await standInFile(state.behaviour.output, Number(file[2])), asked ?? null);
      res.writeHead(200, { 'content-type': served.contentType, 'content-length': served.body.length });
      res.end(served.body);
      return;
    }
    if (req.headers.authorization !== `Bearer ${state.token}` && req.headers.authorization !== `Token ${state.token}`) {
      return send(401, { title: 'Unauthenticated', detail: 'You did not pass a valid authentication token', status: 401 });
    }
    let body: Record<string, unknown> = {};
    if (chunks.length) {
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      } catch {
        return send(400, { title: 'Bad request', detail: 'invalid JSON', status: 400 });
      }
    }
    const invalid = (detail: string) => send(422, { title: 'Input validation failed', detail, status: 422 });
    if (req.method === 'POST' && url.pathname === '/v1/predictions') {
      const made = create(body, null);
      return typeof made === 'string' ? invalid(made) : send(201, view(made));
    }
    const modelRoute = /^\/v1\/models\/([^/]+)\/([^/]+)\/predictions$/.exec(url.pathname);
    if (req.method === 'POST' && modelRoute) {
      const made = create(body, `${modelRoute[1]}/${modelRoute[2]}`);
      return typeof made === 'string' ? invalid(made) : send(201, view(made));
    }
    const modelInfo = /^\/v1\/models\/([^/]+)\/([^/]+)(?:\/versions\/([0-9a-f]{64}))?$/.exec(url.pathname);
    if (req.method === 'GET' && modelInfo) {
      const name = `${modelInfo[1]}/${modelInfo[2]}`;
      if (!state.model || state.model.name !== name || (modelInfo[3] && modelInfo[3] !== state.versionId)) return send(404, { detail: 'Not found.', status: 404 });
      const version = { id: state.versionId, created_at: new Date(0).toISOString(), cog_version: '0.13.6', openapi_schema: state.model.openapi };
      if (modelInfo[3]) return send(200, version);
      return send(200, { url: `https://replicate.com/${name}`, owner: modelInfo[1], name: modelInfo[2], description: null, visibility: 'public', run_count: 0, latest_version: version });
    }
    const one = /^\/v1\/predictions\/([^/]+)(\/cancel)?$/.exec(url.pathname);
    const p = one ? state.predictions.get(one[1]!) : undefined;
    if (!one || !p) return send(404, { detail: 'Not found.', status: 404 });
    if (req.method === 'GET' && !one[2]) {
      if (p.status === 'starting') p.status = 'processing';
      return send(200, view(p));
    }
    if (req.method === 'POST' && one[2]) {
      if (p.status === 'starting' || p.status === 'processing') {
        p.status = 'canceled';
        p.canceled = true;
        await sendWebhook(p, 'completed');
      }
      return send(200, view(p));
    }
    return send(405, { detail: 'Method not allowed', status: 405 });
  });
  base = server.base;
  return Object.assign(state, {
    baseUrl: `${base}/v1`,
    async finish(id: string) {
      const p = state.predictions.get(id);
      if (p) await complete(p);
    },
    stop: () => server.stop(),
  });
}
