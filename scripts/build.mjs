// `npm run build`: the browser bundle (dist/client) and the server bundle (dist/server).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'vite';
import { FINGERPRINT_FILE, ROOT, sourceFingerprint } from './build-info.mjs';

export async function buildAll({ quiet = false } = {}) {
  const logLevel = quiet ? 'warn' : 'info';
  const fingerprint = sourceFingerprint();
  // Always a production bundle (React's production build), whatever mode the shop will run in.
  const previous = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ root: ROOT, configFile: path.join(ROOT, 'vite.config.ts'), logLevel, mode: 'production' });
    await build({ root: ROOT, configFile: path.join(ROOT, 'vite.server.config.ts'), logLevel, mode: 'production' });
  } finally {
    if (previous === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = previous;
  }
  writeFileSync(FINGERPRINT_FILE, fingerprint);
}

// pathToFileURL: a checkout under a path with spaces or umlauts is percent-encoded in import.meta.url.
if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  await buildAll({ quiet: process.argv.includes('--quiet') });
}
