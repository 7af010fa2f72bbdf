// `npm run worker`: a process that only works the job queue (studio drafts, generator predictions). Start
// as many as you like beside the web processes; they share the database and take jobs one at a time each.
import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { lowerPriority } from './cpu-priority.js';

async function main() {
  let config;
  try {
    config = { ...loadConfig(), runJobs: true };
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  // Before any thread starts (they inherit it): customers' requests on the same machine go first.
  lowerPriority(config.backgroundNice);
  // No web pages: this process serves no HTTP (the pages' modules would only take memory).
  const app = await buildApp(config, { webPages: false });
  const applied = await app.db.migrate();
  if (applied.length) app.log.info({ applied }, 'database migrated');
  // Ready starts the job runner; this process serves no HTTP.
  await app.ready();
  app.log.info({ worker: app.jobRunner?.workerId, database: app.db.kind }, 'worker is running');

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) process.exit(1);
    closing = true;
    app.log.info({ signal }, 'worker stopping after the job under way');
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'worker shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
