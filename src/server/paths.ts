import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package root, found from this file whether it runs from src/ or from the built dist/. */
function findProjectRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('package.json not found above ' + fileURLToPath(import.meta.url));
    dir = parent;
  }
}

export const PROJECT_ROOT = findProjectRoot();
export const MIGRATIONS_DIR = path.join(PROJECT_ROOT, 'src/server/db/migrations');
export const WEB_DIST_DIR = path.join(PROJECT_ROOT, 'dist/client');

// The studio's inference thread and models (createInference() in src/studio/inference/client.ts, which finds
// neither itself). The built thread is an entry of its own beside the built server (vite.server.config.ts);
// from the sources (tests, tsx) the TypeScript one, which the studio runs through tsx.
const RUNNING_BUILT = fileURLToPath(import.meta.url).includes(`${path.sep}dist${path.sep}server${path.sep}`);
const BUILT_INFERENCE_WORKER = path.join(PROJECT_ROOT, 'dist/server/studio-inference.js');
export const STUDIO_INFERENCE_WORKER =
  RUNNING_BUILT && existsSync(BUILT_INFERENCE_WORKER) ? BUILT_INFERENCE_WORKER : path.join(PROJECT_ROOT, 'src/studio/inference/worker.ts');
/** The models committed with the studio; the build does not copy them, a built shop reads them here too. */
export const STUDIO_MODELS_DIR = path.join(PROJECT_ROOT, 'src/studio/models');
