// Test-only (src/server/lazy-modules.test.ts): with RECORD_LOADED_MODULES naming a file, a process started with
// `--import <this file>` appends the URL of every module it loads to that file, one a line, before the module
// runs. Without the variable it does nothing.
import { register } from 'node:module';

const file = process.env.RECORD_LOADED_MODULES;
if (file) {
  const hooks = `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  appendFileSync(${JSON.stringify(file)}, url + '\\n');
  return next(url, context);
}`;
  register(`data:text/javascript,${encodeURIComponent(hooks)}`);
}
