// Staff sign-in and sign-out. Outside /api/admin on purpose: these are the way in.
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../http/errors.js';
import type { ZodTypeProvider } from '../../http/zod-provider.js';
import { SESSION, csrfMatches, type AuthService } from './auth-service.js';
import { serializeCookie } from './cookies.js';
import { CSRF_HEADER, sessionToken } from './guard.js';

export const authRoutes: FastifyPluginAsync<{ auth: AuthService }> = async (app, { auth }) => {
  const secure = app.config.env === 'production';
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post(
    '/api/auth/login',
    { schema: { body: z.object({ email: z.string().trim().min(1).max(254), password: z.string().min(1).max(1024) }).strict() } },
    async (request, reply) => {
      const result = await auth.login({
        email: request.body.email,
        password: request.body.password,
        ip: request.ip,
        userAgent: request.headers['user-agent'],
        previousToken: sessionToken(request),
      });
      if (!result.ok) {
        if (result.code === 'tooManyAttempts') {
          reply.header('retry-after', String(result.retryAfterSeconds));
          throw new AppError(429, 'tooManyAttempts', 'tooManyAttempts', { retryAfterSeconds: result.retryAfterSeconds });
        }
        throw new AppError(401, 'invalidCredentials');
      }
      reply.header('set-cookie', serializeCookie(SESSION.cookie, result.token, { secure, maxAgeSeconds: SESSION.absoluteMs / 1000 }));
      return { staff: result.staff, csrfToken: result.csrfToken };
    },
  );

  api.get('/api/auth/session', async (request, reply) => {
    const session = await auth.session(sessionToken(request));
    if (!session) throw new AppError(401, 'unauthorized');
    reply.header('cache-control', 'no-store');
    return { staff: session.staff, csrfToken: session.csrfToken };
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
