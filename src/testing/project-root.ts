// The package root for test support of every layer (fixtures under test/, sources under src/): two folders above
// this file. Test support runs only from the sources, never from a build, so it needs no search for package.json
// as src/server/paths.ts does (which finds the same folder from src/ or from the built dist/); and src/testing
// may import nothing from src/server.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The committed test images and photos (test/fixtures). */
export const FIXTURES_DIR = path.join(PROJECT_ROOT, 'test/fixtures');
