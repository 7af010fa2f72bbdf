import { createContext, useContext, type ReactNode } from 'react';
import type { Language } from '../domain/catalog.js';
import type { CatalogView } from '../domain/catalog-view.js';
import type { SiteInfo } from '../domain/site.js';
import type { Messages } from './i18n/messages.js';

/** What the server hands the page: rendered into the HTML, read again when hydrating. */
export interface AppData {
  language: Language;
  /** True when the language came from ?lang= in the address (search engines' hreflang links). */
  languageFromUrl: boolean;
  messages: Messages;
  catalog: CatalogView;
  site: SiteInfo;
  /** The year for the copyright line, from the server's clock so both sides agree. */
  year: number;
}

export const APP_DATA_ELEMENT_ID = 'app-data';

/** JSON for a <script type="application/json"> element: nothing in it can close the element. */
export function serializeAppData(data: AppData): string {
  return JSON.stringify(data).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
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
