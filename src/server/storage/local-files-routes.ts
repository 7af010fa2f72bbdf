// Serves the local driver's signed links: GET /files/<key>?exp=&sig=[&name=].
// Only used with the local driver; with S3 the browser fetches presigned URLs from the bucket.
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { zodSerializerCompiler, zodValidatorCompiler } from '../http/zod-provider.js';
import { verifyLocalSignature, type LocalStorage } from './local-storage.js';
import { contentDisposition, isValidKey, StorageNotFoundError } from './storage.js';

const errorBody = z.object({ error: z.object({ code: z.enum(['linkExpired', 'linkInvalid', 'notFound']), requestId: z.string() }) });

// Stored files are customer uploads whose content type came from the upload. Should one claim to
// be HTML or SVG, it must not run script in our origin when opened inline.
const FILE_CSP = "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox";

export const localFilesRoutes: FastifyPluginAsync<{ storage: LocalStorage; secret: string }> = async (app, { storage, secret }) => {
  app.setValidatorCompiler(zodValidatorCompiler);
  app.setSerializerCompiler(zodSerializerCompiler);
  app.get<{ Params: { '*': string }; Querystring: { exp?: string; sig?: string; name?: string } }>(
    '/files/*',
    {
      schema: {
        params: z.object({ '*': z.string() }),
        // Not `required`: a link missing a part is an invalid link (403), not a bad request.
        querystring: z
          .object({ exp: z.string().max(20).optional(), sig: z.string().max(128).optional(), name: z.string().max(1000).optional() })
          .strict(),
        response: { 403: errorBody, 404: errorBody },
      },
    },
    async (request, reply) => {
      const key = request.params['*'];
      const { exp, sig, name } = request.query;
      // We never sign a key outside the key alphabet, so such a path (`..`, `%2f`, ...) is forged.
      if (!isValidKey(key)) return reply.code(403).send({ error: { code: 'linkInvalid', requestId: request.id } });
      const now = new Date();
      const verdict = verifyLocalSignature({ secret, key, exp, name, sig, now });
      if (verdict !== 'valid') return reply.code(403).send({ error: { code: verdict, requestId: request.id } });

      let file;
      try {
        file = await storage.open(key);
      } catch (error) {
        if (error instanceof StorageNotFoundError) return reply.code(404).send({ error: { code: 'notFound', requestId: request.id } });
        throw error;
      }
      const secondsLeft = Math.max(1, Number(exp) - Math.floor(now.getTime() / 1000));
      return reply
        .header('Content-Type', file.contentType)
        .header('Content-Length', file.size)
        .header('Content-Disposition', contentDisposition(name))
        .header('Cache-Control', `private, max-age=${secondsLeft}`)
        .header('X-Content-Type-Options', 'nosniff')
        .header('Content-Security-Policy', FILE_CSP)
        .send(file.stream);
    },
  );
};
