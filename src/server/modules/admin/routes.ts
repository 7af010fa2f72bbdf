// The staff API. Every route here is under /api/admin and so behind the guard (auth/guard.ts).
import multipart from '@fastify/multipart';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { UPLOAD_LIMITS } from '../../../domain/catalog.js';
import { ORDER_STATUSES } from '../../../domain/order-state.js';
import { RESULT_STATUSES } from '../../../domain/staff-api.js';
import { plainText, revisionAnswerSchema } from '../../../domain/validation.js';
import { rethrowMultipartError } from '../../http/error-handler.js';
import { AppError } from '../../http/errors.js';
import type { ZodTypeProvider } from '../../http/zod-provider.js';
import { staffOf } from '../auth/guard.js';
import type { AdminService } from './admin-service.js';

const orderParams = z.object({ id: z.uuid({ error: 'notFound' }) }).strict();

export const adminRoutes: FastifyPluginAsync<{ service: AdminService }> = async (app, { service }) => {
  await app.register(multipart, { limits: { fileSize: UPLOAD_LIMITS.maxFileBytes, files: 1, fields: 0, parts: 1 }, throwFileSizeLimit: false });
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/api/admin/orders',
    {
      schema: {
        querystring: z
          .object({
            page: z.coerce.number().int().min(1).max(100_000).default(1),
            status: z.union([z.enum(ORDER_STATUSES), z.literal('')]).optional(),
            q: plainText().max(100).optional(),
          })
          .strict(),
      },
    },
    async (request) => service.list({ page: request.query.page, status: request.query.status || undefined, q: request.query.q }),
  );

  api.get('/api/admin/dashboard', async () => service.dashboard());

  api.get('/api/admin/orders/:id', { schema: { params: orderParams } }, async (request) => service.detail(request.params.id));

  api.post(
    '/api/admin/orders/:id/status',
    { schema: { params: orderParams, body: z.object({ status: z.enum(ORDER_STATUSES) }).strict() } },
    async (request) => service.setStatus(request.params.id, request.body.status, staffOf(request)),
  );

  api.post('/api/admin/orders/:id/results', { schema: { params: orderParams } }, async (request, reply) => {
    if (!request.isMultipart()) throw new AppError(415, 'notAnImage');
    const file = await request.file().catch(rethrowMultipartError);
    if (!file) throw new AppError(400, 'noFile');
    const buffer = await file.toBuffer().catch(rethrowMultipartError);
    if (file.file.truncated) throw new AppError(413, 'fileTooLarge');
    const result = await service.uploadResult(request.params.id, { buffer, fileName: file.filename }, staffOf(request));
    return reply.status(201).send(result);
  });

  api.post(
    '/api/admin/orders/:id/revisions/:revisionId/close',
    { schema: { params: z.object({ id: z.uuid(), revisionId: z.uuid() }).strict(), body: revisionAnswerSchema } },
    async (request) => service.closeRevision(request.params.id, request.params.revisionId, request.body.message, staffOf(request)),
  );

  api.post(
    '/api/admin/orders/:id/results/:resultId/status',
    { schema: { params: z.object({ id: z.uuid(), resultId: z.uuid() }).strict(), body: z.object({ status: z.enum(RESULT_STATUSES) }).strict() } },
    async (request) => service.setResultStatus(request.params.id, request.params.resultId, request.body.status, staffOf(request)),
  );
};
