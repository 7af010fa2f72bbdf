// A fingerprint of everything the build reads, so `npm start` rebuilds only when something changed.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const FINGERPRINT_FILE = path.join(ROOT, 'dist', '.build-fingerprint');
const INPUTS = ['src', 'public', 'scripts/vite', 'index.html', 'package-lock.json', 'vite.config.ts', 'vite.server.config.ts', 'tsconfig.json'];

function walk(target, files) {
  if (!existsSync(target)) return;
  if (statSync(target).isDirectory()) {
    for (const entry of readdirSync(target).sort()) walk(path.join(target, entry), files);
  } else if (!/\.test\.tsx?$/.test(target)) {
    files.push(target);
  }
}

export function sourceFingerprint() {
  const files = [];
  for (const input of INPUTS) walk(path.join(ROOT, input), files);
  const hash = createHash('sha256');
  for (const file of files) {
    hash.update(path.relative(ROOT, file));
    hash.update(readFileSync(file));
  }
  return hash.digest('hex');
}

export function buildIsCurrent() {
  return (
    existsSync(FINGERPRINT_FILE) &&
    existsSync(path.join(ROOT, 'dist/client/index.html')) &&
    existsSync(path.join(ROOT, 'dist/server/main.js')) &&
    readFileSync(FINGERPRINT_FILE, 'utf8') === sourceFingerprint()
  );
}

/**
 * Builds when the sources changed since the last build (`npm start`, `npm run worker`). The build runs in
 * a process of its own, so the bundler's few hundred MB are not kept by the shop that starts afterwards.
 */
export function buildIfChanged() {
  if (buildIsCurrent()) return;
  console.log('Building the shop (first start or changed sources)...');
  const started = Date.now();
  const built = spawnSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs'), '--quiet'], { cwd: ROOT, stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
  console.log(`Built in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
}
