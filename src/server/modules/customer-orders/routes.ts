// Tracking, the order status page, downloads, revision requests and early deletion, for customers.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { plainText, revisionRequestSchema, trackingFormSchema } from '../../../domain/validation.js';
import { AppError, notFound } from '../../http/errors.js';
import { createRateLimiter } from '../../http/rate-limit.js';
import type { ZodTypeProvider } from '../../http/zod-provider.js';
import { checkInvoiceToken, checkStatusToken, statusToken, type LinkVerdict } from '../orders/order-tokens.js';
import type { CustomerOrderService } from './customer-order-service.js';
import { ZIP_FORMATS, checkDownload } from './download-links.js';

/**
 * Spec: 5 failed lookups per 15 minutes per client address (then 429). Per order the same number of failed
 * lookups, from anywhere, puts it under guard instead of locking it: every further lookup gets one neutral
 * answer, and the right e-mail gets the status link by mail (once per window). The guesser learns nothing;
 * the customer is never locked out.
 */
export const TRACKING_LIMIT = { attempts: 5, windowMs: 15 * 60 * 1000 } as const;
const STATUS_HEADER = 'x-status-token';

const orderParams = z.object({ id: z.uuid({ error: 'notFound' }) }).strict();
const signedQuery = z.object({ exp: plainText().max(20).optional(), sig: plainText().max(128).optional() }).strict();
const tokenQuery = z.object({ token: plainText().max(100).optional() }).strict();

