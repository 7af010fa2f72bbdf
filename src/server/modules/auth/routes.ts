// Staff sign-in and sign-out. Outside /api/admin on purpose: these are the way in.
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { z } from 'zod';
import { EMAIL_MAX_LENGTH, plainText } from '../../../domain/validation.js';
import { AppError } from '../../http/errors.js';
import type { ZodTypeProvider } from '../../http/zod-provider.js';
import { SESSION, csrfMatches, type AuthService } from './auth-service.js';
import { serializeCookie } from './cookies.js';
import { CSRF_HEADER, sessionToken } from './guard.js';
import type { SessionResponse } from '../../../domain/staff-api.js';

function tooManyAttempts(reply: FastifyReply, retryAfterSeconds: number): never {
  reply.header('retry-after', String(retryAfterSeconds));
  throw new AppError(429, 'tooManyAttempts', 'tooManyAttempts', { retryAfterSeconds });
}

export const authRoutes: FastifyPluginAsync<{ auth: AuthService }> = async (app, { auth }) => {
  const secure = app.config.env === 'production';
  const api = app.withTypeProvider<ZodTypeProvider>();

  // The password is only ever hashed, never stored or shown: any characters a staff member chose may be in it.
  const loginBody = z.object({ email: plainText().trim().min(1).max(EMAIL_MAX_LENGTH), password: z.string().min(1).max(1024) }).strict();

  api.post(
    '/api/auth/login',
    // Validated here, but answered in the handler: a refused attempt is counted before it is refused.
    { schema: { body: loginBody }, attachValidation: true },
    async (request, reply) => {
      if (request.validationError) {
        const locked = await auth.countRefusedLogin(request.ip);
        if (locked) tooManyAttempts(reply, locked.retryAfterSeconds);
        throw request.validationError;
      }
      const result = await auth.login({
        email: request.body.email,
        password: request.body.password,
        ip: request.ip,
        userAgent: request.headers['user-agent'],
        previousToken: sessionToken(request),
      });
      if (!result.ok) {
        if (result.code === 'tooManyAttempts') tooManyAttempts(reply, result.retryAfterSeconds);
        throw new AppError(401, 'invalidCredentials');
      }
      reply.header('set-cookie', serializeCookie(SESSION.cookie, result.token, { secure, maxAgeSeconds: SESSION.absoluteMs / 1000 }));
      return { staff: result.staff, csrfToken: result.csrfToken } satisfies SessionResponse;
    },
  );

  api.get('/api/auth/session', async (request, reply) => {
    const session = await auth.session(sessionToken(request));
    if (!session) throw new AppError(401, 'unauthorized');
    reply.header('cache-control', 'no-store');
    return { staff: session.staff, csrfToken: session.csrfToken } satisfies SessionResponse;
  });

  api.post('/api/auth/logout', async (request, reply) => {
    const token = sessionToken(request);
    const session = await auth.session(token);
    if (session && !csrfMatches(session.csrfToken, request.headers[CSRF_HEADER])) throw new AppError(403, 'csrfFailed');
    await auth.logout(token);
    reply.header('set-cookie', serializeCookie(SESSION.cookie, '', { secure, maxAgeSeconds: 0 }));
    return reply.status(204).send();
  });
};
