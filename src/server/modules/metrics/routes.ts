// First-party counting: the browser reports page views and the spec's events; the server keeps daily
// counters only (no cookie, no address, no browser data is stored), so no consent is needed for it.
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { LANGUAGES } from '../../../domain/catalog.js';
import { METRIC_EVENTS, SERVER_ONLY_EVENTS, metricDetail } from '../../../domain/metrics.js';
import { plainText } from '../../../domain/validation.js';
import { PAGES, resolvePath } from '../../../web/entry-server.js';
import { AppError } from '../../http/errors.js';
import { createRateLimiter } from '../../http/rate-limit.js';
import type { ZodTypeProvider } from '../../http/zod-provider.js';
import { createMetricsRepository, type MetricEntry } from './metrics-repository.js';

/** Enough for a busy visitor, not for filling the counters from one address. */
export const METRICS_LIMIT = { hits: 120, windowMs: 10 * 60 * 1000 } as const;

const bodySchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('page_view'), path: plainText().max(300), language: z.enum(LANGUAGES) }).strict(),
  z.object({ kind: z.literal('event'), name: z.enum(METRIC_EVENTS), detail: z.union([plainText().max(40), z.number()]).optional() }).strict(),
]);

/** A page view counts under the page's canonical path: never an order id or a query string. */
export function pageViewName(path: string): string | null {
  const resolution = resolvePath(path.split(/[?#]/)[0] ?? '/');
  if (resolution.kind !== 'page' || resolution.page === 'admin') return null;
  return PAGES[resolution.page];
}

export const metricsRoutes: FastifyPluginAsync = async (app) => {
  const limiter = createRateLimiter(app.db.db, app.now);
  const metrics = createMetricsRepository(app.db.db);
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post('/api/metrics', { schema: { body: bodySchema } }, async (request, reply) => {
    const body = request.body;
    let entry: MetricEntry;
    if (body.kind === 'page_view') {
      const name = pageViewName(body.path);
      if (!name) throw new AppError(400, 'validationFailed');
      entry = { kind: 'page_view', name, detail: body.language };
    } else {
      const detail = metricDetail(body.name, body.detail);
      if (detail === null || SERVER_ONLY_EVENTS.includes(body.name)) throw new AppError(400, 'validationFailed');
      entry = { kind: 'event', name: body.name, detail };
    }
    const hit = await limiter.hit(`metrics:ip:${request.ip}`, METRICS_LIMIT.hits, METRICS_LIMIT.windowMs);
    // Over the limit the hit is simply not counted: nothing for the visitor's browser to report.
    if (hit.allowed) await metrics.count(entry, app.now());
    return reply.status(204).send();
  });

  // For staff (behind the /api/admin guard): the totals of the last days.
  api.get('/api/admin/metrics', { schema: { querystring: z.object({ days: z.coerce.number().int().min(1).max(90).default(7) }).strict() } }, async (request) =>
    metrics.summary(request.query.days, app.now()),
  );
};
