// Server rendering: real HTML with content and meta tags for every public route, hydrated later.
import { PassThrough } from 'node:stream';
import type { ReactNode } from 'react';
import { renderToPipeableStream } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import { LANGUAGES, type Language } from '../domain/catalog.js';
import type { Capabilities } from '../domain/capabilities.js';
import type { CatalogView } from '../domain/catalog-view.js';
import type { ConsentServices, ExamplePair, SiteInfo } from '../domain/site.js';
import { APP_DATA_ELEMENT_ID, serializeAppData, type AppData } from './app-data.js';
import { App } from './app.js';
export { preloadAllPages } from './shell/lazy-page.js';
import { ALL_MESSAGES } from '../i18n/all-messages.js';
import { messagesFor, translate } from '../i18n/messages.js';
import { pageMeta } from './meta.js';
import { textFilesFor } from './shell/text-files.js';
import { resolvePath, PAGE_MESSAGES, PAGES, type PageKey } from './routes.js';
import { STATIC_PAGE_ELEMENT_ID, jsonForScript, type StaticPageData } from './shell/static-page-data.js';
import { WithdrawalAnswerContext, type WithdrawalFormAnswer } from './pages/withdrawal/withdrawal-answer.js';

export type { WithdrawalFormAnswer };

// The server's one door into the web app (architecture.test.ts): rendering, and the page table it needs
// for the sitemap and the page-view counter.
export { PAGES, PUBLIC_PAGES, resolvePath } from './routes.js';
export { STYLE_NONCE_PLACEHOLDER } from './shell/style-nonce.js';
export { withoutAppCss } from './shell/app-css.js';
export { SCRIPT_NONCE_PLACEHOLDER, withBootScript } from './shell/boot.js';
export { STATIC_PAGE_ELEMENT_ID } from './shell/static-page-data.js';
export { TEXT_FILES_PREFIX, textFile, textFilesFor } from './shell/text-files.js';

export interface RenderInput {
  /** Path and query of the request. */
  url: string;
  language: Language;
  languageFromUrl: boolean;
  catalog: CatalogView;
  site: SiteInfo;
  consent: ConsentServices;
  examples: ExamplePair[];
  capabilities: Capabilities;
  publicUrl: string;
  now: Date;
  /** The answer's CSP nonce for the inline scripts React may emit. */
  nonce?: string;
  /** The server's answer to the withdrawal form sent without script: the page shows it (sent without the app). */
  withdrawal?: WithdrawalFormAnswer;
}

export type RenderResult =
  | { kind: 'redirect'; to: string }
  | { kind: 'notFound' }
  /** `scripts`: the page runs a script at all (not the offline page); `app`: that script is the React application. */
  | { kind: 'page'; language: Language; head: string; html: string; dataScript: string; scripts: boolean; app: boolean };

/**
 * Pages with nothing a visitor chooses, and the withdrawal form, which works without script (it posts to the
 * server, which answers with the page): served without the client application (static-page-data.ts).
 * Not while a service needing consent is configured: its banner and settings are the app's.
 */
const STATIC_PAGES: ReadonlySet<PageKey> = new Set(['home', 'guideApplicationPhotos', 'guideLinkedin', 'guideAiTest', 'impressum', 'datenschutz', 'agb', 'barrierefreiheit', 'ueberUns', 'widerruf']);

const OG_LOCALE: Record<Language, string> = { de: 'de_DE', en: 'en_GB', es: 'es_ES' };

function escapeHtml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function languageUrl(publicUrl: string, path: string, language: Language): string {
  return `${publicUrl}${path}${language === 'de' ? '' : `?lang=${language}`}`;
}

function organisationData(site: SiteInfo, publicUrl: string): string {
  const data = {
    '@context': 'https://schema.org',
    '@type': 'Organization',
    name: site.legalName,
    url: `${publicUrl}/`,
    email: site.supportEmail,
    ...(site.phone ? { telephone: site.phone } : {}),
    ...(site.address ? { address: site.address } : {}),
    ...(site.vatId ? { vatID: site.vatId } : {}),
    ...(site.socialLinks.length ? { sameAs: site.socialLinks.map((link) => link.url) } : {}),
    logo: `${publicUrl}/icons/icon-512.png`,
  };
  return JSON.stringify(data).replace(/</g, '\\u003c');
}

/** Renders to a string after every lazy part of the page has loaded, so the HTML is complete. */
function renderComplete(element: ReactNode, nonce: string | undefined): Promise<string> {
  return new Promise((resolve, reject) => {
    let html = '';
    const sink = new PassThrough();
    sink.on('data', (chunk: Buffer) => (html += chunk.toString('utf8')));
    sink.on('end', () => resolve(html));
    const stream = renderToPipeableStream(element, {
      ...(nonce ? { nonce } : {}),
      // React outlines a large ready boundary behind a fallback and reveals it with a script, which paints
      // the fallback first and then shifts the layout (CLS). The whole page is ready: send it in place.
      progressiveChunkSize: Number.POSITIVE_INFINITY,
      onAllReady() {
        stream.pipe(sink);
      },
      onShellError: reject,
      onError(error) {
        reject(error as Error);
      },
    });
  });
}

