import { createContext, use, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { STUDIO_CAPABILITIES, type Capabilities } from '../../domain/capabilities.js';
import { claimKey, isClaimVariant } from '../copy/claims.js';
import { LANGUAGES, type Language } from '../../domain/catalog.js';
import { rememberLanguage } from './language-memory.js';
import { PAGE_NAMESPACES, keysOf, loadMessages, loadPageMessages, translate, type LoadedMessages, type Messages, type PageNamespace } from '../../i18n/messages.js';

export { LANGUAGE_COOKIE, LANGUAGE_STORAGE_KEY, rememberLanguage, storedLanguage } from './language-memory.js';

/** Spec: during a language switch (200 ms) the menu is disabled and the page dims. */
export const LANGUAGE_SWITCH_MS = 200;

interface I18nValue {
  language: Language;
  messages: LoadedMessages;
  switching: boolean;
  t: (key: string, vars?: Record<string, string | number>) => string;
  /** The keys of a group of texts, in order (lists whose length the catalogue decides). */
  keys: (key: string) => string[];
  setLanguage: (language: Language) => Promise<void>;
}

const I18nContext = createContext<I18nValue | null>(null);

// Page namespaces loaded in this browser, per language (static texts: shared by every render).
const loadedPages = Object.fromEntries(LANGUAGES.map((l) => [l, {}])) as Record<Language, Partial<Pick<Messages, PageNamespace>>>;
const loading = new Map<string, Promise<void>>();
const listeners = new Set<() => void>();

function loadPage(language: Language, namespace: PageNamespace): Promise<void> {
  const key = `${language}:${namespace}`;
  let promise = loading.get(key);
  if (!promise) {
    promise = loadPageMessages(language, namespace).then((messages) => {
      (loadedPages[language] as Record<string, unknown>)[namespace] = messages;
      for (const listener of listeners) listener();
    });
    promise.catch(() => loading.delete(key));
    loading.set(key, promise);
  }
  return promise;
}

export function I18nProvider(props: { language: Language; messages: LoadedMessages; capabilities?: Capabilities; children: ReactNode }) {
  const capabilities = props.capabilities ?? STUDIO_CAPABILITIES;
  const [state, setState] = useState({ language: props.language, messages: props.messages });
  const [switching, setSwitching] = useState(false);
  const [pagesVersion, setPagesVersion] = useState(0);
  const pending = useRef<Language | null>(null);

  useEffect(() => {
    const listener = () => setPagesVersion((v) => v + 1);
    listeners.add(listener);
    return () => void listeners.delete(listener);
  }, []);

  const merged = useMemo<LoadedMessages>(
    () => ({ ...loadedPages[state.language], ...state.messages }),
    // pagesVersion: a page namespace arrived.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [state, pagesVersion],
  );

  const mergedRef = useRef(merged);
  useEffect(() => {
    mergedRef.current = merged;
  }, [merged]);

  const setLanguage = useCallback(async (language: Language) => {
    pending.current = language;
    setSwitching(true);
    try {
      // The page namespaces in use come along, so the page does not blank out while they load.
      const inUse = PAGE_NAMESPACES.filter((namespace) => mergedRef.current[namespace]);
      const [messages] = await Promise.all([
        loadMessages(language),
        ...inUse.map((namespace) => loadPage(language, namespace)),
        new Promise((r) => setTimeout(r, LANGUAGE_SWITCH_MS)),
      ]);
      if (pending.current !== language) return;
      rememberLanguage(language);
      document.documentElement.lang = language;
      setState({ language, messages });
    } finally {
      if (pending.current === language) setSwitching(false);
    }
  }, []);

  const value = useMemo<I18nValue>(() => {
    // Looked up at call time: a page namespace that arrives while a page waits for it is found at once.
    const current = () => (PAGE_NAMESPACES.every((n) => merged[n]) ? merged : { ...loadedPages[state.language], ...merged });
    return {
      language: state.language,
      messages: merged,
      switching,
      t: (key, vars) => translate(state.language, current(), claimKey(key, capabilities), vars),
      // A list (tips, FAQ items) shows each claim once: its `…Generator` variant is not an item of its own.
      keys: (key) => keysOf(current(), key).filter((child) => !isClaimVariant(`${key}.${child}`)),
      setLanguage,
    };
  }, [state.language, merged, switching, setLanguage, capabilities]);
  return <I18nContext.Provider value={value}>{props.children}</I18nContext.Provider>;
}

export function useI18n(): I18nValue {
  const value = useContext(I18nContext);
  if (!value) throw new Error('useI18n outside I18nProvider');
  return value;
}

/** A page's own texts: present when the server embedded them, otherwise the page waits while they load. */
export function useNamespace(namespace: PageNamespace): void {
  const { language, messages } = useI18n();
  if (messages[namespace] || loadedPages[language][namespace]) return;
  use(loadPage(language, namespace));
}
