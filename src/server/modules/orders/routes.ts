// The order wizard's API: drafts, photo uploads, selections, checkout, and the success page's view.
import multipart from '@fastify/multipart';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { UPLOAD_LIMITS } from '../../../domain/catalog.js';
import { checkoutSchema, draftCreateSchema, selectionSchema } from '../../../domain/order-selection.js';
import { LANGUAGES } from '../../../domain/catalog.js';
import { plainText } from '../../../domain/validation.js';
import { rethrowMultipartError } from '../../http/error-handler.js';
import { AppError, notFound } from '../../http/errors.js';
import { createRateLimiter, type RateLimitResult } from '../../http/rate-limit.js';
import type { ZodTypeProvider } from '../../http/zod-provider.js';
import { checkStatusToken, draftToken, isDraftToken } from './order-tokens.js';
import type { OrderService } from './order-service.js';
import { acceptPhotoBodies, photoBody } from './photo-body.js';

const orderParams = z.object({ id: z.uuid({ error: 'orderNotFound' }) }).strict();
const uploadParams = z.object({ id: z.uuid(), uploadId: z.uuid() }).strict();
const DRAFT_HEADER = 'x-draft-token';
const HOUR_MS = 3600 * 1000;
/** A week after the provider's checkout session expired: time for a slow bank, not lasting access. */
export const CHECKOUT_PROOF_GRACE_MS = 7 * 24 * HOUR_MS;

