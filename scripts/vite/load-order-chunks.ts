// The browser's scripts in the order it loads them. A React page loads the first script (entry-client.tsx),
// then the app (client-start.tsx: React, its DOM renderer, the router and the page's frame), then the page's
// module. Left to itself the bundler cuts out everything two of these share as a file of its own (React, the
// router, a helper of two lines): the wizard's first step loaded 13 files, and each costs a request and about
// 1 KB of response headers. Here the modules go in layers, one file each: a layer takes its root's static
// imports (those of the first script stay in it), and, where it says so, what the scripts loaded after it
// share. A module that a script loaded without the layer needs stays out of it, so that script does not load
// the layer. What no layer takes is chunked as before (pages, the schemas, the crop dialog).
import type { Rolldown } from 'vite';

export interface ChunkLayer {
  /** The file name's prefix (`app-[hash].js`). */
  name: string;
  /** The module at the layer's root; every module it imports statically joins it unless an earlier layer has it. */
  root: RegExp;
  /** Scripts loaded on demand that join this layer whole, with what they import statically. */
  with?: RegExp[];
  /**
   * Roots of scripts loaded instead of this layer, never after it: what they share with it stays out of this
   * layer and every later one, so they do not load the layer.
   */
  besides?: RegExp[];
  /**
   * Roots of the scripts loaded only with this layer or after it (without, every script loaded on demand is:
   * the app's case). What two of them share joins the layer instead of a small file of its own; a module that
   * any other script needs stays out.
   */
  followers?: RegExp[];
  /**
   * Also take the small modules that at least `roots` scripts share, their imports included (`maxBytes` of
   * source in all): helpers most pages need, each of which would otherwise be a file of a few hundred bytes
   * behind a kilobyte of headers.
   */
  smallShared?: { roots: number; maxBytes: number };
}

type ModuleInfo = NonNullable<ReturnType<Rolldown.ChunkingContext['getModuleInfo']>>;

function staticClosure(root: string, info: (id: string) => ModuleInfo | null): Set<string> {
  const seen = new Set<string>();
  const stack = [root];
  while (stack.length) {
    const id = stack.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    for (const next of info(id)?.importedIds ?? []) stack.push(next);
  }
  return seen;
}

/** `output.codeSplitting` with one file per layer; `first` is the page's first script (it keeps its modules). */
export function loadOrderChunks(first: RegExp, layers: ChunkLayer[]): Rolldown.CodeSplittingOptions {
  const candidates = new Set<string>();
  let layerOf: Map<string, string> | null = null;

  function assign(ctx: Rolldown.ChunkingContext): Map<string, string> {
    const info = (id: string) => ctx.getModuleInfo(id);
    const findAll = (pattern: RegExp) => {
      const found = [...candidates].filter((id) => pattern.test(id));
      if (!found.length) throw new Error(`load-order-chunks: no module matches ${pattern}`);
      return found;
    };
    const find = (pattern: RegExp) => {
      const found = findAll(pattern);
      if (found.length > 1) throw new Error(`load-order-chunks: ${pattern} matches ${found.length} modules, not one`);
      return found[0]!;
    };
    // Every script's root: the page's entry and each module loaded with import().
    const roots = [...candidates].filter((id) => info(id)?.isEntry || (info(id)?.dynamicImporters.length ?? 0) > 0);
    const closures = new Map<string, Set<string>>();
    const closureOf = (id: string) => {
      let closure = closures.get(id);
      if (!closure) closures.set(id, (closure = staticClosure(id, info)));
      return closure;
    };
    const taken = new Set(closureOf(find(first)));
    const result = new Map<string, string>();
    for (const layer of layers) {
      const root = find(layer.root);
      const followers = layer.followers?.flatMap(findAll);
      const outside = followers ? roots.filter((id) => id !== root && !followers.includes(id)) : (layer.besides ?? []).flatMap(findAll);
      const elsewhere = new Set(outside.flatMap((id) => [...closureOf(id)]));
      const members = new Set([root, ...(layer.with ?? []).flatMap(findAll)].flatMap((id) => [...closureOf(id)]));
      const seen = new Set<string>();
      for (const follower of followers ?? []) {
        for (const id of closureOf(follower)) {
          if (seen.has(id)) members.add(id);
          seen.add(id);
        }
      }
      if (layer.smallShared) {
        const { roots: least, maxBytes } = layer.smallShared;
        for (const id of candidates) {
          if (members.has(id) || taken.has(id) || roots.filter((r) => r !== root && closureOf(r).has(id)).length < least) continue;
          const added = [...closureOf(id)].filter((dep) => !members.has(dep) && !taken.has(dep));
          const size = added.reduce((sum, dep) => sum + (info(dep)?.code?.length ?? Infinity), 0);
          if (size <= maxBytes) for (const dep of added) members.add(dep);
        }
      }
      for (const id of members) {
        if (taken.has(id)) continue;
        if (elsewhere.has(id)) {
          // A script loaded instead of the app needs it: no later layer may take it either.
          if (!followers) taken.add(id);
          continue;
        }
        taken.add(id);
        result.set(id, layer.name);
      }
    }
    return result;
  }

  return {
    groups: [
      {
        debugName: 'load-order',
        // Every module is a candidate; `name` decides (null: no layer's, chunked as usual).
        test: (id) => {
          candidates.add(id);
          layerOf = null;
          return true;
        },
        name: (id, ctx) => {
          layerOf ??= assign(ctx);
          return layerOf.get(id) ?? null;
        },
        // The layers are whole static closures already; an earlier layer's modules must stay where they are.
        includeDependenciesRecursively: false,
      },
    ],
  };
}
