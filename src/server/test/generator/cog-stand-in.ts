// A local stand-in for the HTTP API a Cog model container serves (github.com/replicate/cog docs/http.md), for
// tests, on a random port: GET / (discovery), GET /health-check, POST /predictions and the idempotent
// PUT /predictions/{id} (synchronous, or `Prefer: respond-async` answering 202 at once), one prediction at a
// time (409 for another while one runs; the same id again answers for the running one, and starts it anew
// once it has ended, as the docs only promise idempotency "while the prediction is still running"),
// POST /predictions/{id}/cancel (404 for an id not running), webhooks (unsigned, with only the prediction's set
// fields, as Cog 0.13.6 sends them) filtered by webhook_events_filter, and file outputs as Cog 0.13.6's Python server gives them (cog/server/http.py,
// runner.py, files.py): a synchronous prediction answers data: URIs; an asynchronous one PUTs each file to the
// `--upload-url` (`<upload url>/<file name>`, raw bytes, the name's Content-Type, `X-Prediction-ID`) and answers the
// upload's Location without its query, or, started without an upload URL, answers the paths of the files inside
// the container (`/tmp/out_0.png`, as zsxkib's predictors save them). No GET of a prediction: Cog has none. Its outputs are real photos (stand-in-outputs.ts). Given a published model
// (published-models.ts), it serves that model's GET /openapi.json, takes the input as Cog's input model does
// (unknown inputs dropped, 422 for a missing, wrong or out-of-range one) and answers in the model's output shape
// with as many images as its count input asks. Test-only.
import { randomBytes } from 'node:crypto';
import { fileFormatOf, outputsOf, validateInput, type PublishedModel } from './published-models.js';
import type { ModelBehaviour } from './replicate-stand-in.js';
import { startStandInServer } from './stand-in-server.js';
import { httpDelivery, httpUpload, inFormat, standInFile, type StandInFile, type UploadDelivery, type WebhookDelivery } from './stand-in-outputs.js';

type WebhookEvent = 'start' | 'output' | 'logs' | 'completed';

export interface CogPrediction {
  id: string;
  input: Record<string, unknown>;
  /** What the predictor received: the input less what the model does not have (with a published model). */
  received: Record<string, unknown>;
  status: 'starting' | 'processing' | 'succeeded' | 'failed' | 'canceled';
  output: unknown;
  error: string | null;
  webhook: string | null;
  events: WebhookEvent[];
  /** How often this id was started (a PUT after the end starts it again). */
  runs: number;
  /** PUTs answered for the running prediction. */
  repeats: number;
  canceled: boolean;
  /** Started with `Prefer: respond-async` (only these upload their files, as in Cog 0.13.6). */
  async: boolean;
  startedAt: string;
  completedAt: string | null;
  done: Promise<void>;
}

export interface CogStandIn {
  baseUrl: string;
  behaviour: ModelBehaviour;
  /** Inputs the model requires (a missing one is a 422, as Cog's input validation answers). */
  required: string[];
  /** The model it serves, as published; null: no schema, any input, the behaviour's shape. */
  model: PublishedModel | null;
  /** The container's `--upload-url`; null: started without one. */
  uploadUrl: string | null;
  predictions: Map<string, CogPrediction>;
  deliver: WebhookDelivery;
  /** How an upload reaches the upload URL (a real PUT, or straight into the app under test). */
  upload: UploadDelivery;
  health: 'STARTING' | 'READY' | 'SETUP_FAILED';
  /** GET /health-check requests answered. */
  healthChecks: number;
  finish(id: string): Promise<void>;
  stop(): Promise<void>;
}