export const orderRoutes: FastifyPluginAsync<{ service: OrderService }> = async (app, { service }) => {
  await app.register(multipart, {
    limits: { fileSize: UPLOAD_LIMITS.maxFileBytes, files: 1, fields: 0, parts: 1, headerPairs: 50 },
    throwFileSizeLimit: false,
  });
  acceptPhotoBodies(app);
  const secret = app.config.appSecret;
  const api = app.withTypeProvider<ZodTypeProvider>();

  /** Only the browser that made the draft may change it; a wrong token looks like a missing order. */
  function requireDraft(request: { params: { id: string }; headers: FastifyRequest['headers'] }) {
    const token = request.headers[DRAFT_HEADER];
    if (!isDraftToken(secret, request.params.id, typeof token === 'string' ? token : undefined)) throw notFound('orderNotFound');
  }

  // Per network address and hour (settings LIMIT_DRAFTS_PER_HOUR, LIMIT_UPLOAD_MB_PER_HOUR): far above what
  // a customer needs, and what a script can fill the disk with. Counters are shared by all processes.
  const limiter = createRateLimiter(app.db.db, app.now);
  const { draftsPerHour, uploadBytesPerHour } = app.config.limits;
  const uploadKbPerHour = Math.ceil(uploadBytesPerHour / 1024);
  function refuse(reply: FastifyReply, result: RateLimitResult, code: 'tooManyDrafts' | 'uploadLimitReached'): never {
    const retryAfterSeconds = Math.max(1, Math.ceil((result.resetAt.getTime() - app.now().getTime()) / 1000));
    reply.header('retry-after', String(retryAfterSeconds));
    throw new AppError(429, code, code, { retryAfterSeconds });
  }

  api.post('/api/orders', { schema: { body: draftCreateSchema } }, async (request, reply) => {
    const counted = await limiter.hit(`drafts:ip:${request.ip}`, draftsPerHour, HOUR_MS);
    if (!counted.allowed) refuse(reply, counted, 'tooManyDrafts');
    const draft = await service.createDraft({ language: request.body.language, selection: request.body.selection });
    return reply.status(201).send({ ...draft, draftToken: draftToken(secret, draft.orderId) });
  });

  api.get('/api/orders/:id/draft', { schema: { params: orderParams } }, async (request) => {
    requireDraft(request);
    return service.getDraft(request.params.id);
  });

  api.put(
    '/api/orders/:id/selection',
    { schema: { params: orderParams, body: z.object({ language: z.enum(LANGUAGES), selection: selectionSchema }).strict() } },
    async (request) => {
      requireDraft(request);
      return service.saveSelection(request.params.id, request.body.language, request.body.selection);
    },
  );

  api.post('/api/orders/:id/uploads', { schema: { params: orderParams } }, async (request, reply) => {
    requireDraft(request);
    const uploadKey = `upload-kb:ip:${request.ip}`;
    // An address over its volume is refused before its body is read.
    const used = await limiter.hit(uploadKey, uploadKbPerHour, HOUR_MS, 0);
    if (!used.allowed) refuse(reply, used, 'uploadLimitReached');
    const photo = await photoBody(request);
    // A body that breaks off or is malformed fails the stream the service reads: that is the customer's 400.
    let bodyError: unknown = null;
    photo.stream.once('error', (error) => {
      bodyError = error;
    });
    const answer = await service
      .addUpload(request.params.id, {
        stream: photo.stream,
        fileName: photo.fileName,
        async received(bytes) {
          // Counted as received, before the photo is decoded or checked.
          const counted = await limiter.hit(uploadKey, uploadKbPerHour, HOUR_MS, Math.ceil(bytes / 1024));
          if (!counted.allowed) refuse(reply, counted, 'uploadLimitReached');
          // Past the size limit the body was only counted, not kept.
          if (photo.truncated()) throw new AppError(413, 'fileTooLarge', 'fileTooLarge', { maxBytes: UPLOAD_LIMITS.maxFileBytes });
        },
      })
      .catch((error: unknown) => {
        // (It may have failed before this handler listened: the stream keeps it.)
        const failed = bodyError ?? photo.stream.errored;
        if (failed) rethrowMultipartError(failed);
        throw error;
      });
    // 202: stored, its check runs in a worker; the wizard asks for the verdict below.
    return reply.status('state' in answer ? 202 : 201).send(answer);
  });

  api.get('/api/orders/:id/uploads/:uploadId', { schema: { params: uploadParams } }, async (request) => {
    requireDraft(request);
    return service.photoState(request.params.id, request.params.uploadId);
  });

  api.delete('/api/orders/:id/uploads/:uploadId', { schema: { params: uploadParams } }, async (request, reply) => {
    requireDraft(request);
    await service.removeUpload(request.params.id, request.params.uploadId);
    return reply.status(204).send();
  });

  api.post('/api/orders/:id/checkout', { schema: { params: orderParams, body: checkoutSchema } }, async (request) => {
    requireDraft(request);
    return service.checkout(request.params.id, request.body);
  });

  /** Until then after the provider's session expired, the success page opens with the checkout's own proofs. */
  function withinCheckoutWindow(order: { providerSessionExpiresAt: Date | null; createdAt: Date }): boolean {
    const from = order.providerSessionExpiresAt ?? order.createdAt;
    return app.now().getTime() <= from.getTime() + CHECKOUT_PROOF_GRACE_MS;
  }

  /** The success page: proof is the draft token of this browser, the provider session id, or the status link. */
  const confirmationQuery = z.object({ session_id: plainText().max(200).optional(), token: plainText().max(100).optional() }).strict();
  async function requireConfirmationAccess(request: {
    params: { id: string };
    query: z.output<typeof confirmationQuery>;
    headers: FastifyRequest['headers'];
  }) {
    const order = await service.find(request.params.id);
    if (!order) throw notFound('orderNotFound');
    if (request.query.token && checkStatusToken(secret, order, request.query.token, app.now()) === 'valid') return;
    // The browser's draft token and the provider's session id prove the checkout, not lasting access: they
    // open the page (and with it a fresh status link) only around the checkout, never after the photos
    // were deleted (which revokes status links).
    if (order.photosDeletedAt) throw notFound('orderNotFound');
    const header = request.headers[DRAFT_HEADER];
    if (isDraftToken(secret, order.id, typeof header === 'string' ? header : undefined) && withinCheckoutWindow(order)) return;
    if (request.query.session_id && order.providerSessionId === request.query.session_id && withinCheckoutWindow(order)) return;
    throw notFound('orderNotFound');
  }

  api.get('/api/orders/:id/confirmation', { schema: { params: orderParams, querystring: confirmationQuery } }, async (request) => {
    await requireConfirmationAccess(request);
    return service.confirmation(request.params.id);
  });

  api.post('/api/orders/:id/confirmation/refresh', { schema: { params: orderParams, querystring: confirmationQuery } }, async (request) => {
    await requireConfirmationAccess(request);
    return service.refreshPayment(request.params.id);
  });
};
