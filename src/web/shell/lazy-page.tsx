// Pages loaded on demand in the browser, but never suspending on the server: a render that suspends
// makes React stream the page with inline scripts, which our CSP (script-src 'self') rightly blocks.
import { lazy, type ComponentType } from 'react';

type Loader = () => Promise<{ default: ComponentType }>;

export interface LazyPage {
  (): React.ReactElement;
  preload: () => Promise<void>;
}

const registry: LazyPage[] = [];

export function lazyPage(load: Loader): LazyPage {
  let loaded: ComponentType | null = null;
  const preload = () =>
    load().then((module) => {
      loaded = module.default;
    });
  const Lazy = lazy(() => load());
  const Page = (() => {
    const Loaded = loaded;
    return Loaded ? <Loaded /> : <Lazy />;
  }) as LazyPage;
  Page.preload = preload;
  registry.push(Page);
  return Page;
}

/** The server loads every page once at start, so no render ever waits for a module. */
export async function preloadAllPages(): Promise<void> {
  await Promise.all(registry.map((page) => page.preload()));
}
