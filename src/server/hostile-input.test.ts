// Every public route, fed hostile values in every body field, query parameter and path parameter: no answer
// is a 500, every error has our shape, refused input writes nothing, and no submitted value reaches the logs.
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PHOTO_CONSENT_VERSION, WAIVER_TEXT_VERSION } from '../domain/order-selection.js';
import { TEAM_PHOTO_CONSENT_VERSION } from '../domain/team.js';
import { isPlainText } from '../domain/validation.js';
import { queryRows, type DatabaseHandle } from './db/client.js';
import { generatedImages, revisionRequests, teamInvites, teamLinks } from './db/schema.js';
import { MAX_URL_LENGTH } from './http/error-handler.js';
import { LOGIN_LIMITS } from './modules/auth/auth-service.js';
import { statusToken } from './modules/orders/order-tokens.js';
import { buildTestApp, type TestApp } from './test/app.js';
import { testDatabases } from './test/databases.js';
import { TEXT_FILES_PREFIX, textFilesFor } from '../web/entry-server.js';
import { multipart, portraitJpeg } from '../testing/images.js';
import { BASIC_SELECTION, addResults, createDraft, payOrder, placeOrder, setOrder, variantWith, type SeededDraft, type SeededOrder } from './test/seed.js';
import { signInStaff } from './test/staff.js';

/** In every hostile text that could be personal data, so the log check can find it (case-insensitive). */
const MARKER = 'markermann';
const MARKER_EMAIL = 'hostile.markermann@example.de';

interface Hostile {
  label: string;
  /** The JSON text put in place of a body field. */
  json: string;
  /** The text put in place of a query or path value, when the value has one. */
  text?: string;
}

const json = (label: string, value: unknown): Hostile => ({ label, json: JSON.stringify(value), ...(typeof value === 'string' || typeof value === 'number' ? { text: String(value) } : {}) });
const raw = (label: string, text: string): Hostile => ({ label, json: text });

/** The table of hostile values, for body fields (as JSON) and for query and path values (as text). */
const HOSTILE: Hostile[] = [
  json('NUL in a name', 'Max\u0000Markermann'),
  json('NUL in an e-mail', 'markermann\u0000@example.de'),
  json('NUL alone', '\u0000'),
  json('C0 controls and an ANSI escape', 'Markermann\u0001\u0007\u001b[31m\u007f'),
  json('C1 controls', 'Markermann\u0085\u009b\u009f'),
  json('tab', 'Max\tMarkermann'),
  json('header injection', 'Markermann\r\nBcc: victim@example.de'),
  json('lone high surrogate', 'Markermann\uD800'),
  json('lone low surrogate', '\uDC00Markermann'),
  json('right-to-left override', '\u202EMarkermann\u202C'),
  json('zero-width and byte-order marks', 'Markermann\u200B\u200D\uFEFF'),
  json('10 000 characters', 'Markermann'.repeat(1000)),
  json('10 000 UTF-16 units of emoji', `Markermann${'😀'.repeat(5000)}`),
  json('emoji', 'Markermann 😀👩‍👩‍👧‍👦'),
  json('SQL', "Markermann' OR '1'='1' --"),
  json('SQL in an e-mail', "markermann@example.de'; DROP TABLE orders; --"),
  json('HTML', '<script>alert("Markermann")</script>'),
  json('HTML attribute', '"><img src=x onerror=alert(1)>Markermann'),
  json('percent signs', '%E0%A4%A%Markermann%00'),
  json('__proto__ as a value', '__proto__'),
  json('constructor as a value', 'constructor'),
  json('empty', ''),
  json('spaces', '   '),
  json('a plausible e-mail', MARKER_EMAIL),
  json('zero', 0),
  json('negative', -1),
  json('huge number', 1e308),
  json('fraction', 0.5),
  json('true', true),
  json('false', false),
  json('null', null),
  json('empty array', []),
  json('array of strings', ['Markermann', MARKER_EMAIL]),
  json('empty object', {}),
  json('object', { toString: 'Markermann', valueOf: 1 }),
  raw('__proto__ object', '{"__proto__":{"polluted":"Markermann"}}'),
  raw('constructor.prototype object', '{"constructor":{"prototype":{"polluted":"Markermann"}}}'),
  raw('arrays 10 000 deep', `${'['.repeat(10_000)}${']'.repeat(10_000)}`),
  raw('objects 5 000 deep', `${'{"a":'.repeat(5000)}"Markermann"${'}'.repeat(5000)}`),
];

/** Percent-encoding as a client would send it; a lone surrogate as the bytes of its UTF-16 half (WTF-8), which no decoder accepts. */
function percentEncode(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const next = text.charCodeAt(i + 1);
    if (code >= 0xd800 && code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      out += encodeURIComponent(text.slice(i, i + 2));
      i++;
    } else if (code >= 0xd800 && code <= 0xdfff) {
      out += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join('');
    } else {
      out += encodeURIComponent(text[i]!);
    }
  }
  return out;
}

/** Hostile query and path values, already in URL form: the table's texts encoded, plus invalid encodings sent as they are. */
const HOSTILE_URL_VALUES: { label: string; encoded: string }[] = [
  ...HOSTILE.filter((h) => h.text !== undefined).map((h) => ({ label: h.label, encoded: percentEncode(h.text!) })),
  { label: 'lone %', encoded: 'Markermann%' },
  { label: '%zz', encoded: '%zzMarkermann' },
  { label: 'cut UTF-8 sequence', encoded: 'Markermann%E0%A4%A' },
  { label: 'encoded surrogate', encoded: '%ED%A0%80Markermann' },
  { label: 'overlong slash', encoded: '%C0%AFMarkermann' },
  { label: 'invalid UTF-8 bytes', encoded: '%FF%FEMarkermann' },
  { label: 'encoded NUL', encoded: 'Markermann%00' },
  { label: 'path traversal', encoded: '..%2F..%2Fetc%2Fpasswd%2FMarkermann' },
];

