// A local stand-in for the slice of the Stripe API the shop uses (Checkout Sessions: create, retrieve,
// expire; refunds: create, list), on a random port. It records every request the SDK sends and answers with Stripe-shaped
// JSON, including Stripe's error format and idempotent replays. Test-only; nothing in the app imports it.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The form-encoded body, decoded (keys like `line_items[0][price_data][unit_amount]`). */
  form: URLSearchParams;
}

export interface StandInSession {
  id: string;
  object: 'checkout.session';
  status: 'open' | 'complete' | 'expired';
  payment_status: 'paid' | 'unpaid' | 'no_payment_required';
  amount_total: number;
  currency: string;
  client_reference_id: string | null;
  metadata: Record<string, string>;
  url: string | null;
  expires_at: number;
  [key: string]: unknown;
}

export interface TestStripeServer {
  apiBase: { host: string; port: number; protocol: 'http' };
  requests: RecordedRequest[];
  sessions: Map<string, StandInSession>;
  /** Refunds made, in order. */
  refunds: { id: string; payment_intent: string | null; amount: number; metadata: Record<string, string | null>; [key: string]: unknown }[];
  /** The next `count` requests answer 503 with `Stripe-Should-Retry: true`. */
  failNext(count: number): void;
  stop(): Promise<void>;
}

function stripeError(res: http.ServerResponse, status: number, error: { type: string; message: string; code?: string; param?: string }) {
  res.writeHead(status, { 'content-type': 'application/json', 'request-id': 'req_standin' });
  res.end(JSON.stringify({ error }));
}

function json(res: http.ServerResponse, body: unknown) {
  res.writeHead(200, { 'content-type': 'application/json', 'request-id': 'req_standin' });
  res.end(JSON.stringify(body));
}

function prefixed(form: URLSearchParams, prefix: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of form) {
    const match = key.startsWith(`${prefix}[`) && key.endsWith(']') ? key.slice(prefix.length + 1, -1) : null;
    if (match && !match.includes('[')) out[match] = value;
  }
  return out;
}

export async function startTestStripeServer(): Promise<TestStripeServer> {
  const requests: RecordedRequest[] = [];
  const sessions = new Map<string, StandInSession>();
  const replays = new Map<string, string>();
  const refunds: TestStripeServer['refunds'] = [];
  let failures = 0;
  let counter = 0;

  function createSession(form: URLSearchParams): StandInSession {
    let amount = 0;
    for (let i = 0; form.has(`line_items[${i}][quantity]`); i++) {
      amount += Number(form.get(`line_items[${i}][price_data][unit_amount]`)) * Number(form.get(`line_items[${i}][quantity]`));
    }
    counter += 1;
    const id = `cs_test_standin${String(counter).padStart(4, '0')}`;
    return {
      id,
      object: 'checkout.session',
      mode: form.get('mode'),
      status: 'open',
      payment_status: 'unpaid',
      amount_total: amount,
      currency: form.get('line_items[0][price_data][currency]') ?? 'eur',
      client_reference_id: form.get('client_reference_id'),
      customer_email: form.get('customer_email'),
      metadata: prefixed(form, 'metadata'),
      locale: form.get('locale'),
      success_url: form.get('success_url'),
      cancel_url: form.get('cancel_url'),
      payment_intent: null,
      url: `https://checkout.stripe.test/c/pay/${id}`,
      created: Math.floor(Date.now() / 1000),
      expires_at: Number(form.get('expires_at') ?? Math.floor(Date.now() / 1000) + 86_400),
      livemode: false,
    };
  }

  function handle(req: http.IncomingMessage, res: http.ServerResponse, recorded: RecordedRequest) {
    if (failures > 0) {
      failures -= 1;
      res.writeHead(503, { 'content-type': 'application/json', 'stripe-should-retry': 'true' });
      res.end(JSON.stringify({ error: { type: 'api_error', message: 'Stand-in outage' } }));
      return;
    }
    const missing = (id: string) =>
      stripeError(res, 404, { type: 'invalid_request_error', code: 'resource_missing', param: 'session', message: `No such checkout.session: '${id}'` });
    const url = new URL(recorded.path, 'http://stand-in');
    const expire = /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/.exec(url.pathname);
    const one = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(url.pathname);
    // Like Stripe: a POST with an idempotency key seen before gets the first answer again.
    const key = req.headers['idempotency-key'];
    const created = (make: () => object) => {
      const replay = typeof key === 'string' ? replays.get(key) : undefined;
      if (replay) {
        res.writeHead(200, { 'content-type': 'application/json', 'idempotent-replayed': 'true' });
        res.end(replay);
        return;
      }
      const body = JSON.stringify(make());
      if (typeof key === 'string') replays.set(key, body);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(body);
    };
    if (req.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
      return created(() => {
        const session = createSession(recorded.form);
        sessions.set(session.id, session);
        return session;
      });
    }
    if (req.method === 'POST' && expire) {
      const id = decodeURIComponent(expire[1] ?? '');
      const session = sessions.get(id);
      if (!session) return missing(id);
      if (session.status !== 'open') {
        return stripeError(res, 400, {
          type: 'invalid_request_error',
          message: `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${session.status}".`,
        });
      }
      session.status = 'expired';
      session.url = null;
      return json(res, session);
    }
    if (req.method === 'POST' && url.pathname === '/v1/refunds') {
      const form = recorded.form;
      if (form.get('payment_intent') === 'pi_already_refunded') {
        return stripeError(res, 400, { type: 'invalid_request_error', code: 'charge_already_refunded', message: 'Charge ch_standin has already been refunded.' });
      }
      const amount = Number(form.get('amount'));
      if (!Number.isSafeInteger(amount) || amount < 1) {
        return stripeError(res, 400, { type: 'invalid_request_error', code: 'parameter_invalid_integer', param: 'amount', message: 'Invalid positive integer' });
      }
      return created(() => {
        const refund = {
          id: `re_standin_${refunds.length + 1}`,
          object: 'refund',
          amount,
          currency: 'eur',
          payment_intent: form.get('payment_intent'),
          status: 'pending',
          metadata: { order_id: form.get('metadata[order_id]'), refund_id: form.get('metadata[refund_id]') },
        };
        refunds.push(refund);
        return refund;
      });
    }
    if (req.method === 'GET' && url.pathname === '/v1/refunds') {
      const paymentIntent = url.searchParams.get('payment_intent');
      return json(res, { object: 'list', url: '/v1/refunds', has_more: false, data: refunds.filter((r) => !paymentIntent || r.payment_intent === paymentIntent).reverse() });
    }
    if (req.method === 'GET' && one) {
      const id = decodeURIComponent(one[1] ?? '');
      const session = sessions.get(id);
      return session ? json(res, session) : missing(id);
    }
    stripeError(res, 404, { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${url.pathname}).` });
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const recorded: RecordedRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, form: new URLSearchParams(body) };
      requests.push(recorded);
      handle(req, res, recorded);
    });
  });
  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });

  return {
    apiBase: { host: '127.0.0.1', port, protocol: 'http' },
    requests,
    sessions,
    refunds,
    failNext(count) {
      failures = count;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // The SDK keeps connections alive.
        server.closeAllConnections();
      }),
  };
}
