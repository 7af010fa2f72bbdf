// Tracking, the order status page, downloads, revision requests and early deletion, for customers.
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { plainText, revisionRequestSchema, trackingFormSchema } from '../../../domain/validation.js';
import { AppError, notFound } from '../../http/errors.js';
import { createRateLimiter } from '../../http/rate-limit.js';
import type { ZodTypeProvider } from '../../http/zod-provider.js';
import { isStatusToken, statusToken } from '../orders/order-tokens.js';
import type { CustomerOrderService } from './customer-order-service.js';
import { checkDownload } from './download-links.js';

/** Spec: 5 lookups per 15 minutes, per client address and per order. */
export const TRACKING_LIMIT = { attempts: 5, windowMs: 15 * 60 * 1000 } as const;
const STATUS_HEADER = 'x-status-token';

const orderParams = z.object({ id: z.uuid({ error: 'notFound' }) }).strict();
const signedQuery = z.object({ exp: plainText().max(20).optional(), sig: plainText().max(128).optional() }).strict();
const tokenQuery = z.object({ token: plainText().max(100).optional() }).strict();

export const customerOrderRoutes: FastifyPluginAsync<{ service: CustomerOrderService }> = async (app, { service }) => {
  const secret = app.config.appSecret;
  const limiter = createRateLimiter(app.db.db, app.now);
  const api = app.withTypeProvider<ZodTypeProvider>();

  /** The signed link from the mails, or the token a successful tracking lookup gave this browser. */
  function requireStatusAccess(request: { params: { id: string }; headers: FastifyRequest['headers']; query?: unknown }) {
    const header = request.headers[STATUS_HEADER];
    const fromQuery = (request.query as { token?: unknown } | undefined)?.token;
    const token = typeof header === 'string' ? header : typeof fromQuery === 'string' ? fromQuery : undefined;
    if (!isStatusToken(secret, request.params.id, token)) throw notFound('notFound');
  }

  api.post('/api/tracking', { schema: { body: trackingFormSchema } }, async (request, reply) => {
    const { orderId: reference, email } = request.body;
    const addressKey = `tracking:ip:${request.ip}`;
    const keys = [addressKey, `tracking:order:${reference}`];
    const hits = [];
    for (const key of keys) hits.push(await limiter.hit(key, TRACKING_LIMIT.attempts, TRACKING_LIMIT.windowMs));
    const refused = hits.find((h) => !h.allowed);
    if (refused) {
      const retryAfterSeconds = Math.max(1, Math.ceil((refused.resetAt.getTime() - app.now().getTime()) / 1000));
      reply.header('retry-after', String(retryAfterSeconds));
      throw new AppError(429, 'rateLimited', 'rateLimited', { retryAfterSeconds });
    }
    const order = await service.lookup(reference, email);
    // One answer for a wrong id, a wrong e-mail, or both: nothing tells which half was wrong.
    if (!order) throw notFound('notFound');
    // A found order clears its own counter; the address keeps its earlier misses (only this hit is taken back),
    // so tracking one's own order now and then does not buy unlimited guesses at others.
    await limiter.reset(`tracking:order:${order.id}`, `tracking:order:${order.orderNumber}`);
    await limiter.undo(addressKey);
    return { order: await service.view(order), statusToken: statusToken(secret, order.id) };
  });

  // An invoice PDF: with the status token (header, or ?token= in the links of the mails and the status page).
  api.get(
    '/api/orders/:id/invoices/:invoiceId',
    { schema: { params: z.object({ id: z.uuid({ error: 'notFound' }), invoiceId: z.uuid({ error: 'notFound' }) }).strict(), querystring: tokenQuery } },
    async (request, reply) => {
      requireStatusAccess(request);
      const file = await service.invoiceFile(request.params.id, request.params.invoiceId);
      return reply
        .type('application/pdf')
        .header('cache-control', 'private, no-store')
        .header('content-disposition', `attachment; filename="${file.fileName.replace(/[^A-Za-z0-9._-]/g, '_')}"`)
        .send(file.buffer);
    },
  );

  api.get('/api/orders/:id/status', { schema: { params: orderParams, querystring: tokenQuery } }, async (request) => {
    requireStatusAccess(request);
    return service.viewById(request.params.id);
  });

  api.post('/api/orders/:id/revision', { schema: { params: orderParams, body: revisionRequestSchema } }, async (request) => {
    requireStatusAccess(request);
    return service.requestRevision(request.params.id, request.body.message);
  });

  api.post(
    '/api/orders/:id/delete-photos',
    { schema: { params: orderParams, body: z.object({ confirm: z.literal(true, { error: 'confirmRequired' }) }).strict() } },
    async (request) => {
      requireStatusAccess(request);
      return service.deletePhotos(request.params.id);
    },
  );

  function requireSignature(orderId: string, target: Parameters<typeof checkDownload>[2], query: z.output<typeof signedQuery>) {
    const check = checkDownload(secret, orderId, target, query.exp, query.sig, app.now());
    if (check !== 'valid') throw new AppError(403, check);
  }

  api.get(
    '/api/orders/:id/results/:imageId/download',
    { schema: { params: z.object({ id: z.uuid(), imageId: z.uuid() }).strict(), querystring: signedQuery } },
    async (request, reply) => {
      requireSignature(request.params.id, { kind: 'image', imageId: request.params.imageId }, request.query);
      const url = await service.resultForDownload(request.params.id, request.params.imageId);
      return reply.header('cache-control', 'no-store').redirect(url, 302);
    },
  );

  api.get('/api/orders/:id/results.zip', { schema: { params: orderParams, querystring: signedQuery } }, async (request, reply) => {
    requireSignature(request.params.id, { kind: 'zip' }, request.query);
    const { stream, fileName } = await service.resultsZip(request.params.id);
    return reply
      .header('cache-control', 'no-store')
      .header('content-disposition', `attachment; filename="${fileName}"`)
      .type('application/zip')
      .send(stream);
  });
};
