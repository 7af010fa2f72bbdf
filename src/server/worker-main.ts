// `npm run worker`: a process that only works the job queue (studio drafts, generator predictions). Start
// as many as you like beside the web processes; they share the database and take jobs one at a time each.
import { buildApp } from './app.js';
import { lowerPriority } from './cpu-priority.js';
import { closeOnSignals, readConfigOrExit, runProcess } from './process-start.js';

async function main() {
  const config = { ...readConfigOrExit(), runJobs: true };
  // Before any thread starts (they inherit it): customers' requests on the same machine go first.
  lowerPriority(config.backgroundNice);
  // No web pages: this process serves no HTTP (the pages' modules would only take memory).
  const app = await buildApp(config, { webPages: false });
  const applied = await app.db.migrate();
  if (applied.length) app.log.info({ applied }, 'database migrated');
  // Ready starts the job runner; this process serves no HTTP.
  await app.ready();
  app.log.info({ worker: app.jobRunner?.workerId, database: app.db.kind }, 'worker is running');

  closeOnSignals(app, { stopping: 'worker stopping after the job under way', failed: 'worker shutdown failed' });
}

runProcess(main);
