// The server run from its sources by tsx (npm run dev, the tests that start src/server/main.ts, the TypeScript
// benchmarks) imports the pages for server rendering, and a page may import its stylesheet, which Vite bundles
// (and drops from the server's build) but Node's loader cannot read. Here a stylesheet is an empty module.
// Loaded with `--import ./scripts/ignore-styles.mjs` beside tsx.
import { register } from 'node:module';

const hooks = `export async function load(url, context, next) {
  if (/\\.css(\\?.*)?$/.test(url)) return { format: 'module', source: '', shortCircuit: true };
  return next(url, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`);
