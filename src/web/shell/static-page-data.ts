// Pages with nothing a visitor fills in or chooses (home, guides, legal texts) are served as the server's HTML
// without the client application: React and the router are most of a page's JavaScript, and these pages do
// not need them. What the server hands such a page instead of the app's data, and what both sides share.
// No React here: this module is part of the browser's first script.
import type { Language } from '../../domain/catalog.js';

export const STATIC_PAGE_ELEMENT_ID = 'static-page-data';

/** Spec: the navigation bar changes its look after more than 20 px of scroll. */
export const SCROLLED_AFTER_PX = 20;

export interface StaticPageData {
  language: Language;
  /** True when the language came from ?lang= in the address. */
  languageFromUrl: boolean;
  /** The update notice's texts (a new version of the shop waits). */
  update: { text: string; later: string; reload: string };
}

/** JSON for a <script type="application/json"> element: nothing in it can close the element. */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}
