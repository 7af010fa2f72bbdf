// The one guard: every request to /api/admin/** needs a staff session, and every state change its
// CSRF token. It sits on the root app, so a route added anywhere under /api/admin is covered.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../http/errors.js';
import { csrfMatches, SESSION, type ActiveSession, type AuthService } from './auth-service.js';
import { parseCookies } from './cookies.js';

declare module 'fastify' {
  interface FastifyRequest {
    staffSession: ActiveSession | null;
  }
}

export const CSRF_HEADER = 'x-csrf-token';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function sessionToken(request: FastifyRequest): string | undefined {
  return parseCookies(request.headers.cookie)[SESSION.cookie];
}

export function isAdminPath(url: string): boolean {
  return url === '/api/admin' || url.startsWith('/api/admin/') || url.startsWith('/api/admin?');
}

/** The path as the router sees it: percent-decoded, so /api/%61dmin is /api/admin. */
function decodedPath(url: string): string {
  const path = url.split('?')[0] ?? '';
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

export function registerStaffGuard(app: FastifyInstance, auth: AuthService) {
  app.decorateRequest('staffSession', null);
  app.addHook('onRequest', async (request) => {
    // The matched route decides, not the raw address: an encoded path reaches the same handler.
    const route = request.routeOptions.url ?? '';
    if (!isAdminPath(route) && !isAdminPath(decodedPath(request.url).toLowerCase())) return;
    const session = await auth.session(sessionToken(request));
    if (!session) throw new AppError(401, 'unauthorized');
    if (!SAFE_METHODS.has(request.method) && !csrfMatches(session.csrfToken, request.headers[CSRF_HEADER])) {
      throw new AppError(403, 'csrfFailed');
    }
    request.staffSession = session;
  });
}

/** The signed-in staff member of a guarded request. */
export function staffOf(request: FastifyRequest): ActiveSession['staff'] {
  if (!request.staffSession) throw new AppError(401, 'unauthorized');
  return request.staffSession.staff;
}
