import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { isDatabaseUnavailable } from '../db/errors.js';
import { AppError, type ErrorBody } from './errors.js';

/** How long a client is told to wait when the database is away for a moment (a restart, a failover). */
export const DATABASE_RETRY_AFTER_SECONDS = 5;
import { zodFieldErrors } from './zod-provider.js';

function send(reply: FastifyReply, request: FastifyRequest, status: number, body: Omit<ErrorBody['error'], 'requestId'>) {
  return reply.status(status).type('application/json; charset=utf-8').send({ error: { ...body, requestId: request.id } } satisfies ErrorBody);
}

/** One error handler: typed failures keep their code, everything else is a logged, hidden 500. */
export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | AppError | z.ZodError | Error, request, reply) => {
    if (error instanceof AppError) {
      if (error.statusCode >= 500) request.log.error({ err: error }, 'request failed');
      return send(reply, request, error.statusCode, { code: error.code, ...(error.details ? { details: error.details } : {}) });
    }
    if (error instanceof z.ZodError) {
      return send(reply, request, 400, { code: 'validationFailed', fields: zodFieldErrors(error) });
    }
    const fastifyError = error as FastifyError;
    const status = fastifyError.statusCode ?? 500;
    if (status === 413 || fastifyError.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return send(reply, request, 413, { code: 'payloadTooLarge' });
    if (status === 415) return send(reply, request, 415, { code: 'unsupportedMediaType' });
    if (status === 429) return send(reply, request, 429, { code: 'rateLimited' });
    if (status >= 400 && status < 500) {
      // Malformed JSON and the like: say it was bad input, not what the parser thought.
      return send(reply, request, status, { code: status === 404 ? 'notFound' : 'badRequest' });
    }
    if (isDatabaseUnavailable(error)) {
      // Nothing was decided: the transaction rolled back with its connection. The client may simply try again.
      request.log.warn({ err: error }, 'database unavailable');
      reply.header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS));
      return send(reply, request, 503, { code: 'serviceUnavailable', details: { retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS } });
    }
    request.log.error({ err: error }, 'unhandled error');
    return send(reply, request, 500, { code: 'internalError' });
  });

  app.setNotFoundHandler((request, reply) => send(reply, request, 404, { code: 'notFound' }));
}
