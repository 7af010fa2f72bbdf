import type { Language } from '../domain/catalog.js';
import { formatMessage, type MessageVars } from './format.js';
import type de from './de/index.js';

/** German is the source: every language must have exactly its keys (see i18n/catalogues.test.ts). */
export type Messages = typeof de;
export type Namespace = keyof Messages;

/** Long texts that only their own pages need: embedded with those pages, loaded with them in the browser. */
export const PAGE_NAMESPACES = ['legal', 'guides', 'team'] as const satisfies readonly Namespace[];
export type PageNamespace = (typeof PAGE_NAMESPACES)[number];

/** Texts only the server uses (mails): never embedded in a page or loaded by the browser. */
export const SERVER_NAMESPACES = ['mail'] as const satisfies readonly Namespace[];
export type ServerNamespace = (typeof SERVER_NAMESPACES)[number];

/** What a page may hold at a time: every core namespace, and the page namespaces loaded so far. */
export type LoadedMessages = Omit<Messages, PageNamespace | ServerNamespace> & Partial<Pick<Messages, PageNamespace>>;

const coreLoaders: Record<Language, () => Promise<{ default: LoadedMessages }>> = {
  de: () => import('./de/core.js'),
  en: () => import('./en/core.js'),
  es: () => import('./es/core.js'),
};

const pageLoaders: { [N in PageNamespace]: Record<Language, () => Promise<{ default: Messages[N] }>> } = {
  legal: {
    de: () => import('./de/legal.json'),
    en: () => import('./en/legal.json'),
    es: () => import('./es/legal.json'),
  },
  guides: {
    de: () => import('./de/guides.json'),
    en: () => import('./en/guides.json'),
    es: () => import('./es/guides.json'),
  },
  team: {
    de: () => import('./de/team.json'),
    en: () => import('./en/team.json'),
    es: () => import('./es/team.json'),
  },
};

/** Loads one language's core catalogues; the browser fetches only the language in use. */
export async function loadMessages(language: Language): Promise<LoadedMessages> {
  return (await coreLoaders[language]()).default;
}

export async function loadPageMessages<N extends PageNamespace>(language: Language, namespace: N): Promise<Messages[N]> {
  return (await pageLoaders[namespace][language]()).default;
}

/** Only the namespaces a page needs, for embedding in its HTML. */
export function messagesFor(all: Messages, namespaces: readonly PageNamespace[]): LoadedMessages {
  const core: Record<string, unknown> = { ...all };
  for (const namespace of PAGE_NAMESPACES) if (!namespaces.includes(namespace)) delete core[namespace];
  for (const namespace of SERVER_NAMESPACES) delete core[namespace];
  return core as LoadedMessages;
}

export function lookup(messages: Partial<Messages>, key: string): unknown {
  let node: unknown = messages;
  for (const part of key.split('.')) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

/** Translates "namespace.path.to.key", filling its values and plural forms (format.ts). A missing key shows itself. */
export function translate(language: Language, messages: Partial<Messages>, key: string, vars?: MessageVars): string {
  const value = lookup(messages, key);
  return typeof value === 'string' ? formatMessage(value, vars, language) : key;
}

/** The keys under a group ("guides.linkedin.faq.items"), in catalogue order, for lists of any length. */
export function keysOf(messages: Partial<Messages>, key: string): string[] {
  const value = lookup(messages, key);
  return value !== null && typeof value === 'object' ? Object.keys(value) : [];
}
