import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';
import { isLanguage, type Language } from '../../domain/catalog.js';
import { loadMessages, translate, type Messages } from './messages.js';

export const LANGUAGE_STORAGE_KEY = 'language';
export const LANGUAGE_COOKIE = 'lang';
/** Spec: during a language switch (200 ms) the menu is disabled and the page dims. */
export const LANGUAGE_SWITCH_MS = 200;

interface I18nValue {
  language: Language;
  messages: Messages;
  switching: boolean;
  t: (key: string, vars?: Record<string, string | number>) => string;
  setLanguage: (language: Language) => Promise<void>;
}

const I18nContext = createContext<I18nValue | null>(null);

/** Remembers the choice in browser storage, and in a cookie so the server renders that language next time. */
export function rememberLanguage(language: Language) {
  try {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // Storage can be disabled; the cookie still carries the choice.
  }
  document.cookie = `${LANGUAGE_COOKIE}=${language}; path=/; max-age=31536000; samesite=lax`;
}

export function storedLanguage(): Language | null {
  try {
    const value = localStorage.getItem(LANGUAGE_STORAGE_KEY);
    return isLanguage(value) ? value : null;
  } catch {
    return null;
  }
}

export function I18nProvider(props: { language: Language; messages: Messages; children: ReactNode }) {
  const [state, setState] = useState({ language: props.language, messages: props.messages });
  const [switching, setSwitching] = useState(false);
  const pending = useRef<Language | null>(null);

  const setLanguage = useCallback(async (language: Language) => {
    pending.current = language;
    setSwitching(true);
    try {
      const [messages] = await Promise.all([loadMessages(language), new Promise((r) => setTimeout(r, LANGUAGE_SWITCH_MS))]);
      if (pending.current !== language) return;
      rememberLanguage(language);
      document.documentElement.lang = language;
      setState({ language, messages });
    } finally {
      if (pending.current === language) setSwitching(false);
    }
  }, []);

  const value = useMemo<I18nValue>(
    () => ({
      language: state.language,
      messages: state.messages,
      switching,
      t: (key, vars) => translate(state.messages, key, vars),
      setLanguage,
    }),
    [state, switching, setLanguage],
  );
  return <I18nContext.Provider value={value}>{props.children}</I18nContext.Provider>;
}

export function useI18n(): I18nValue {
  const value = useContext(I18nContext);
  if (!value) throw new Error('useI18n outside I18nProvider');
  return value;
}