/** Whole bodies sent to every route that takes one: broken JSON, wrong types, other content types, too much. */
const HOSTILE_BODIES: { label: string; contentType: string; body: string | Buffer }[] = [
  { label: 'broken JSON', contentType: 'application/json', body: '{"name": "Markermann' },
  { label: 'empty JSON body', contentType: 'application/json', body: '' },
  { label: 'JSON null', contentType: 'application/json', body: 'null' },
  { label: 'JSON array', contentType: 'application/json', body: '["Markermann"]' },
  { label: 'JSON string', contentType: 'application/json', body: '"Markermann"' },
  { label: 'JSON number', contentType: 'application/json', body: '12' },
  { label: 'raw NUL byte in JSON', contentType: 'application/json', body: '{"name":"Max\u0000Markermann"}' },
  { label: 'invalid UTF-8 in JSON', contentType: 'application/json', body: Buffer.concat([Buffer.from('{"name":"Markermann'), Buffer.from([0xff, 0xfe, 0xc0]), Buffer.from('"}')]) },
  { label: 'duplicate keys', contentType: 'application/json', body: `{"email":"${MARKER_EMAIL}","email":"Markermann\\u0000"}` },
  { label: '__proto__ at the top', contentType: 'application/json', body: '{"__proto__":{"polluted":"Markermann"}}' },
  { label: 'constructor.prototype at the top', contentType: 'application/json', body: '{"constructor":{"prototype":{"polluted":"Markermann"}}}' },
  { label: 'arrays 100 000 deep', contentType: 'application/json', body: `${'['.repeat(100_000)}${']'.repeat(100_000)}` },
  { label: 'over the body limit', contentType: 'application/json', body: `{"name":"${'Markermann'.repeat(110_000)}"}` },
  { label: 'text/plain', contentType: 'text/plain', body: 'Markermann' },
  { label: 'form-encoded', contentType: 'application/x-www-form-urlencoded', body: `name=Markermann&email=${encodeURIComponent(MARKER_EMAIL)}` },
  { label: 'multipart garbage', contentType: 'multipart/form-data; boundary=xyz', body: '--xyz\r\nMarkermann\r\n' },
  { label: 'JSON in UTF-16', contentType: 'application/json; charset=utf-16', body: Buffer.from('{"name":"Markermann"}', 'utf16le') },
  { label: 'made-up content type', contentType: 'application/x-markermann', body: 'Markermann' },
];

interface RouteTemplate {
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: Record<string, unknown>;
  headers?: Record<string, string>;
  /** Rate-limit keys (SQL LIKE patterns) cleared before each case, so a limit does not hide the schema's answer. */
  resetLimits?: string;
  /** Tables a refused request may still write, and why. */
  mayWrite?: string[];
  /** Puts the seeded data back before each case, so each value meets the state the route acts on. */
  before?: () => Promise<void>;
}

interface Seed {
  checkoutDraft: SeededDraft;
  draft: SeededDraft;
  deletable: SeededDraft & { statusToken: string };
  completed: SeededOrder & { statusToken: string; imageId: string; invoiceId: string; download: URLSearchParams; zip: URLSearchParams; file: { key: string; query: URLSearchParams } };
  withdrawable: SeededOrder & { sessionId: string };
  team: { orderId: string; statusToken: string; joinToken: string; linkId: string; inviteId: string; memberId: string; memberDraftToken: string; removableId: string; zip: URLSearchParams };
  staff: { email: string; password: string };
  mailId: string;
}

const STAFF = { email: 'staff-hostile@example.de', password: 'ein-langes-test-passwort' };
const TEAM_ORDER = {
  language: 'de',
  email: 'einkauf@example.de',
  package: 'pro',
  seats: 4,
  style: 'professional',
  location: 'studio',
  outfit: null,
  companyName: 'Muster GmbH',
  companyAddress: 'Hauptstraße 1\n10115 Berlin',
  vatId: 'DE136695976',
  businessConfirmed: true,
};