export async function startCogStandIn(options: { behaviour?: Partial<ModelBehaviour>; required?: string[]; model?: PublishedModel; uploadUrl?: string; port?: number } = {}): Promise<CogStandIn> {
  const finishers = new Map<string, () => void>();
  const state: Omit<CogStandIn, 'baseUrl' | 'stop' | 'finish'> = {
    behaviour: { output: 'same-person', text: null, empty: false, fail: null, delayMs: 30, ...options.behaviour },
    required: options.required ?? [],
    model: options.model ?? null,
    uploadUrl: options.uploadUrl ?? null,
    predictions: new Map(),
    deliver: httpDelivery,
    upload: httpUpload,
    health: 'READY',
    healthChecks: 0,
  };
  // Every image it makes is the next photo of the set, also across predictions of one image each.
  let produced = 0;
  const running = () => [...state.predictions.values()].find((p) => p.status === 'starting' || p.status === 'processing');

  /**
   * The prediction as Cog 0.13.6 sends it (schema.py PredictionResponse): in an answer every field; in a webhook
   * only the fields that were set (webhook.py: `dict(exclude_unset=True)`): those of the request, then status,
   * output, logs and times, `metrics` once it succeeded and `error` only when it failed; never `version`.
   */
  const view = (p: CogPrediction, only: 'set' | 'all' = 'all') => {
    const ended = p.status === 'succeeded' || p.status === 'failed' || p.status === 'canceled';
    const set = {
      input: p.input,
      output: p.output,
      id: p.id,
      created_at: null,
      output_file_prefix: null,
      webhook: p.webhook,
      webhook_events_filter: p.events,
      status: p.status,
      logs: '',
      started_at: p.startedAt,
      ...(ended ? { completed_at: p.completedAt } : {}),
      ...(p.status === 'succeeded' ? { metrics: { predict_time: state.behaviour.delayMs / 1000 } } : {}),
      ...(p.status === 'failed' ? { error: p.error } : {}),
    };
    return only === 'set' ? set : { version: null, completed_at: null, metrics: null, error: null, ...set };
  };

  async function sendWebhook(p: CogPrediction, event: WebhookEvent): Promise<void> {
    if (!p.webhook || !p.events.includes(event)) return;
    await state.deliver(p.webhook, { 'content-type': 'application/json' }, JSON.stringify(view(p, 'set'))).catch(() => 0);
  }

  /** One file of the output, as the server gives it for this kind of request. */
  async function fileOutput(p: CogPrediction, index: number, file: StandInFile): Promise<string> {
    const name = `out_${index}.${file.extension}`;
    if (!p.async) return `data:${file.contentType};base64,${file.body.toString('base64')}`;
    if (!state.uploadUrl) return `/tmp/${name}`;
    const url = (state.uploadUrl.endsWith('/') ? state.uploadUrl : `${state.uploadUrl}/`) + name;
    const answer = await state.upload(url, { 'content-type': file.contentType, 'x-prediction-id': p.id }, file.body);
    if (answer.status >= 400) throw new Error(`${answer.status} ${answer.status < 500 ? 'Client' : 'Server'} Error for url: ${url}`);
    const final = new URL(answer.location ?? url, url);
    final.search = '';
    return final.toString();
  }

  async function complete(p: CogPrediction): Promise<void> {
    if (p.status !== 'starting' && p.status !== 'processing') return;
    const b = state.behaviour;
    p.completedAt = new Date().toISOString();
    if (b.fail) {
      p.status = 'failed';
      p.error = b.fail;
    } else {
      const published = state.model ? outputsOf(state.model, p.received) : null;
      const shape = b.shape ?? published?.shape ?? 'list';
      const count = shape === 'single' ? 1 : published ? published.count : Number(p.input.num_outputs ?? p.input.num_samples ?? 1);
      let files: string[];
      try {
        files = [];
        // One after another, as cog/json.py's upload_files walks the output.
        const format = state.model ? fileFormatOf(state.model, p.received) : null;
        for (let i = 0; i < count; i++) files.push(await fileOutput(p, i, await inFormat(await standInFile(b.output, produced++), format)));
      } catch {
        // The runner's upload raised (FileUploadError; its cause goes only to the container's log): the prediction fails.
        p.status = 'failed';
        p.error = 'Got error trying to upload output files';
        p.completedAt = new Date().toISOString();
        finishers.get(p.id)?.();
        await sendWebhook(p, 'completed');
        return;
      }
      p.status = 'succeeded';
      p.output = b.text !== null ? b.text : b.empty ? (shape === 'list' ? [] : null) : shape === 'list' ? files : files[0];
    }
    finishers.get(p.id)?.();
    await sendWebhook(p, 'completed');
  }

  function start(id: string, body: Record<string, unknown>, received: Record<string, unknown>, async: boolean): CogPrediction {
    const previous = state.predictions.get(id);
    let resolveDone: () => void = () => {};
    const p: CogPrediction = {
      id,
      input: (body.input ?? {}) as Record<string, unknown>,
      received,
      status: 'starting',
      output: null,
      error: null,
      webhook: typeof body.webhook === 'string' ? body.webhook : null,
      events: Array.isArray(body.webhook_events_filter) ? (body.webhook_events_filter as WebhookEvent[]) : ['start', 'output', 'logs', 'completed'],
      runs: (previous?.runs ?? 0) + 1,
      repeats: previous?.repeats ?? 0,
      canceled: false,
      async,
      startedAt: new Date().toISOString(),
      completedAt: null,
      done: new Promise<void>((resolve) => (resolveDone = resolve)),
    };
    finishers.set(id, resolveDone);
    state.predictions.set(id, p);
    void sendWebhook(p, 'start');
    p.status = 'processing';
    server.after(state.behaviour.delayMs, () => void complete(p));
    return p;
  }

  const server = await startStandInServer(async ({ req, url, chunks, send }) => {
    if (req.method === 'GET' && url.pathname === '/') {
      return send(200, { cog_version: '0.13.6', docs_url: '/docs', openapi_url: '/openapi.json', shutdown_url: '/shutdown', healthcheck_url: '/health-check', predictions_url: '/predictions', predictions_idempotent_url: '/predictions/{prediction_id}', predictions_cancel_url: '/predictions/{prediction_id}/cancel' });
    }
    if (req.method === 'GET' && url.pathname === '/openapi.json') {
      if (!state.model) return send(404, { detail: 'Not Found' });
      return send(200, state.model.openapi);
    }
    if (req.method === 'GET' && url.pathname === '/health-check') {
      state.healthChecks++;
      const status = state.health === 'READY' && running() ? 'BUSY' : state.health;
      // 0.13.6 (http.py healthcheck): the state and setup's result, nothing else.
      return send(200, { status, setup: state.health === 'STARTING' ? {} : { started_at: new Date(0).toISOString(), completed_at: new Date(0).toISOString(), logs: '', status: state.health === 'SETUP_FAILED' ? 'failed' : 'succeeded' } });
    }
    const cancel = /^\/predictions\/([^/]+)\/cancel$/.exec(url.pathname);
    if (req.method === 'POST' && cancel) {
      const p = state.predictions.get(cancel[1]!);
      if (!p || (p.status !== 'starting' && p.status !== 'processing')) return send(404, { detail: 'Not Found' });
      p.status = 'canceled';
      p.completedAt = new Date().toISOString();
      p.canceled = true;
      finishers.get(p.id)?.();
      void sendWebhook(p, 'completed');
      return send(200, {});
    }
    const idempotent = /^\/predictions\/([^/]+)$/.exec(url.pathname);
    if ((req.method === 'POST' && url.pathname === '/predictions') || (req.method === 'PUT' && idempotent)) {
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
      } catch {
        return send(400, { detail: 'invalid JSON' });
      }
      const input = (body.input ?? {}) as Record<string, unknown>;
      const checked = state.model ? validateInput(state.model, input) : { received: input, errors: state.required.filter((name) => input[name] === undefined || input[name] === null).map((name) => ({ loc: ['body', 'input', name], msg: 'field required', type: 'value_error.missing' })) };
      if (checked.errors.length) return send(422, { detail: checked.errors });
      if (state.health !== 'READY') return send(503, { detail: 'model not ready' });
      const id = idempotent ? decodeURIComponent(idempotent[1]!) : typeof body.id === 'string' ? body.id : randomBytes(16).toString('hex');
      const current = running();
      let p: CogPrediction;
      if (current && current.id === id) {
        current.repeats++;
        p = current;
      } else if (current) {
        return send(409, { detail: 'Already running a prediction' });
      } else {
        p = start(id, body, checked.received, req.headers.prefer === 'respond-async');
      }
      if (req.headers.prefer === 'respond-async') return send(202, view(p));
      await p.done;
      return send(200, view(p));
    }
    return send(404, { detail: 'Not Found' });
  }, options.port);
  return Object.assign(state, {
    baseUrl: server.base,
    async finish(id: string) {
      const p = state.predictions.get(id);
      if (p) await complete(p);
    },
    stop: () => {
      for (const finish of finishers.values()) finish();
      return server.stop();
    },
  });
}
