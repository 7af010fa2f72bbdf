import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { isDatabaseUnavailable } from '../db/errors.js';
import { AppError, type ErrorBody, type ErrorCode } from './errors.js';
import { zodFieldErrors } from './zod-provider.js';

/** How long a client is told to wait when the database is away for a moment (a restart, a failover). */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/**
 * Longer than any address of the shop (a signed download link is about 250 characters). Node's parser
 * answers requests whose request line and headers pass 16 KiB itself (431, see clientErrorHandler).
 */
export const MAX_URL_LENGTH = 8 * 1024;

function send(reply: FastifyReply, request: FastifyRequest, status: number, body: Omit<ErrorBody['error'], 'requestId'>) {
  // Also on answers that no hook has seen (the URL check, framework errors): the id and no sniffing.
  return reply
    .status(status)
    .header('x-request-id', request.id)
    .header('x-content-type-options', 'nosniff')
    .type('application/json; charset=utf-8')
    .send({ error: { ...body, requestId: request.id } } satisfies ErrorBody);
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

  app.addHook('onRequest', async (request) => {
    if (request.url.length > MAX_URL_LENGTH) throw new AppError(414, 'uriTooLong');
  });
}

/**
 * Fastify's `frameworkErrors` option: what goes wrong before a route is found. Fastify's own answer would
 * quote the address back; ours has the code and the request id only.
 */
export function frameworkErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  reply.header('cache-control', 'no-store');
  // `/api/orders/%`: not valid percent-encoding.
  if (error.code === 'FST_ERR_BAD_URL') return send(reply, request, 400, { code: 'badRequest' });
  // A path parameter longer than the router's maxParamLength (100): no id of ours is that long.
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') return send(reply, request, 414, { code: 'uriTooLong' });
  request.log.error({ err: error }, 'routing failed');
  return send(reply, request, 500, { code: 'internalError' });
}

const CLIENT_ERRORS: Record<string, { status: number; code: ErrorCode }> = {
  // Request line and headers over Node's limit (16 KiB).
  HPE_HEADER_OVERFLOW: { status: 431, code: 'headersTooLarge' },
  // The server's requestTimeout / headersTimeout ran out.
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, code: 'requestTimeout' },
};

/**
 * Fastify's `clientErrorHandler` option: what Node's HTTP parser refuses before there is a request (headers
 * too large, an unknown method, a malformed request line, a timeout). Answered in our error shape on the raw
 * socket, which is then closed. Only the parser's code is logged: the error carries the raw bytes received.
 */
export function clientErrorHandler(this: FastifyInstance, error: Error & { code?: string }, socket: Socket) {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const { status, code } = CLIENT_ERRORS[error.code ?? ''] ?? { status: 400, code: 'badRequest' };
  const requestId = randomUUID();
  this.log.info({ reqId: requestId, clientError: error.code ?? error.name, statusCode: status }, 'client error');
  // Not in the middle of an answer already sent on this connection (keep-alive).
  const current = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.writable && !current?.headersSent) {
    const body = JSON.stringify({ error: { code, requestId } } satisfies ErrorBody);
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
        'content-type: application/json; charset=utf-8\r\n' +
        `content-length: ${Buffer.byteLength(body)}\r\n` +
        `x-request-id: ${requestId}\r\n` +
        'x-content-type-options: nosniff\r\n' +
        'cache-control: no-store\r\n' +
        'connection: close\r\n\r\n' +
        body,
    );
  }
  socket.destroy(error);
}

/** @fastify/multipart's limits on the parts of a body (a 413 there): a body of another shape, not too much data. */
const MULTIPART_SHAPE_LIMITS = new Set(['FST_PARTS_LIMIT', 'FST_FILES_LIMIT', 'FST_FIELDS_LIMIT']);

/**
 * For `request.file()` and `toBuffer()`: busboy throws plain errors for a body that is not the multipart it
 * claims to be (no boundary, cut off, garbage), and a text field where the route takes only a file trips a
 * parts limit; those are the client's, a 400. Other errors with a status keep it (a request closed early: 400).
 */
export function rethrowMultipartError(error: unknown): never {
  const { statusCode, code } = (error ?? {}) as { statusCode?: unknown; code?: unknown };
  if (typeof code === 'string' && MULTIPART_SHAPE_LIMITS.has(code)) throw new AppError(400, 'malformedUpload');
  if (error instanceof AppError || typeof statusCode === 'number') throw error;
  throw new AppError(400, 'malformedUpload');
}