/** One valid request per public route; each case puts one hostile value in place of one of its values. */
function templates(seed: Seed, app: FastifyInstance): Record<string, RouteTemplate[]> {
  const { draft, checkoutDraft, deletable, completed, withdrawable, team } = seed;
  const teamHeaders = { 'x-status-token': team.statusToken };
  // The seeded join link works again before each case (a case may have made a new one, which revokes it).
  const restoreLink = async () => {
    await app.db.db.update(teamLinks).set({ revokedAt: new Date() }).where(eq(teamLinks.teamOrderId, team.orderId));
    await app.db.db.update(teamLinks).set({ revokedAt: null }).where(eq(teamLinks.id, team.linkId));
  };
  const draftHeaders = { 'x-draft-token': draft.draftToken };
  const statusHeaders = { 'x-status-token': completed.statusToken };
  return {
    'GET /api/health': [{}],
    'GET /api/catalog': [{}],
    'GET /api/site': [{}],
    'POST /api/orders': [{ body: { language: 'de', selection: BASIC_SELECTION, photoConsent: true, photoConsentVersion: PHOTO_CONSENT_VERSION } }],
    'GET /api/orders/:id/draft': [{ params: { id: draft.orderId }, headers: draftHeaders }],
    'PUT /api/orders/:id/selection': [{ params: { id: draft.orderId }, headers: draftHeaders, body: { language: 'de', selection: BASIC_SELECTION } }],
    'POST /api/orders/:id/uploads': [{ params: { id: draft.orderId }, headers: draftHeaders }],
    'DELETE /api/orders/:id/uploads/:uploadId': [{ params: { id: draft.orderId, uploadId: draft.uploadIds[0]! }, headers: draftHeaders }],
    'GET /api/orders/:id/uploads/:uploadId': [{ params: { id: draft.orderId, uploadId: draft.uploadIds[0]! }, headers: draftHeaders }],
    'POST /api/orders/:id/checkout': [
      {
        params: { id: checkoutDraft.orderId },
        headers: { 'x-draft-token': checkoutDraft.draftToken },
        body: {
          language: 'de',
          selection: BASIC_SELECTION,
          email: 'kundin@example.de',
          waiverAccepted: true,
          waiverTextVersion: WAIVER_TEXT_VERSION,
          billingName: 'Erika Muster',
          billingAddress: 'Weg 1\n10115 Berlin',
        },
      },
    ],
    'GET /api/orders/:id/confirmation': [{ params: { id: withdrawable.orderId }, query: { session_id: withdrawable.sessionId, token: 'kein-token' } }],
    'POST /api/orders/:id/confirmation/refresh': [{ params: { id: withdrawable.orderId }, query: { session_id: withdrawable.sessionId, token: 'kein-token' } }],
    'POST /api/payments/webhook': [{ headers: { 'stripe-signature': 't=1,v1=00' }, body: { id: 'evt_1', type: 'checkout.session.completed' } }],
    'GET /sandbox/checkout.css': [{}],
    'GET /sandbox/checkout/:id': [{ params: { id: withdrawable.sessionId }, query: { lang: 'en' } }],
    'POST /sandbox/checkout/:id/:outcome': [{ params: { id: withdrawable.sessionId, outcome: 'cancel' } }],
    'POST /api/tracking': [{ body: { orderId: completed.orderNumber, email: completed.email }, resetLimits: 'tracking:%' }],
    'GET /api/orders/:id/invoices/:invoiceId': [{ params: { id: completed.orderId, invoiceId: completed.invoiceId }, query: { token: completed.statusToken } }],
    'GET /api/orders/:id/status': [{ params: { id: completed.orderId }, query: { token: completed.statusToken } }],
    // Completed again before each case: a revision accepted by one case would make every later one a 409.
    'POST /api/orders/:id/revision': [
      {
        params: { id: completed.orderId },
        headers: statusHeaders,
        body: { imageIds: [completed.imageId], message: 'Bitte etwas heller machen.' },
        // And without its open redo (one at a time) or a used-up budget.
        before: async () => {
          await app.db.db.delete(revisionRequests).where(eq(revisionRequests.orderId, completed.orderId));
          await setOrder(app, completed.orderId, { status: 'completed', completedAt: new Date() });
        },
      },
    ],
    'POST /api/orders/:id/results/:imageId/favourite': [
      { params: { id: completed.orderId, imageId: completed.imageId }, headers: statusHeaders, body: { favourite: true } },
    ],
    'POST /api/orders/:id/delete-photos': [{ params: { id: deletable.orderId }, headers: { 'x-status-token': deletable.statusToken }, body: { confirm: true } }],
    'GET /api/orders/:id/results/:imageId/download': [
      { params: { id: completed.orderId, imageId: completed.imageId }, query: Object.fromEntries(completed.download) },
    ],
    'GET /api/orders/:id/results.zip': [{ params: { id: completed.orderId }, query: Object.fromEntries(completed.zip) }],
    'POST /api/teams': [{ body: TEAM_ORDER }],
    'GET /api/teams/:id': [{ params: { id: team.orderId }, headers: teamHeaders }],
    'POST /api/teams/:id/invites': [{ params: { id: team.orderId }, headers: teamHeaders, body: { emails: ['kollegin@example.de'] }, resetLimits: 'team-invites:%' }],
    'POST /api/teams/:id/invites/:inviteId/remind': [
      {
        params: { id: team.orderId, inviteId: team.inviteId },
        headers: teamHeaders,
        before: async () => void (await app.db.db.update(teamInvites).set({ remindedAt: null }).where(eq(teamInvites.id, team.inviteId))),
      },
    ],
    // Paid already: the valid request is refused (alreadyPaid); the hostile ones must be refused as cleanly.
    'POST /api/teams/:id/pay': [{ params: { id: team.orderId }, headers: teamHeaders, resetLimits: 'team-pay:%' }],
    'POST /api/teams/:id/link': [{ params: { id: team.orderId }, headers: teamHeaders, before: restoreLink }],
    'POST /api/teams/:id/members/:memberId/remove': [
      {
        params: { id: team.orderId, memberId: team.removableId },
        headers: teamHeaders,
        before: () => setOrder(app, team.removableId, { status: 'created', cancelledAt: null, photosDeleteAfter: null }),
      },
    ],
    'GET /api/teams/:id/results.zip': [{ params: { id: team.orderId }, query: Object.fromEntries(team.zip) }],
    'GET /api/team-join/:token': [{ params: { token: team.joinToken }, before: restoreLink }],
    'POST /api/team-join/:token': [
      { params: { token: team.joinToken }, body: { email: 'neu@example.de', language: 'de', photoConsent: true, photoConsentVersion: TEAM_PHOTO_CONSENT_VERSION }, before: restoreLink, resetLimits: 'drafts:%' },
    ],
    'POST /api/team-members/:id/submit': [{ params: { id: team.memberId }, headers: { 'x-draft-token': team.memberDraftToken }, body: { gender: 'female' } }],
    'POST /api/contact': [{ body: { name: 'Max Muster', email: 'max@example.de', message: 'Eine Frage zu meiner Bestellung.', language: 'de' } }],
    'POST /api/metrics': [
      { body: { kind: 'page_view', path: '/kontakt', language: 'de' } },
      { body: { kind: 'event', name: 'package_selected', detail: 'pro' } },
    ],
    'GET /robots.txt': [{}],
    'GET /manifest.webmanifest': [{}],
    // A page's texts (web/text-files.ts).
    'GET /i18n/:file': [{ params: { file: textFilesFor('en', ['team']).pages.team!.slice(TEXT_FILES_PREFIX.length) } }],
    'GET /sitemap.xml': [{}],
    // A wrong password for an existing account is counted on the account (staff_users.failed_logins).
    'POST /api/auth/login': [{ body: { email: seed.staff.email, password: 'ein-falsches-passwort' }, resetLimits: 'login:%', mayWrite: ['staff_users'] }],
    'GET /api/auth/session': [{}],
    'POST /api/auth/logout': [{}],
    'POST /api/withdrawals': [{ body: { name: 'Max Muster', reference: withdrawable.orderNumber, email: withdrawable.email, language: 'de' } }],
    // The same form sent without script (answered with the page).
    'POST /widerruf': [{ body: { name: 'Max Muster', reference: withdrawable.orderNumber, email: withdrawable.email, language: 'de' } }],
    'POST /api/generator/webhook': [{ body: { id: 'prediction-1' } }],
    // A Cog container's file upload (upload-address.ts); this shop runs no Cog container, so every value is refused.
    'PUT /api/generator/uploads/:token/:filename': [{ params: { token: 'upload-token', filename: 'out_0.png' }, headers: { 'x-prediction-id': 'a'.repeat(26) } }],
    'GET /files/*': [{ params: { '*': completed.file.key }, query: Object.fromEntries(completed.file.query) }],
    'GET /dev/outbox': [{}],
    'GET /dev/outbox/:id.txt': [{ params: { id: seed.mailId } }],
    'GET /dev/outbox/:id': [{ params: { id: seed.mailId } }],
    'GET /api/dev/outbox': [{ query: { to: completed.email } }],
    'GET /*': [
      { params: { '*': 'kontakt' }, query: { lang: 'en' } },
      { params: { '*': 'tracking' }, query: { order_id: completed.orderNumber, email: completed.email } },
      { params: { '*': `order-status/${completed.orderId}` }, query: { token: completed.statusToken } },
      { params: { '*': 'widerruf' }, query: { order: completed.orderNumber } },
    ],
  };
}

