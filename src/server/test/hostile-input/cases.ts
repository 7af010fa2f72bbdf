// The requests of hostile-input.test.ts: each route's valid request with one hostile value in place of one of its values.
import type { FastifyInstance } from 'fastify';
import { templates } from './routes.js';
import type { Seed } from './shop-seed.js';
import { HOSTILE, HOSTILE_BODIES, HOSTILE_URL_VALUES } from './values.js';

export interface Case {
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

export function generateCases(routes: { method: string; url: string }[], seed: Seed, app: FastifyInstance): Case[] {
  const table = templates(seed, app);
  const cases: Case[] = [];
  for (const { method, url } of routes) {
    // HEAD runs the GET handler: a sample of the values is enough to show it answers the same way.
    const route = `${method === 'HEAD' ? 'GET' : method} ${url}`;
    // Built files (@fastify/static registers one route per file of dist/web, when it was built) take no input.
    const staticFile = !table[route] && !/[:*]/.test(url) && !/^\/(api|dev|sandbox|files)\//.test(url) && (method === 'GET' || method === 'HEAD');
    const variants = table[route] ?? (staticFile ? [{}] : undefined);
    if (!variants) throw new Error(`no template for the public route ${method} ${url}: add one to test/hostile-input/routes.ts`);
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
