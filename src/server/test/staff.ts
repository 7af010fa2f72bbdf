// A signed-in staff member for integration tests: the account, its session cookie and CSRF token, and a
// request helper that sends both (every change under /api/admin needs them).
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';

export interface StaffClient {
  cookie: string;
  csrf: string;
  request(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object): Promise<LightMyRequestResponse>;
}

/** Creates the account and signs in from `remoteAddress` (its own, so login lockouts stay per test file). */
export async function signInStaff(app: FastifyInstance, remoteAddress: string, email = `staff-${remoteAddress.replace(/\W/g, '-')}@example.de`): Promise<StaffClient> {
  const password = 'ein-langes-test-passwort';
  await app.auth.createStaff({ email, password, name: 'Test' });
  const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password }, remoteAddress });
  if (login.statusCode !== 200) throw new Error(`staff sign-in failed: ${login.body}`);
  const cookie = String(login.headers['set-cookie']).split(';')[0]!;
  const csrf = login.json().csrfToken as string;
  return { cookie, csrf, request: (method, url, payload) => app.inject({ method, url, payload, headers: { cookie, 'x-csrf-token': csrf } }) };
}
