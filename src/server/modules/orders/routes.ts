// The order wizard's API: drafts, photo uploads, selections, checkout, and the success page's view.
import multipart from '@fastify/multipart';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { UPLOAD_LIMITS } from '../../../domain/catalog.js';
import { checkoutSchema, draftCreateSchema, selectionSchema } from '../../../domain/order-selection.js';
import { LANGUAGES } from '../../../domain/catalog.js';
import { plainText } from '../../../domain/validation.js';
import { rethrowMultipartError } from '../../http/error-handler.js';
import { AppError, notFound } from '../../http/errors.js';
import type { ZodTypeProvider } from '../../http/zod-provider.js';
import { draftToken, isDraftToken, isStatusToken } from './order-tokens.js';
import type { OrderService } from './order-service.js';

const orderParams = z.object({ id: z.uuid({ error: 'orderNotFound' }) }).strict();
const uploadParams = z.object({ id: z.uuid(), uploadId: z.uuid() }).strict();
const DRAFT_HEADER = 'x-draft-token';

export const orderRoutes: FastifyPluginAsync<{ service: OrderService }> = async (app, { service }) => {
  await app.register(multipart, {
    limits: { fileSize: UPLOAD_LIMITS.maxFileBytes, files: 1, fields: 0, parts: 1, headerPairs: 50 },
    throwFileSizeLimit: false,
  });
  const secret = app.config.appSecret;
  const api = app.withTypeProvider<ZodTypeProvider>();

  /** Only the browser that made the draft may change it; a wrong token looks like a missing order. */
  function requireDraft(request: { params: { id: string }; headers: FastifyRequest['headers'] }) {
    const token = request.headers[DRAFT_HEADER];
    if (!isDraftToken(secret, request.params.id, typeof token === 'string' ? token : undefined)) throw notFound('orderNotFound');
  }

  api.post('/api/orders', { schema: { body: draftCreateSchema } }, async (request, reply) => {
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
    if (!request.isMultipart()) throw new AppError(415, 'notAnImage');
    const file = await request.file().catch(rethrowMultipartError);
    if (!file) throw new AppError(400, 'noFile');
    const buffer = await file.toBuffer().catch(rethrowMultipartError);
    // The multipart limit stops reading at the limit and marks the stream truncated.
    if (file.file.truncated) throw new AppError(413, 'fileTooLarge', 'fileTooLarge', { maxBytes: UPLOAD_LIMITS.maxFileBytes });
    const upload = await service.addUpload(request.params.id, { buffer, fileName: file.filename });
    return reply.status(201).send(upload);
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

  /** The success page: proof is the draft token of this browser, the provider session id, or the status link. */
  const confirmationQuery = z.object({ session_id: plainText().max(200).optional(), token: plainText().max(100).optional() }).strict();
  async function requireConfirmationAccess(request: {
    params: { id: string };
    query: z.output<typeof confirmationQuery>;
    headers: FastifyRequest['headers'];
  }) {
    const header = request.headers[DRAFT_HEADER];
    if (isDraftToken(secret, request.params.id, typeof header === 'string' ? header : undefined)) return;
    if (isStatusToken(secret, request.params.id, request.query.token)) return;
    if (request.query.session_id && (await service.sessionBelongsToOrder(request.params.id, request.query.session_id))) return;
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
