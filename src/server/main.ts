// Starts the shop: validated config, migrations, then listening. Ctrl-C stops it cleanly.
import { buildApp } from './app.js';
import { ensureInitialStaff } from './modules/auth/initial-staff.js';
import { closeOnSignals, readConfigOrExit, runProcess } from './process-start.js';

async function main() {
  const config = readConfigOrExit();
  const app = await buildApp(config);
  const applied = await app.db.migrate();
  if (applied.length) app.log.info({ applied }, 'database migrated');
  await ensureInitialStaff(app.auth, config, app.log);

  closeOnSignals(app, { stopping: 'shutting down', failed: 'shutdown failed' });

  await app.listen({ port: config.port, host: config.host });
  const where = app.server.address();
  const port = typeof where === 'object' && where ? where.port : config.port;
  app.log.info(
    { database: app.db.kind, storage: app.storage.driver, mail: app.mailer.transport, payments: config.payments.provider },
    `shop is running on http://localhost:${port}`,
  );
}

runProcess(main);
