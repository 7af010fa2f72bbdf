// The TypeScript benchmarks build the server in their own process (bench/in-process.ts); the server imports the
// pages for server rendering, and a page may import its stylesheet, which Vite bundles but Node's loader cannot
// read. Here a stylesheet is an empty module. scripts/bench.mjs loads this with --import after tsx.
import { register } from 'node:module';

const hooks = `export async function load(url, context, next) {
  if (/\\.css(\\?.*)?$/.test(url)) return { format: 'module', source: '', shortCircuit: true };
  return next(url, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`);
