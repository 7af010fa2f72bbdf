import { createContext, useContext, type ReactNode } from 'react';
import type { Capabilities } from '../domain/capabilities.js';
import type { Language } from '../domain/catalog.js';
import type { CatalogView } from '../domain/catalog-view.js';
import type { ConsentServices, ExamplePair, SiteInfo } from '../domain/site.js';
import type { LoadedMessages, PageNamespace } from '../i18n/messages.js';
import { jsonForScript } from './shell/static-page-data.js';

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

/** Where a page's texts are: the language's core catalogues and each page namespace it needs (text-files.ts). */
export interface TextFiles {
  core: string;
  pages: Partial<Record<PageNamespace, string>>;
}

/**
 * What the HTML carries of AppData: everything but the texts, and the files they are in. The browser loads
 * them with React after the first paint (client-start.tsx), cached for every page, instead of about 13 KB
 * (compressed) in every page's HTML: with them the HTML of a page the app runs on took one more round trip
 * to arrive before the browser could paint it.
 */
export interface EmbeddedAppData extends Omit<AppData, 'messages'> {
  texts: TextFiles;
}

/** JSON for a <script type="application/json"> element: nothing in it can close the element. */
export function serializeAppData(data: AppData, texts: TextFiles): string {
  const { messages: _inFiles, ...rest } = data;
  const embedded: EmbeddedAppData = { ...rest, texts };
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
