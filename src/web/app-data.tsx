import { createContext, useContext, type ReactNode } from 'react';
import type { Capabilities } from '../domain/capabilities.js';
import type { Language } from '../domain/catalog.js';
import type { CatalogView } from '../domain/catalog-view.js';
import type { ConsentServices, ExamplePair, SiteInfo } from '../domain/site.js';
import type { LoadedMessages, PageNamespace } from '../i18n/messages.js';
import { jsonForScript } from './static-page-data.js';

/** What the server hands the page: rendered into the HTML, read again when hydrating. */
export interface AppData {
  language: Language;
  /** True when the language came from ?lang= in the address (search engines' hreflang links). */
  languageFromUrl: boolean;
  /** The core catalogues and the page namespaces this page needs. */
  messages: LoadedMessages;
  catalog: CatalogView;
  site: SiteInfo;
  /** Third-party services that load only after consent (none: no banner). */
  consent: ConsentServices;
  /** Before/after pairs (none: the section and its links are not shown). */
  examples: ExamplePair[];
  /** What the shop's pictures can be (server configuration): texts promise only that. */
  capabilities: Capabilities;
  /** The year for the copyright line, from the server's clock so both sides agree. */
  year: number;
}

export const APP_DATA_ELEMENT_ID = 'app-data';

/**
 * What the HTML carries of AppData: everything but the texts, and which page namespaces the page needs. The
 * texts come as the language's catalogue files (client-start.tsx), loaded with React after the first paint
 * and cached for every page, instead of about 13 KB (compressed) in every page's HTML: with them the HTML of
 * a page the app runs on took one more round trip to arrive before the browser could paint it.
 */
export interface EmbeddedAppData extends Omit<AppData, 'messages'> {
  pageNamespaces: PageNamespace[];
}

/** JSON for a <script type="application/json"> element: nothing in it can close the element. */
export function serializeAppData(data: AppData, pageNamespaces: readonly PageNamespace[]): string {
  const { messages: _texts, ...rest } = data;
  const embedded: EmbeddedAppData = { ...rest, pageNamespaces: [...pageNamespaces] };
  return jsonForScript(embedded);
}

const AppDataContext = createContext<Omit<AppData, 'messages'> | null>(null);

export function AppDataProvider(props: { data: Omit<AppData, 'messages'>; children: ReactNode }) {
  return <AppDataContext.Provider value={props.data}>{props.children}</AppDataContext.Provider>;
}

export function useAppData(): Omit<AppData, 'messages'> {
  const value = useContext(AppDataContext);
  if (!value) throw new Error('useAppData outside AppDataProvider');
  return value;
}