interface Case {
  route: string;
  label: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
  resetLimits?: string;
  mayWrite?: string[];
  before?: () => Promise<void>;
}

function buildUrl(pattern: string, params: Record<string, string>, query: Record<string, string>): string {
  const path = pattern.replace(/:(\w+)|\*/g, (match, name: string | undefined) => params[name ?? '*'] ?? match);
  const search = Object.entries(query).map(([key, value]) => `${key}=${value}`).join('&');
  return search ? `${path}?${search}` : path;
}

const encodeAll = (values: Record<string, string> = {}, wildcard = false) =>
  Object.fromEntries(Object.entries(values).map(([key, value]) => [key, wildcard && key === '*' ? value.split('/').map(encodeURIComponent).join('/') : encodeURIComponent(value)]));

/** Every leaf of a body (nested objects included; an array counts as one value), as a path of keys. */
function leaves(body: Record<string, unknown>, prefix: string[] = []): string[][] {
  return Object.entries(body).flatMap(([key, value]) =>
    value && typeof value === 'object' && !Array.isArray(value) ? leaves(value as Record<string, unknown>, [...prefix, key]) : [[...prefix, key]],
  );
}

const PLACEHOLDER = '"__hostile_value__"';

/** The body with one leaf replaced by raw JSON text (so `__proto__` stays a key and deep nesting stays text). */
function bodyWith(body: Record<string, unknown>, path: string[], jsonText: string): string {
  const copy = structuredClone(body);
  let node = copy as Record<string, unknown>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string, unknown>;
  node[path.at(-1)!] = PLACEHOLDER.slice(1, -1);
  return JSON.stringify(copy).replace(PLACEHOLDER, () => jsonText);
}

function generateCases(routes: { method: string; url: string }[], seed: Seed, app: FastifyInstance): Case[] {
  const table = templates(seed, app);
  const cases: Case[] = [];
  for (const { method, url } of routes) {
    // HEAD runs the GET handler: a sample of the values is enough to show it answers the same way.
    const route = `${method === 'HEAD' ? 'GET' : method} ${url}`;
    // Built files (@fastify/static registers one route per file of dist/web, when it was built) take no input.
    const staticFile = !table[route] && !/[:*]/.test(url) && !/^\/(api|dev|sandbox|files)\//.test(url) && (method === 'GET' || method === 'HEAD');
    const variants = table[route] ?? (staticFile ? [{}] : undefined);
    if (!variants) throw new Error(`no template for the public route ${method} ${url}: add one to hostile-input.test.ts`);
    const urlValues = staticFile ? HOSTILE_URL_VALUES.slice(0, method === 'HEAD' ? 1 : 3) : method === 'HEAD' ? HOSTILE_URL_VALUES.filter((_, i) => i % 5 === 0) : HOSTILE_URL_VALUES;
    const wildcard = url.includes('*');
    for (const template of variants) {
      const params = encodeAll(template.params, wildcard);
      const query = encodeAll(template.query);
      const headers = { ...template.headers, 'content-type': 'application/json' };
      const body = template.body ? JSON.stringify(template.body) : undefined;
      const base = { route: `${method} ${url}`, method, headers, resetLimits: template.resetLimits, mayWrite: template.mayWrite, before: template.before };
      for (const name of Object.keys(params)) {
        for (const value of urlValues) {
          cases.push({ ...base, label: `path ${name}: ${value.label}`, url: buildUrl(url, { ...params, [name]: value.encoded }, query), payload: body });
        }
      }
      // Declared query parameters, and one the route does not know.
      for (const name of [...Object.keys(query), 'unknown']) {
        for (const value of name === 'unknown' ? urlValues.slice(0, 6) : urlValues) {
          cases.push({ ...base, label: `query ${name}: ${value.label}`, url: buildUrl(url, params, { ...query, [name]: value.encoded }), payload: body });
        }
      }
      if (template.body) {
        for (const leaf of leaves(template.body)) {
          for (const value of HOSTILE) {
            cases.push({ ...base, label: `body ${leaf.join('.')}: ${value.label}`, url: buildUrl(url, params, query), payload: bodyWith(template.body, leaf, value.json) });
          }
        }
      }
      if (method === 'POST' || method === 'PUT' || method === 'DELETE') {
        for (const whole of HOSTILE_BODIES) {
          cases.push({ ...base, label: `body: ${whole.label}`, url: buildUrl(url, params, query), headers: { ...template.headers, 'content-type': whole.contentType }, payload: whole.body });
        }
      }
    }
  }
  return cases;
}

