// The first staff account: from ADMIN_EMAIL/ADMIN_PASSWORD, or in development a generated one whose
// password is printed once. Production without either starts without staff (use npm run admin:create).
import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from '../../config.js';
import type { AuthService } from './auth-service.js';

export async function ensureInitialStaff(auth: AuthService, config: AppConfig, log: FastifyBaseLogger, print: (line: string) => void = console.log) {
  if ((await auth.staffCount()) > 0) return;
  if (config.initialAdmin) {
    await auth.createStaff({ email: config.initialAdmin.email, password: config.initialAdmin.password, role: 'admin' });
    log.info({ email: config.initialAdmin.email }, 'created the first staff account from ADMIN_EMAIL');
    return;
  }
  if (config.env !== 'development') {
    log.warn('no staff account exists; create one with: npm run admin:create');
    return;
  }
  const email = 'admin@localhost.test';
  const password = randomBytes(12).toString('base64url');
  await auth.createStaff({ email, password, role: 'admin' });
  print(`\nA staff account was created for this development shop:\n  e-mail:   ${email}\n  password: ${password}\nIt is shown only now. Sign in at /admin/orders.\n`);
}
