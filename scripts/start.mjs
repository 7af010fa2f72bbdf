// `npm start`: builds when the sources changed since the last build, then runs the shop.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, buildIfChanged } from './build-info.mjs';

if (!process.env.NODE_ENV) process.env.NODE_ENV = 'development';

buildIfChanged();
await import(pathToFileURL(path.join(ROOT, 'dist/server/main.js')).href);
