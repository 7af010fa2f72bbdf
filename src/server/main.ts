// Starts the shop: validated config, migrations, then listening. Ctrl-C stops it cleanly.
import { buildApp } from './app.js';
import { ConfigError, loadConfig, type AppConfig } from './config.js';
import { ensureInitialStaff } from './modules/auth/initial-staff.js';

function readConfig(): AppConfig {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

async function main() {
  const config = readConfig();
  const app = await buildApp(config);
  const applied = await app.db.migrate();
  if (applied.length) app.log.info({ applied }, 'database migrated');
  await ensureInitialStaff(app.auth, config, app.log);

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) {
      // A second Ctrl-C means now.
      process.exit(1);
    }
    closing = true;
    app.log.info({ signal }, 'shutting down');
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  const where = app.server.address();
  const port = typeof where === 'object' && where ? where.port : config.port;
  app.log.info(
    { database: app.db.kind, storage: app.storage.driver, mail: app.mailer.transport, payments: config.payments.provider },
    `shop is running on http://localhost:${port}`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
