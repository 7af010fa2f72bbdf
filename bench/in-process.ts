// Shared by the TypeScript benchmarks: the app built in this process with production settings.
import { randomBytes } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/server/app.js';
import { loadConfig } from '../src/server/config.js';
import { record } from './report.mjs';

export { SMOKE } from './report.mjs';

/** Production settings for a benchmark's shop (the sandbox allowed, the imprint filled in, quiet logs). */
export function productionBenchEnv(dataDir: string): Record<string, string> {
  return {
    NODE_ENV: 'production',
    ALLOW_SANDBOX_IN_PRODUCTION: 'true',
    SITE_LEGAL_NAME: 'Benchmark GmbH',
    SITE_ADDRESS: 'Teststraße 1, 10115 Berlin',
    SITE_VAT_ID: 'DE123456789',
    APP_SECRET: randomBytes(32).toString('hex'),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'error',
    RETENTION_INTERVAL_MINUTES: '0',
  };
}

export async function benchApp(name: string, env: Record<string, string>) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), `shop-bench-${name}-`));
  const config = loadConfig({ ...productionBenchEnv(dataDir), ...env });
  return { app: await buildApp(config), config, dataDir };
}

export function figure(name: string, value: number, unit: string, target = '') {
  console.log(`${name.padEnd(52)} ${`${Number.isInteger(value) ? value : value.toFixed(2)} ${unit}`.padEnd(18)} ${target ? `(target ${target})` : ''}`);
  record(name, value, unit, target);
}
