// Slow clients are cut off: a connection that trickles its body in holds memory and a socket for as long as
// it likes otherwise. Node's own timers cover the request line and headers (headersTimeout) and the whole
// request (requestTimeout), checked every second (app-http.ts); this adds the body:
// - a body of any kind but an upload (a few KB of JSON) must have arrived `bodyMs` after the headers;
// - an upload (multipart) may take up to the request timeout, but after `bodyMs` it must keep an average of
//   MIN_UPLOAD_BYTES_PER_SECOND, far below any phone connection that can send a photo in time.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from './errors.js';

/** 16 KB/s: a 10 MB photo at this pace would take longer than the request timeout anyway. */
export const MIN_UPLOAD_BYTES_PER_SECOND = 16 * 1024;
const CHECK_EVERY_MS = 500;

/** Fastify reads no body for these; a slow one is Node's requestTimeout's business, not this timer's. */
const NO_BODY_METHODS = new Set(['GET', 'HEAD']);

function hasBody(request: FastifyRequest): boolean {
  if (NO_BODY_METHODS.has(request.method)) return false;
  const length = request.headers['content-length'];
  return (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined;
}

export function registerBodyTimeouts(app: FastifyInstance, options: { bodyMs: number }) {
  app.addHook('preParsing', async (request: FastifyRequest, reply: FastifyReply, payload) => {
    const socket = request.raw.socket;
    // Injected requests (tests) have no real socket and arrive whole.
    if (!hasBody(request) || typeof socket?.bytesRead !== 'number') return payload;
    const startedAt = Date.now();
    const startBytes = socket.bytesRead;
    const upload = /^multipart\/form-data/i.test(request.headers['content-type'] ?? '');
    let finished = false;
    const done = () => {
      finished = true;
      clearInterval(timer);
    };
    const timer = setInterval(() => {
      const elapsed = Date.now() - startedAt;
      if (finished || elapsed < options.bodyMs) return;
      if (upload && socket.bytesRead - startBytes >= (MIN_UPLOAD_BYTES_PER_SECOND * elapsed) / 1000) return;
      done();
      request.log.info({ elapsedMs: elapsed, upload }, 'request body too slow; connection closed');
      if (upload) {
        // The upload's parser reads the socket itself: the connection goes, and with it the request.
        socket.destroy();
        return;
      }
      // The body parser answers with this error in our shape; the connection closes after the answer.
      // Only while a parser listens: an 'error' nobody listens to would throw and end the process.
      if (payload.listenerCount('error') === 0 || reply.sent) {
        socket.destroy();
        return;
      }
      reply.header('connection', 'close');
      payload.emit('error', new AppError(408, 'requestTimeout'));
    }, CHECK_EVERY_MS);
    timer.unref();
    request.raw.once('end', done);
    request.raw.once('close', done);
    reply.raw.once('finish', done);
    reply.raw.once('close', done);
    return payload;
  });
}