/**
 * Every table's row count and the sum of its rows' xmin (the transaction that wrote each row version): an insert,
 * update or delete changes it, without reading the rows' contents. Rate-limit counters aside (refused attempts count).
 */
async function fingerprinter(db: DatabaseHandle): Promise<() => Promise<Record<string, string>>> {
  const tables = await queryRows<{ name: string }>(
    db.db,
    sql`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' and table_name <> 'rate_limits' order by table_name`,
  );
  const columns = tables.map(({ name }) => sql`(select count(*)::text || ':' || coalesce(sum(xmin::text::bigint), 0)::text from ${sql.identifier(name)}) as ${sql.identifier(name)}`);
  const query = sql`select ${sql.join(columns, sql`, `)}`;
  return async () => (await queryRows<Record<string, string>>(db.db, query))[0]!;
}

const changedTables = (before: Record<string, string>, after: Record<string, string>) => Object.keys(after).filter((table) => before[table] !== after[table]);

/** Our error shape: `{ error: { code, requestId } }`, the id also in the header. */
function errorShapeProblem(response: LightMyRequestResponse): string | null {
  const type = String(response.headers['content-type'] ?? '');
  if (!type.startsWith('application/json')) return `content type ${type || 'none'}`;
  let body: { error?: { code?: unknown; requestId?: unknown } };
  try {
    body = response.json();
  } catch {
    return 'not JSON';
  }
  if (typeof body.error?.code !== 'string' || !/^[a-z][A-Za-z]+$/.test(body.error.code)) return `code ${JSON.stringify(body.error?.code)}`;
  if (typeof body.error.requestId !== 'string' || body.error.requestId !== response.headers['x-request-id']) return 'requestId missing or not the header';
  return null;
}

/**
 * Log lines that hold a submitted value: the marker anywhere, or a query value in the request line. The request
 * line's path itself is left out of the marker search: the path is logged (ids, page names), query values never.
 */
function linesWithHostileValues(lines: string[]): string[] {
  return lines.filter((line) => {
    const entry = JSON.parse(line) as { req?: { url?: string } };
    const url = entry.req?.url;
    if (url !== undefined) {
      const [path, query = ''] = url.split('?', 2) as [string, string?];
      if (query && query.split('&').some((pair) => !pair.endsWith('=…'))) return true;
      entry.req!.url = path.replace(/markermann/gi, '');
    }
    return JSON.stringify(entry).toLowerCase().includes(MARKER);
  }).map((line) => line.slice(0, 300));
}

let address = 0;
/** A client address of its own for each request, so the per-address limits do not hide the schema's answers. */
function nextAddress(): string {
  address++;
  return `10.${(address >> 16) & 255}.${(address >> 8) & 255}.${address & 255}`;
}

