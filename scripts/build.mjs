// `npm run build`: the browser bundle (dist/client) and the server bundle (dist/server).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'vite';
import { FINGERPRINT_FILE, ROOT, sourceFingerprint } from './build-info.mjs';

export async function buildAll({ quiet = false } = {}) {
  const logLevel = quiet ? 'warn' : 'info';
  const fingerprint = sourceFingerprint();
  await build({ root: ROOT, configFile: path.join(ROOT, 'vite.config.ts'), logLevel });
  await build({ root: ROOT, configFile: path.join(ROOT, 'vite.server.config.ts'), logLevel });
  writeFileSync(FINGERPRINT_FILE, fingerprint);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await buildAll();
}
