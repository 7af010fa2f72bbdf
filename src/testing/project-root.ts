// The package root for test support of every layer (fixtures under test/, sources under src/): found from
// this file, so src/testing needs nothing from src/server (whose src/server/paths.ts finds the same folder).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

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
/** The committed test images and photos (test/fixtures). */
export const FIXTURES_DIR = path.join(PROJECT_ROOT, 'test/fixtures');
