// How a customer's photo arrives at the upload route. The wizard sends the file itself as the request's body
// (its type as Content-Type, its name percent-encoded in X-File-Name), as object stores take an upload: nothing
// to search for around it. A multipart form with one file is taken too (other clients, and a wizard page loaded
// before a deploy). Reading 150 photos of 2.7 MB as multipart took a bare Fastify server 0.63 CPU-seconds, as
// bodies 0.40 (the boundary search); the shop's web processes used about a tenth less CPU in an upload rush
// (docs/performance-history.md, 2026-11-28, ninth stop).
import { Readable, Transform } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { PHOTO_NAME_HEADER, UPLOAD_LIMITS } from '../../../domain/catalog.js';
import { rethrowMultipartError } from '../../http/error-handler.js';
import { AppError } from '../../http/errors.js';

/** The body types taken as a photo's bytes; what the photo really is, its contents decide (the image checks). */
const PHOTO_BODY_TYPES = /^(?:image\/[\w.+-]+|application\/octet-stream)(?:;|$)/i;

/** A photo's bytes as they arrive, and whether the body went past the size limit (the bytes beyond are dropped). */
export interface PhotoBody {
  stream: Readable;
  fileName: string | undefined;
  truncated(): boolean;
}

/** Lets the routes of `app` take a photo as the body: passed through unread, for the route to stream. */
export function acceptPhotoBodies(app: FastifyInstance) {
  app.addContentTypeParser(PHOTO_BODY_TYPES, (request, payload, done) => {
    // A declared size past the limit is refused before a byte is read.
    const declared = Number(request.headers['content-length']);
    if (declared > UPLOAD_LIMITS.maxFileBytes) {
      done(new AppError(413, 'fileTooLarge', 'fileTooLarge', { maxBytes: UPLOAD_LIMITS.maxFileBytes }), undefined);
      return;
    }
    done(null, payload);
  });
}

function headerFileName(value: string | string[] | undefined): string | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    return decodeURIComponent(value);
  } catch {
    // Not percent-encoding: the name is only shown, a broken one becomes the default name.
    return undefined;
  }
}

/**
 * Up to the size limit, then only counted (a body without a declared length, or one longer than it said): the
 * route answers 413 once the body is read, as the multipart limit does.
 */
function limited(body: Readable): PhotoBody {
  let bytes = 0;
  let over = false;
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      const room = UPLOAD_LIMITS.maxFileBytes - bytes;
      bytes += chunk.length;
      if (chunk.length <= room) return done(null, chunk);
      over = true;
      done(null, room > 0 ? chunk.subarray(0, room) : undefined);
    },
  });
  body.once('error', (error) => stream.destroy(error));
  // A client that hangs up mid-body: the request's stream only says "aborted", the copy must fail.
  body.once('aborted', () => stream.destroy(new AppError(400, 'malformedUpload')));
  body.pipe(stream);
  // The copy failed or was given up (a refusal mid-body): the rest of the body is read and dropped, so that the
  // answer reaches the customer and the connection stays usable.
  stream.once('close', () => body.resume());
  return { stream, fileName: undefined, truncated: () => over };
}

/** The photo of an upload request, or the customer's error (415 for a body that cannot be one). */
export async function photoBody(request: FastifyRequest): Promise<PhotoBody> {
  if (request.isMultipart()) {
    const file = await request.file().catch(rethrowMultipartError);
    if (!file) throw new AppError(400, 'noFile');
    return { stream: file.file, fileName: file.filename, truncated: () => file.file.truncated };
  }
  if (!(request.body instanceof Readable)) throw new AppError(415, 'notAnImage');
  return { ...limited(request.body), fileName: headerFileName(request.headers[PHOTO_NAME_HEADER]) };
}