export const customerOrderRoutes: FastifyPluginAsync<{ service: CustomerOrderService }> = async (app, { service }) => {
  const secret = app.config.appSecret;
  const limiter = createRateLimiter(app.db.db, app.now);
  const api = app.withTypeProvider<ZodTypeProvider>();

  function tokenOf(request: { headers: FastifyRequest['headers']; query?: unknown }): string | undefined {
    const header = request.headers[STATUS_HEADER];
    const fromQuery = (request.query as { token?: unknown } | undefined)?.token;
    return typeof header === 'string' ? header : typeof fromQuery === 'string' ? fromQuery : undefined;
  }

  /** A genuine link that ran out or was revoked says so (the page sends the visitor to tracking); anything else is not found. */
  function grant(verdict: LinkVerdict) {
    if (verdict === 'expired') throw new AppError(403, 'linkExpired');
    if (verdict !== 'valid') throw notFound('notFound');
  }

  /** The signed link from the mails, or the token a successful tracking lookup gave this browser. */
  async function requireStatusAccess(request: { params: { id: string }; headers: FastifyRequest['headers']; query?: unknown }) {
    const order = await service.find(request.params.id);
    grant(order ? checkStatusToken(secret, order, tokenOf(request), app.now()) : 'invalid');
  }

  api.post('/api/tracking', { schema: { body: trackingFormSchema } }, async (request, reply) => {
    const { orderId: reference, email } = request.body;
    const { attempts, windowMs } = TRACKING_LIMIT;
    const addressKey = `tracking:ip:${request.ip}`;
    // Every lookup of an order counts against it before its answer is decided, in one atomic step, under the
    // order's id whichever reference was typed: concurrent guesses cannot slip past the count, and number and id
    // share it. The order is read once; both halves must match. The address's count, the order's and the read
    // are one statement; past the address's limit only the address counted.
    const attempt = await service.trackingAttempt({ reference, addressKey, orderKeyPrefix: 'tracking:order:', limit: attempts, windowMs });
    const { address } = attempt;
    if (!address.allowed || !attempt.order) {
      const retryAfterSeconds = Math.max(1, Math.ceil((address.resetAt.getTime() - app.now().getTime()) / 1000));
      reply.header('retry-after', String(retryAfterSeconds));
      throw new AppError(429, 'rateLimited', 'rateLimited', { retryAfterSeconds });
    }
    const { found, key: orderKey, count } = attempt.order;
    const guarded = count.hits > attempts;
    const order = found && found.email === email && found.orderedAt ? found : null;
    if (guarded) {
      // The same answer, at the same speed, whether the pair matched or not: the address keeps this attempt
      // either way, and the mail goes out after the answer. Only the order's own address can get in, by mail.
      if (order) {
        const mailKey = `tracking:mail:${order.id}`;
        if ((await limiter.hit(mailKey, 1, windowMs)).allowed) {
          setImmediate(() => {
            service
              .mailStatusLink(order)
              .then((sent) => (sent ? undefined : limiter.undo(mailKey)))
              .catch((error: unknown) => request.log.error({ err: error, orderId: order.id }, 'tracking link mail failed'));
          });
        }
      }
      return reply.status(202).send({ outcome: 'linkSent' as const });
    }
    // One answer for a wrong id, a wrong e-mail, or both: nothing tells which half was wrong.
    if (!order) throw notFound('notFound');
    // A found order clears its own counter; the address gets only this attempt back (its earlier misses
    // stay), so tracking one's own order now and then does not buy unlimited guesses at others. Settled in the
    // statement that reads the view.
    const view = await service.view(order, { settle: { reset: orderKey, undo: addressKey } });
    return { order: view, statusToken: statusToken(secret, order.id, app.now()) };
  });

  // An invoice PDF: with the status token (header, or ?token= in the links of the mails and the status page).
  api.get(
    '/api/orders/:id/invoices/:invoiceId',
    { schema: { params: z.object({ id: z.uuid({ error: 'notFound' }), invoiceId: z.uuid({ error: 'notFound' }) }).strict(), querystring: tokenQuery } },
    async (request, reply) => {
      // The invoice's own link (mails, the status page), or the order's status link.
      const invoiceVerdict = checkInvoiceToken(secret, request.params.id, request.params.invoiceId, tokenOf(request), app.now());
      try {
        if (invoiceVerdict !== 'valid') await requireStatusAccess(request).catch((error: unknown) => {
          if (invoiceVerdict === 'expired') grant('expired');
          throw error;
        });
      } catch (error) {
        // The link was opened from a mail in a browser: the tracking page, with a note when it ran out, rather
        // than an error in our API's shape.
        if (!(error instanceof AppError) || !/text\/html/.test(request.headers.accept ?? '')) throw error;
        const expired = error.code === 'linkExpired';
        return reply.redirect(expired ? `/tracking?order_id=${encodeURIComponent(request.params.id)}&link=expired` : '/tracking', 303);
      }
      const file = await service.invoiceFile(request.params.id, request.params.invoiceId);
      return reply
        .type('application/pdf')
        .header('cache-control', 'private, no-store')
        .header('content-disposition', `attachment; filename="${file.fileName.replace(/[^A-Za-z0-9._-]/g, '_')}"`)
        .send(file.buffer);
    },
  );

  api.get('/api/orders/:id/status', { schema: { params: orderParams, querystring: tokenQuery } }, async (request) => {
    await requireStatusAccess(request);
    return service.viewById(request.params.id);
  });

  api.post(
    '/api/orders/:id/results/:imageId/favourite',
    { schema: { params: z.object({ id: z.uuid({ error: 'notFound' }), imageId: z.uuid({ error: 'notFound' }) }).strict(), body: z.object({ favourite: z.boolean() }).strict() } },
    async (request) => {
      await requireStatusAccess(request);
      return service.setFavourite(request.params.id, request.params.imageId, request.body.favourite);
    },
  );

  api.post('/api/orders/:id/revision', { schema: { params: orderParams, body: revisionRequestSchema } }, async (request) => {
    await requireStatusAccess(request);
    return service.requestRevision(request.params.id, request.body);
  });

  api.post(
    '/api/orders/:id/delete-photos',
    { schema: { params: orderParams, body: z.object({ confirm: z.literal(true, { error: 'confirmRequired' }) }).strict() } },
    async (request) => {
      await requireStatusAccess(request);
      const order = await service.deletePhotos(request.params.id);
      // Every link made until the deletion is revoked now; the page the customer is on gets a new one, made after it.
      const deletedAt = order.photosDeletedAt ? new Date(order.photosDeletedAt).getTime() : 0;
      return { order, statusToken: statusToken(secret, request.params.id, new Date(Math.max(app.now().getTime(), deletedAt + 1))) };
    },
  );

  function requireSignature(orderId: string, target: Parameters<typeof checkDownload>[2], query: z.output<typeof signedQuery>) {
    const check = checkDownload(secret, orderId, target, query.exp, query.sig, app.now());
    if (check !== 'valid') throw new AppError(403, check);
  }

  /**
   * A download link opened by a person (a page navigation, not the page's own script) that cannot be served
   * goes back to the order's status page, which says why in the customer's language (the spec's urlError or
   * downloadError) and carries fresh links; a script gets the error as JSON.
   */
  async function orStatusPage<T>(request: FastifyRequest, reply: FastifyReply, orderId: string, work: () => Promise<T>): Promise<T | FastifyReply> {
    try {
      return await work();
    } catch (error) {
      if (!String(request.headers.accept ?? '').includes('text/html')) throw error;
      const code = error instanceof AppError ? error.code : '';
      const problem = code === 'linkExpired' || code === 'linkInvalid' ? 'link' : 'failed';
      return reply.header('cache-control', 'no-store').redirect(`/order-status/${orderId}?download=${problem}`, 303);
    }
  }

  api.get(
    '/api/orders/:id/results/:imageId/download',
    { schema: { params: z.object({ id: z.uuid(), imageId: z.uuid() }).strict(), querystring: signedQuery } },
    async (request, reply) =>
      orStatusPage(request, reply, request.params.id, async () => {
        requireSignature(request.params.id, { kind: 'image', imageId: request.params.imageId }, request.query);
        const url = await service.resultForDownload(request.params.id, request.params.imageId);
        return reply.header('cache-control', 'no-store').redirect(url, 302);
      }),
  );

  const zipQuery = signedQuery.extend({ format: z.enum(ZIP_FORMATS).optional() }).strict();
  api.get('/api/orders/:id/results.zip', { schema: { params: orderParams, querystring: zipQuery } }, async (request, reply) =>
    orStatusPage(request, reply, request.params.id, async () => {
      const { format, ...signature } = request.query;
      requireSignature(request.params.id, { kind: 'zip', ...(format ? { format } : {}) }, signature);
      const { stream, fileName } = await service.resultsZip(request.params.id, format);
      return reply
        .header('cache-control', 'no-store')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .type('application/zip')
        .send(stream);
    }),
  );
};
