// `npm start`: builds when the sources changed since the last build, then runs the shop.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, buildIsCurrent } from './build-info.mjs';

if (!process.env.NODE_ENV) process.env.NODE_ENV = 'development';

if (!buildIsCurrent()) {
  console.log('Building the shop (first start or changed sources)...');
  const started = Date.now();
  const { buildAll } = await import('./build.mjs');
  await buildAll({ quiet: true });
  console.log(`Built in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
}
await import(pathToFileURL(path.join(ROOT, 'dist/server/main.js')).href);
