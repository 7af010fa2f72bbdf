// `npm run generator:self-check`: one real prediction with the public-domain test face, made as an order's
// are, its picture through the identity gate (modules/production/generator-self-check.ts); prints what it sent,
// how long it took and the distance, and exits 1 on any problem. The container or Replicate must reach
// PUBLIC_URL for the webhook (and Cog's uploads): on PostgreSQL the shop's running workers do the check and this
// command waits for them; on the embedded database (one process) this command is the shop for the check, so stop
// the shop first (it listens on PORT, behind the same PUBLIC_URL).
import { buildApp } from '../app.js';
import { ConfigError, loadConfig } from '../config.js';
import { describeSelfCheck, SELF_CHECK_QUEUE, type SelfCheckResult } from '../modules/production/generator-self-check.js';

const WAIT_MS = 20 * 60 * 1000;
/** On PostgreSQL a job nobody takes this long means no process runs jobs. */
const UNCLAIMED_MS = 60 * 1000;

try {
  const config = loadConfig();
  if (!config.generator) {
    console.error('no generator configured (GENERATOR is not set): nothing to check');
    process.exit(1);
  }
  const shared = config.database.kind === 'postgres';
  const app = await buildApp({ ...config, runJobs: !shared, logLevel: 'warn' });
  await app.db.migrate();
  if (!shared) await app.listen({ port: config.port, host: config.host });
  else await app.ready();
  const jobId = (await app.jobs.enqueue({ queue: SELF_CHECK_QUEUE, payload: {}, maxAttempts: 1 }))!;
  console.log(`self-check ${jobId}: one prediction with the test face, waiting for ${config.generator.kind === 'cog' ? 'the container' : 'Replicate'} (up to ${WAIT_MS / 60_000} minutes)…`);
  const started = Date.now();
  let result: SelfCheckResult | null = null;
  for (;;) {
    const job = (await app.jobs.find(jobId))!;
    if (job.status === 'done') {
      result = job.progress?.result ?? null;
      break;
    }
    if (job.status === 'dead' || job.status === 'failed') {
      console.error(`self-check FAILED: ${job.lastError?.split('\n')[0] ?? 'no reason recorded'}`);
      break;
    }
    if (shared && job.status === 'pending' && Date.now() - started > UNCLAIMED_MS) {
      console.error('self-check FAILED: no process took the job within a minute; start the shop or a worker (RUN_JOBS) with these settings');
      break;
    }
    if (Date.now() - started > WAIT_MS) {
      console.error('self-check FAILED: no result within 20 minutes');
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  if (result) for (const line of describeSelfCheck(result)) (result.ok ? console.log : console.error)(line);
  await app.close();
  process.exit(result?.ok ? 0 : 1);
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : `self-check failed: ${(error as Error).message}`);
  process.exit(1);
}
