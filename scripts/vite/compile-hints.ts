// Asks the browser to compile every function of React's file and of the app's frame while they download,
// instead of on first call on the page's main thread.
//
// V8 compiles a script's top level on a background thread while it streams in, but leaves each function
// uncompiled until it is first called; then the main thread parses and compiles it. React reaches the bundle
// as CommonJS, each package wrapped by the bundler in one function (`__commonJSMin((exports, module) => …)`),
// so the first call of React's DOM renderer parsed its whole 200 KB on the main thread, and hydration then
// compiled some 260 more of its functions one by one: together about 40 ms of a wizard step's main thread
// unthrottled on our 2-core machine (Chromium's `--js-flags=--log-function-events`), four times that on
// Lighthouse's simulated phone. Chromium (136 and later) reads `//# allFunctionsCalledOnLoad` as the first
// line of a file as a hint to compile all its functions eagerly, during the download and off the main
// thread (https://v8.dev/blog/explicit-compile-hints). Other browsers read it as a comment.
//
// The hint goes on the files every page the app runs on executes at once (React and the app's frame), not on
// the files loaded later, most of whose functions a visit never calls. It is added after the bundler's other
// plugins have written their code at the top of a file (Vite's list of a file's preloads), because only a
// first line counts; the file's source map moves down by the one line. That is after the files were named, so a
// file's hash does not cover the hint: a browser holding the same file from before this plugin keeps it without the
// hint, which only costs that browser the early compile (the hint is the same on every build).
import type { Plugin, Rollup } from 'vite';

type OutputChunk = Rollup.OutputChunk;

export const COMPILE_HINT = '//# allFunctionsCalledOnLoad';

export function compileHints(chunkNames: readonly string[]): Plugin {
  return {
    name: 'shop-compile-hints',
    apply: 'build',
    enforce: 'post',
    generateBundle: {
      // After Vite's own post hooks, which write the list of a file's preloads at its top.
      order: 'post',
      handler(_options, bundle) {
        for (const name of chunkNames) {
          const chunks = Object.values(bundle).filter((file): file is OutputChunk => file.type === 'chunk' && file.name === name);
          const chunk = chunks[0];
          if (chunks.length !== 1 || !chunk) throw new Error(`compile-hints: expected one chunk named ${name}, found ${chunks.length}`);
          if (chunk.code.startsWith(COMPILE_HINT)) continue;
          chunk.code = `${COMPILE_HINT}\n${chunk.code}`;
          if (chunk.map) chunk.map.mappings = `;${chunk.map.mappings}`;
          const mapFile = bundle[`${chunk.fileName}.map`];
          if (mapFile?.type === 'asset') {
            const source = typeof mapFile.source === 'string' ? mapFile.source : Buffer.from(mapFile.source).toString('utf8');
            const map = JSON.parse(source) as { mappings: string };
            map.mappings = `;${map.mappings}`;
            mapFile.source = JSON.stringify(map);
          }
        }
      },
    },
  };
}
