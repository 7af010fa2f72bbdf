// Issue 22: a web process at rest holds only what its requests use. The heavy SDKs of features that are off by
// default (Stripe, S3, SMTP) or not needed until their first use (invoices, HEIC photos, PGlite on PostgreSQL)
// load with that first use. The real start command runs in a child process that records every module it loads.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openPostgresTestDatabase, testDatabases } from './test/databases.js';
import { freePort, startShopProcess, waitHealthy } from './test/shop-process.js';
import { PROJECT_ROOT } from './paths.js';

const RECORDER = path.join(PROJECT_ROOT, 'src/server/test/record-loaded-modules.mjs');

/** Loaded only on first use, whatever the database. */
const LAZY = ['stripe', '@aws-sdk/client-s3', '@aws-sdk/s3-request-presigner', 'nodemailer', 'pdf-lib', '@pdf-lib/fontkit', 'heic-decode'];

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'shop-lazy-modules-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The npm packages whose modules the process has loaded so far (from the recorded URLs). */
async function loadedPackages(file: string): Promise<Set<string>> {
  const urls = (await readFile(file, 'utf8')).split('\n').filter(Boolean);
  const packages = urls.map((url) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1]).filter((name) => name !== undefined);
  return new Set(packages);
}

for (const database of testDatabases()) {
  test(`on ${database.name}: a started shop has not loaded the SDKs of what it has not used yet; Stripe's comes with the first webhook`, { timeout: 90_000 }, async () => {
    const postgres = database.name === 'postgres' ? await openPostgresTestDatabase() : null;
    const record = path.join(dir, `${database.name}.txt`);
    const port = await freePort();
    const shop = startShopProcess({
      PORT: String(port),
      DATA_DIR: path.join(dir, database.name),
      RECORD_LOADED_MODULES: record,
      NODE_OPTIONS: `--import ${RECORDER}`,
      ...(postgres ? { DATABASE_URL: postgres.url } : {}),
    });
    try {
      await waitHealthy(port, shop, 60_000);
      for (const page of ['/', '/api/catalog', '/tracking']) expect((await fetch(`http://127.0.0.1:${port}${page}`)).status).toBe(200);

      const atRest = await loadedPackages(record);
      // The recording sees npm packages at all (else every check below would pass for nothing).
      expect(atRest).toContain('fastify');
      expect(atRest).toContain(postgres ? 'pg' : '@electric-sql/pglite');
      expect(LAZY.filter((name) => atRest.has(name))).toEqual([]);
      if (postgres) expect(atRest).not.toContain('@electric-sql/pglite');

      // The sandbox's webhook checks signatures with Stripe's code: the SDK loads for it and refuses a forgery.
      const forged = await fetch(`http://127.0.0.1:${port}/api/payments/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}` },
        body: '{}',
      });
      expect(forged.status).toBe(400);
      expect(await loadedPackages(record)).toContain('stripe');
    } finally {
      const exited = shop.exited;
      shop.child.kill('SIGTERM');
      await exited;
      await postgres?.handle.close();
    }
  });
}

for (const database of testDatabases()) {
  test(`on ${database.name}: a worker process (npm run worker) does not load the web app (its pages, its router), which it never serves`, { timeout: 90_000 }, async () => {
    const postgres = database.name === 'postgres' ? await openPostgresTestDatabase() : null;
    const record = path.join(dir, `worker-${database.name}.txt`);
    const worker = startShopProcess(
      {
        DATA_DIR: path.join(dir, `worker-${database.name}`),
        RECORD_LOADED_MODULES: record,
        NODE_OPTIONS: `--import ${RECORDER}`,
        ...(postgres ? { DATABASE_URL: postgres.url } : {}),
      },
      'src/server/worker-main.ts',
    );
    try {
      const deadline = Date.now() + 60_000;
      while (!worker.output().includes('worker is running')) {
        if (worker.child.exitCode !== null || Date.now() > deadline) throw new Error(`the worker did not start:\n${worker.output().slice(-2000)}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const loaded = await loadedPackages(record);
      expect(loaded).toContain('fastify');
      expect(loaded).not.toContain('react-router');
      const urls = await readFile(record, 'utf8');
      expect(urls).not.toContain('/src/web/');
    } finally {
      const exited = worker.exited;
      worker.child.kill('SIGTERM');
      await exited;
      await postgres?.handle.close();
    }
  });
}