export async function render(input: RenderInput): Promise<RenderResult> {
  const { pathname } = new URL(input.url, 'http://localhost');
  const resolution = resolvePath(pathname);
  if (resolution.kind !== 'page') return resolution;

  // Rendered with exactly the texts of the files the page names (text-files.ts), so hydration sees the same.
  const pageNamespaces = PAGE_MESSAGES[resolution.page] ?? [];
  const messages = messagesFor(ALL_MESSAGES[input.language], pageNamespaces);
  const data: AppData = {
    language: input.language,
    languageFromUrl: input.languageFromUrl,
    messages,
    catalog: input.catalog,
    site: input.site,
    consent: input.consent,
    examples: input.examples,
    capabilities: input.capabilities,
    year: Number(new Intl.DateTimeFormat('en', { year: 'numeric', timeZone: 'Europe/Berlin' }).format(input.now)),
  };
  const html = await renderComplete(
    <StaticRouter location={input.url}>
      <WithdrawalAnswerContext.Provider value={input.withdrawal ?? null}>
        <App data={data} />
      </WithdrawalAnswerContext.Provider>
    </StaticRouter>,
    input.nonce,
  );
  const meta = pageMeta(resolution.page, input.language, messages, input.site, input.catalog);
  const path = PAGES[resolution.page];
  const canonical = languageUrl(input.publicUrl, path, input.language);
  const head = [
    `<title>${escapeHtml(meta.title)}</title>`,
    `<meta name="description" content="${escapeHtml(meta.description)}">`,
    ...(meta.noindex ? ['<meta name="robots" content="noindex">'] : []),
    `<link rel="canonical" href="${escapeHtml(canonical)}">`,
    ...LANGUAGES.map((lang) => `<link rel="alternate" hreflang="${lang}" href="${escapeHtml(languageUrl(input.publicUrl, path, lang))}">`),
    `<link rel="alternate" hreflang="x-default" href="${escapeHtml(languageUrl(input.publicUrl, path, 'de'))}">`,
    `<meta property="og:type" content="website">`,
    `<meta property="og:title" content="${escapeHtml(meta.title)}">`,
    `<meta property="og:description" content="${escapeHtml(meta.description)}">`,
    `<meta property="og:url" content="${escapeHtml(canonical)}">`,
    `<meta property="og:locale" content="${OG_LOCALE[input.language]}">`,
    `<meta property="og:site_name" content="${escapeHtml(input.site.name)}">`,
    `<script type="application/ld+json">${organisationData(input.site, input.publicUrl)}</script>`,
  ].join('\n    ');
  // An answer to a form sent without script is never hydrated: the app would not know that answer.
  const withoutApp = (STATIC_PAGES.has(resolution.page) && !input.consent.analytics && !input.consent.chat) || input.withdrawal !== undefined;
  const staticData: StaticPageData = {
    language: input.language,
    languageFromUrl: input.languageFromUrl,
    update: { text: translate(input.language, messages, 'common.update.text'), later: translate(input.language, messages, 'common.update.later'), reload: translate(input.language, messages, 'common.update.reload') },
  };
  const dataScript = withoutApp
    ? `<script id="${STATIC_PAGE_ELEMENT_ID}" type="application/json">${jsonForScript(staticData)}</script>`
    : `<script id="${APP_DATA_ELEMENT_ID}" type="application/json">${serializeAppData(data, textFilesFor(input.language, pageNamespaces))}</script>`;
  // The offline page is what the service worker shows without a network: complete HTML, nothing to run.
  const scripts = resolution.page !== 'offline';
  return { kind: 'page', language: input.language, head, html, dataScript: scripts ? dataScript : '', scripts, app: scripts && !withoutApp };
}

/** The generic error page ('An Error Occurred') for a render that failed on the server: no React, no data. */
export function errorPage(language: Language): { head: string; html: string } {
  const messages = ALL_MESSAGES[language];
  const t = (key: string) => escapeHtml(translate(language, messages, key));
  return {
    head: `<title>${t('common.error.title')}</title>\n    <meta name="robots" content="noindex">`,
    html: `<main id="main" class="main main--staff"><section class="error-page" aria-labelledby="error-title"><h1 id="error-title">${t('common.error.title')}</h1><p>${t('common.error.text')}</p><a class="button button--primary" href="/">${t('common.error.home')}</a></section></main>`,
  };
}