async function seedShop(app: FastifyInstance, secret: string): Promise<Seed> {
  const [checkoutDraft, draft, deletable] = [await createDraft(app, { photos: 3 }), await createDraft(app, { photos: 1 }), await createDraft(app, { photos: 1 })];
  const completedOrder = await placeOrder(app);
  await payOrder(app, completedOrder);
  const [imageId] = await addResults(app, completedOrder.orderId, ['active']);
  await setOrder(app, completedOrder.orderId, { status: 'completed', completedAt: new Date() });
  const token = statusToken(secret, completedOrder.orderId, app.now());
  const view = (await app.inject({ method: 'GET', url: `/api/orders/${completedOrder.orderId}/status`, headers: { 'x-status-token': token } })).json();
  const download = new URL(view.results[0].downloadUrl, 'http://shop.test');
  const zip = new URL(view.zipUrl, 'http://shop.test');
  const file = new URL(view.results[0].url, 'http://shop.test');
  const withdrawableOrder = await placeOrder(app);
  const [session] = await queryRows<{ id: string }>(app.db.db, sql`select provider_session_id as id from orders where id = ${withdrawableOrder.orderId}`);
  await app.auth.createStaff({ ...STAFF, name: 'Test' });
  // A paid team with its link, an invitation, a member who has not sent photos yet, one to remove, and a published picture.
  const placedTeam = (await app.inject({ method: 'POST', url: '/api/teams', payload: TEAM_ORDER })).json();
  await payOrder(app, { orderId: placedTeam.orderId, orderNumber: '', draftToken: '', email: TEAM_ORDER.email });
  const teamToken = statusToken(secret, placedTeam.orderId, app.now());
  const teamView = (await app.inject({ method: 'POST', url: `/api/teams/${placedTeam.orderId}/invites`, headers: { 'x-status-token': teamToken }, payload: { emails: ['eingeladen@example.de'] } })).json();
  const joinToken = new URL(teamView.joinUrl).pathname.split('/').pop()!;
  const joinAs = async (email: string) =>
    (await app.inject({ method: 'POST', url: `/api/team-join/${joinToken}`, payload: { email, language: 'de', photoConsent: true, photoConsentVersion: TEAM_PHOTO_CONSENT_VERSION } })).json();
  const [member, removable, delivered] = [await joinAs('mitglied@example.de'), await joinAs('entfernen@example.de'), await joinAs('fertig@example.de')];
  const [picture] = await addResults(app, delivered.orderId, ['active']);
  await app.db.db.update(generatedImages).set({ variant: variantWith({ format: 'portrait' }) }).where(eq(generatedImages.id, picture!));
  const withPicture = (await app.inject({ method: 'GET', url: `/api/teams/${placedTeam.orderId}`, headers: { 'x-status-token': teamToken } })).json();
  const mails = (await app.inject({ method: 'GET', url: '/api/dev/outbox' })).json().mails as { id: string }[];
  return {
    checkoutDraft,
    draft,
    deletable: { ...deletable, statusToken: statusToken(secret, deletable.orderId, app.now()) },
    completed: {
      ...completedOrder,
      statusToken: token,
      imageId: imageId!,
      invoiceId: view.invoices[0].id,
      download: download.searchParams,
      zip: zip.searchParams,
      file: { key: decodeURIComponent(file.pathname.replace(/^\/files\//, '')), query: file.searchParams },
    },
    withdrawable: { ...withdrawableOrder, sessionId: session!.id },
    team: {
      orderId: placedTeam.orderId,
      statusToken: teamToken,
      joinToken,
      linkId: joinToken.split('.')[0]!,
      inviteId: teamView.members.find((m: { progress: string }) => m.progress === 'invited').inviteId,
      memberId: member.orderId,
      memberDraftToken: member.draftToken,
      removableId: removable.orderId,
      zip: new URL(withPicture.zips[0].url, 'http://shop.test').searchParams,
    },
    staff: STAFF,
    mailId: mails[0]!.id,
  };
}

describe.each(testDatabases())('hostile input on $name', (testDb) => {
  let db: DatabaseHandle;
  let t: TestApp;
  let seed: Seed;
  const logs: string[] = [];

  beforeAll(async () => {
    db = await testDb.open();
    t = await buildTestApp(db, { TRUST_PROXY: 'true', LOG_LEVEL: 'trace' }, { logger: true, logStream: { write: (line) => void logs.push(line) } });
    seed = await seedShop(t.app, t.config.appSecret);
  }, 60_000);
  afterAll(async () => {
    await t.close();
    await db.close();
  });

  test('the seeded proofs open their routes, so the hostile values below reach validation and the database', async () => {
    const { draft, completed, withdrawable } = seed;
    const query = (params: URLSearchParams) => `?${params.toString()}`;
    const opened = [
      await t.app.inject({ method: 'GET', url: `/api/orders/${draft.orderId}/draft`, headers: { 'x-draft-token': draft.draftToken } }),
      await t.app.inject({ method: 'GET', url: `/api/orders/${completed.orderId}/status?token=${completed.statusToken}` }),
      await t.app.inject({ method: 'GET', url: `/api/orders/${withdrawable.orderId}/confirmation?session_id=${withdrawable.sessionId}` }),
      await t.app.inject({ method: 'GET', url: `/api/orders/${completed.orderId}/invoices/${completed.invoiceId}?token=${completed.statusToken}` }),
      await t.app.inject({ method: 'GET', url: `/api/orders/${completed.orderId}/results/${completed.imageId}/download${query(completed.download)}` }),
      await t.app.inject({ method: 'GET', url: `/api/orders/${completed.orderId}/results.zip${query(completed.zip)}` }),
      await t.app.inject({ method: 'GET', url: `/files/${completed.file.key}${query(completed.file.query)}` }),
      await t.app.inject({ method: 'GET', url: `/sandbox/checkout/${withdrawable.sessionId}` }),
      await t.app.inject({ method: 'GET', url: `/dev/outbox/${seed.mailId}` }),
      await t.app.inject({ method: 'POST', url: '/api/tracking', payload: { orderId: completed.orderNumber, email: completed.email }, headers: { 'x-forwarded-for': nextAddress() } }),
    ];
    expect(opened.map((response) => response.statusCode)).toEqual([200, 200, 200, 200, 302, 200, 200, 200, 200, 200]);
  });

  test('every public route answers every hostile value below 500, errors in our shape, refused input writes nothing', async () => {
    const publicRoutes = t.app.routeTable.filter((route) => !route.url.startsWith('/api/admin'));
    const cases = generateCases(publicRoutes, seed, t.app);
    const logStart = logs.length;
    const problems: string[] = [];
    const statuses = new Map<number, number>();
    // One request at a time: a refused request is judged by what the database holds right before and after it.
    const fingerprint = await fingerprinter(db);
    let baseline = await fingerprint();
    for (const item of cases) {
      if (item.resetLimits) await t.app.db.db.execute(sql`delete from rate_limits where key like ${item.resetLimits}`);
      if (item.before) {
        await item.before();
        baseline = await fingerprint();
      }
      const response = await t.app.inject({
        method: item.method as 'GET',
        url: item.url,
        headers: { ...item.headers, 'x-forwarded-for': nextAddress() },
        ...(item.payload !== undefined ? { payload: item.payload } : {}),
      });
      statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
      const where = `${item.route} [${item.label}] -> ${response.statusCode}`;
      if (response.statusCode >= 500) problems.push(`${where}: ${response.body.slice(0, 200)}`);
      const page = item.route.endsWith(' /*') && String(response.headers['content-type']).startsWith('text/html');
      if (response.statusCode >= 400 && item.method !== 'HEAD' && !page) {
        const shape = errorShapeProblem(response);
        if (shape) problems.push(`${where}: not our error shape (${shape}): ${response.body.slice(0, 120)}`);
      }
      const after = await fingerprint();
      if (response.statusCode >= 400) {
        const changed = changedTables(baseline, after).filter((table) => !item.mayWrite?.includes(table));
        if (changed.length) problems.push(`${where}: refused, but wrote to ${changed.join(', ')}`);
      }
      baseline = after;
    }
    if (process.env.HOSTILE_REPORT) console.info(`${testDb.name}: ${cases.length} requests`, Object.fromEntries([...statuses].sort(([a], [b]) => a - b)));
    expect(problems).toEqual([]);
    expect(cases.length).toBeGreaterThan(2000);
    // The logger was on (trace level) for all of it: every request left lines to search.
    expect(logs.length - logStart).toBeGreaterThan(cases.length);
    // Prototype keys in bodies were refused or ignored, never merged into Object.prototype.
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(linesWithHostileValues(logs.slice(logStart))).toEqual([]);
  }, 180_000);

  test('malformed multipart bodies are a 400 in our shape on the customer and the staff upload route, a photo body under a hostile name is kept without it, and a body that is no photo leaves nothing behind', async () => {
    const staff = await signInStaff(t.app, '10.250.0.1');
    const jpeg = await portraitJpeg();
    const good = multipart({ buffer: jpeg, fileName: 'selfie.jpg', contentType: 'image/jpeg' });
    const boundary = good.contentType.split('boundary=')[1]!;
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="selfie.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`;
    const withBoundary = `multipart/form-data; boundary=${boundary}`;
    const bodies: { label: string; contentType: string; body: string | Buffer; status: number; code: string }[] = [
      { label: 'cut off inside the file', contentType: withBoundary, body: good.body.subarray(0, head.length + 5000), status: 400, code: 'malformedUpload' },
      { label: 'closing boundary missing', contentType: withBoundary, body: Buffer.concat([Buffer.from(head), jpeg]), status: 400, code: 'malformedUpload' },
      { label: 'cut off inside the part headers', contentType: withBoundary, body: head.slice(0, 60), status: 400, code: 'malformedUpload' },
      { label: 'another boundary than declared', contentType: 'multipart/form-data; boundary=not-the-one-used', body: good.body, status: 400, code: 'malformedUpload' },
      { label: 'no boundary', contentType: 'multipart/form-data', body: good.body, status: 400, code: 'malformedUpload' },
      { label: 'empty boundary', contentType: 'multipart/form-data; boundary=', body: good.body, status: 400, code: 'noFile' },
      { label: 'boundary of 300 characters', contentType: `multipart/form-data; boundary=${'b'.repeat(300)}`, body: good.body, status: 400, code: 'malformedUpload' },
      { label: 'garbage', contentType: withBoundary, body: Buffer.from('\u0000Markermann\u0001\u00ff'.repeat(500), 'latin1'), status: 400, code: 'malformedUpload' },
      { label: 'empty body', contentType: withBoundary, body: '', status: 400, code: 'noFile' },
      { label: 'only the closing boundary', contentType: withBoundary, body: `--${boundary}--\r\n`, status: 400, code: 'noFile' },
      { label: 'a part without headers', contentType: withBoundary, body: `--${boundary}\r\nMarkermann\r\n\r\nx\r\n--${boundary}--\r\n`, status: 400, code: 'noFile' },
      { label: 'a text field instead of a file', contentType: withBoundary, body: `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nMarkermann\r\n--${boundary}--\r\n`, status: 400, code: 'malformedUpload' },
      { label: 'a text field before the file', contentType: withBoundary, body: Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nMarkermann\r\n`), good.body]), status: 400, code: 'malformedUpload' },
    ];
    const targets = [
      { route: 'POST /api/orders/:id/uploads', url: `/api/orders/${seed.draft.orderId}/uploads`, headers: { 'x-draft-token': seed.draft.draftToken } },
      { route: 'POST /api/admin/orders/:id/results', url: `/api/admin/orders/${seed.completed.orderId}/results`, headers: { cookie: staff.cookie, 'x-csrf-token': staff.csrf } },
    ];
    const fingerprint = await fingerprinter(db);
    const logStart = logs.length;
    const answers: string[] = [];
    for (const target of targets) {
      for (const item of bodies) {
        const before = await fingerprint();
        const response = await t.app.inject({ method: 'POST', url: target.url, headers: { ...target.headers, 'content-type': item.contentType }, payload: item.body });
        const after = await fingerprint();
        answers.push(`${target.route} [${item.label}] -> ${response.statusCode} ${response.json().error?.code} ${errorShapeProblem(response) ?? 'shape ok'} ${changedTables(before, after).join(',') || 'nothing written'}`);
      }
    }
    expect(answers).toEqual(targets.flatMap((target) => bodies.map((item) => `${target.route} [${item.label}] -> ${item.status} ${item.code} shape ok nothing written`)));
    // A well-formed photo under a hostile name is taken; the name is kept without what could disguise it.
    for (const fileName of ['Max\u0000Markermann.jpg', `${'Markermann'.repeat(100)}.jpg`, '\u202Egpj.Markermann\u0007.exe']) {
      const body = multipart({ buffer: jpeg, fileName, contentType: 'image/jpeg' });
      const response = await t.app.inject({ method: 'POST', url: targets[0]!.url, headers: { ...targets[0]!.headers, 'content-type': body.contentType }, payload: body.body });
      expect(response.statusCode, fileName).toBe(201);
      expect(isPlainText(response.json().fileName), fileName).toBe(true);
      expect(response.json().fileName).not.toMatch(/[\u202A-\u202E]/);
    }
    // The wizard's way: the photo as the body, its name percent-encoded in X-File-Name (or not encoded at all).
    const asBody = (fileName: string, payload: string | Buffer = jpeg) =>
      t.app.inject({ method: 'POST', url: targets[0]!.url, headers: { ...targets[0]!.headers, 'content-type': 'image/jpeg', 'x-file-name': fileName }, payload });
    const sentNames = ['Max%00Markermann.jpg', `${'Markermann'.repeat(100)}.jpg`, '%E2%80%AEgpj.Markermann%07.exe', '..%2F..%2Fetc%2Fpasswd%2FMarkermann', 'Markermann%zz', 'Markermann%ED%A0%80'];
    for (const fileName of sentNames) {
      const response = await asBody(fileName);
      expect(response.statusCode, fileName).toBe(201);
      expect(isPlainText(response.json().fileName), fileName).toBe(true);
      expect(response.json().fileName, fileName).not.toMatch(/[\u202A-\u202E/\\]/);
      // Photos kept for the names above make room again for the next (an order takes ten).
      await t.app.inject({ method: 'DELETE', url: `${targets[0]!.url}/${response.json().id}`, headers: targets[0]!.headers });
    }
    const fingerprintBefore = await fingerprint();
    const refusedBodies = await Promise.all([asBody('leer.jpg', ''), asBody('Markermann.jpg', Buffer.from('\u0000Markermann\u0001'.repeat(500), 'latin1')), asBody('cut.jpg', jpeg.subarray(0, 300))]);
    expect(refusedBodies.map((response) => `${response.statusCode} ${response.json().error?.code} ${errorShapeProblem(response) ?? 'shape ok'}`)).toEqual([
      '415 notAnImage shape ok',
      '415 notAnImage shape ok',
      '415 corruptImage shape ok',
    ]);
    expect(changedTables(fingerprintBefore, await fingerprint())).toEqual([]);
    expect(linesWithHostileValues(logs.slice(logStart))).toEqual([]);
  });

  test('a refused sign-in counts against the address like a wrong password: a NUL buys no extra tries', async () => {
    const from = '10.240.0.1';
    const login = (payload: object, address = from) => t.app.inject({ method: 'POST', url: '/api/auth/login', payload, headers: { 'x-forwarded-for': address } });
    const logStart = logs.length;
    for (let attempt = 0; attempt < LOGIN_LIMITS.perAddress.attempts; attempt++) {
      const refused = await login({ email: `markermann\u0000${attempt}@example.de`, password: 'Markermann-Passwort' });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error).toMatchObject({ code: 'validationFailed', fields: { email: 'invalidText' } });
    }
    const locked = await login({ email: 'markermann\u0000@example.de', password: 'Markermann-Passwort' });
    expect(locked.statusCode).toBe(429);
    expect(locked.json().error.code).toBe('tooManyAttempts');
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    // The lockout holds for the real password too, from that address; another address signs in.
    expect((await login(STAFF)).statusCode).toBe(429);
    expect((await login(STAFF, '10.240.0.2')).statusCode).toBe(200);
    expect(linesWithHostileValues(logs.slice(logStart))).toEqual([]);
  });

  test('over real HTTP: what Node and the router refuse answers in our shape too', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const logStart = logs.length;
    const cases: { label: string; request: string; status: number; code: string }[] = [
      { label: 'headers over 16 KiB', request: `GET /api/health HTTP/1.1\r\nHost: shop.test\r\nX-Markermann: ${'Markermann'.repeat(2000)}\r\n\r\n`, status: 431, code: 'headersTooLarge' },
      { label: 'an address over 16 KiB', request: `GET /api/catalog?q=${'Markermann'.repeat(2000)} HTTP/1.1\r\nHost: shop.test\r\n\r\n`, status: 431, code: 'headersTooLarge' },
      { label: `an address over ${MAX_URL_LENGTH} characters`, request: `GET /kontakt?q=${'Markermann'.repeat(900)} HTTP/1.1\r\nHost: shop.test\r\nConnection: close\r\n\r\n`, status: 414, code: 'uriTooLong' },
      // Over the router's maxParamLength the parametric route does not match; the catch-all answers.
      { label: 'a path parameter over maxParamLength', request: `GET /api/orders/${'a'.repeat(150)}/status HTTP/1.1\r\nHost: shop.test\r\nConnection: close\r\n\r\n`, status: 404, code: 'notFound' },
      { label: 'invalid percent-encoding', request: 'GET /api/orders/% HTTP/1.1\r\nHost: shop.test\r\nConnection: close\r\n\r\n', status: 400, code: 'badRequest' },
      { label: 'an unknown method', request: 'MARKERMANN /api/contact HTTP/1.1\r\nHost: shop.test\r\n\r\n', status: 400, code: 'badRequest' },
      { label: 'a method without a route', request: 'PROPFIND /api/contact HTTP/1.1\r\nHost: shop.test\r\nConnection: close\r\n\r\n', status: 404, code: 'notFound' },
      { label: 'a TLS handshake on the HTTP port', request: '\u0016\u0003\u0001\u0002\u0000\u0001\u0000\u0001\u00fc\u0003\u0003Markermann\r\n\r\n', status: 400, code: 'badRequest' },
      { label: 'a NUL in the request line', request: 'GET /api/\u0000Markermann HTTP/1.1\r\nHost: shop.test\r\n\r\n', status: 400, code: 'badRequest' },
      { label: 'a NUL in a header', request: 'GET /api/health HTTP/1.1\r\nHost: shop.test\r\nX-Name: Max\u0000Markermann\r\n\r\n', status: 400, code: 'badRequest' },
      { label: 'a header without a colon', request: 'GET /api/health HTTP/1.1\r\nHost: shop.test\r\nMarkermann\r\n\r\n', status: 400, code: 'badRequest' },
      { label: 'Content-Length and Transfer-Encoding together', request: 'POST /api/contact HTTP/1.1\r\nHost: shop.test\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n', status: 400, code: 'badRequest' },
      { label: 'a Content-Length that is not a number', request: 'POST /api/contact HTTP/1.1\r\nHost: shop.test\r\nContent-Length: Markermann\r\n\r\n', status: 400, code: 'badRequest' },
      { label: 'broken JSON', request: 'POST /api/contact HTTP/1.1\r\nHost: shop.test\r\nContent-Type: application/json\r\nContent-Length: 12\r\nConnection: close\r\n\r\n{"Markermann', status: 400, code: 'badRequest' },
    ];
    const answers: string[] = [];
    for (const item of cases) {
      const response = await rawHttp(port, Buffer.from(item.request, 'latin1'));
      let code = 'no JSON body';
      try {
        const body = JSON.parse(response.body) as { error: { code: string; requestId: string } };
        code = body.error.requestId === response.headers['x-request-id'] && response.headers['x-content-type-options'] === 'nosniff' ? body.error.code : 'id or header missing';
      } catch {
        // stays 'no JSON body'
      }
      answers.push(`${item.label}: ${response.status} ${code}`);
    }
    expect(answers).toEqual(cases.map((item) => `${item.label}: ${item.status} ${item.code}`));
    expect(linesWithHostileValues(logs.slice(logStart))).toEqual([]);
  });
});

/** Sends raw bytes to the server and reads its answer (status, headers, body) until it closes the connection. */
function rawHttp(port: number, request: Buffer): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => socket.destroy(), 5000);
    socket.on('data', (chunk) => chunks.push(chunk));
    // The server may close while we are still writing a request it has already refused.
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const [statusLine = '', ...headerLines] = head.split('\r\n');
      const headers = Object.fromEntries(headerLines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') });
    });
    socket.write(request);
  });
}
