import { StrictMode, startTransition, useEffect } from 'react';
import { hydrateRoot, createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { APP_DATA_ELEMENT_ID, type AppData, type EmbeddedAppData, type TextFiles } from '../app-data.js';
import { App, pageForPath } from '../app.js';
import { rememberLanguage, storedLanguage, useI18n } from '../lib/i18n.js';
import { loadMessages, type LoadedMessages } from '../../i18n/messages.js';

/** After hydration: a language chosen earlier in this browser wins over the server's default. */
function LanguageRestore({ data }: { data: AppData }) {
  const { setLanguage } = useI18n();
  useEffect(() => {
    if (data.languageFromUrl) {
      rememberLanguage(data.language);
      return;
    }
    const stored = storedLanguage();
    if (stored && stored !== data.language) void setLanguage(stored);
  }, [data, setLanguage]);
  return null;
}

async function json(path: string): Promise<unknown> {
  const response = await fetch(path);
  if (!response.ok) throw new Error(`${path}: ${response.status}`);
  return response.json();
}

/** The page's texts: the core catalogues and the page namespaces, from the files the server named. */
async function loadTexts(texts: TextFiles): Promise<LoadedMessages> {
  const pages = Object.entries(texts.pages);
  const [core, ...namespaces] = await Promise.all([json(texts.core), ...pages.map(([, path]) => json(path!))]);
  return Object.assign({}, core, ...pages.map(([namespace], i) => ({ [namespace]: namespaces[i] }))) as LoadedMessages;
}

/** Hydrates the server's HTML (or, under the Vite dev server, renders the app from the API). */
export async function start() {
  const element = document.getElementById(APP_DATA_ELEMENT_ID);
  const root = document.getElementById('root')!;
  if (element?.textContent) {
    const { texts, ...embedded } = JSON.parse(element.textContent) as EmbeddedAppData;
    // This page's module and texts first (the texts from the files the page names, not from its HTML):
    // hydration then matches the server's HTML at once.
    const [messages] = await Promise.all([loadTexts(texts), pageForPath(window.location.pathname)?.preload().catch(() => {})]);
    const data: AppData = { ...embedded, messages };
    // As a transition, hydration yields to the browser every few milliseconds instead of holding the main
    // thread until the whole page is done: a tap during it is answered sooner (React replays it once the
    // part tapped is hydrated), and no single long task blocks the page.
    startTransition(() => {
      hydrateRoot(
        root,
        <StrictMode>
          <BrowserRouter>
            <App data={data} extra={<LanguageRestore data={data} />} />
          </BrowserRouter>
        </StrictMode>,
      );
    });
    return;
  }
  // Development without server rendering (the Vite dev server): fetch what the server would embed.
  const language = storedLanguage() ?? 'de';
  const [catalog, { consent, examples, capabilities, ...site }, messages] = await Promise.all([
    fetch('/api/catalog').then((r) => r.json()),
    fetch('/api/site').then((r) => r.json()),
    loadMessages(language),
  ]);
  const data: AppData = { language, languageFromUrl: false, messages, catalog, site, consent, examples, capabilities, year: new Date().getFullYear() };
  createRoot(root).render(
    <StrictMode>
      <BrowserRouter>
        <App data={data} />
      </BrowserRouter>
    </StrictMode>,
  );
}

