import type { Language } from '../domain/catalog.js';
import type de from './de/index.js';

/** German is the source: every language must have exactly its keys (see i18n.test.ts). */
export type Messages = typeof de;
export type Namespace = keyof Messages;

/** Long texts that only their own pages need: embedded with those pages, loaded with them in the browser. */
export const PAGE_NAMESPACES = ['legal', 'guides'] as const satisfies readonly Namespace[];
export type PageNamespace = (typeof PAGE_NAMESPACES)[number];

/** What a page may hold at a time: every core namespace, and the page namespaces loaded so far. */
export type LoadedMessages = Omit<Messages, PageNamespace> & Partial<Pick<Messages, PageNamespace>>;

const coreLoaders: Record<Language, () => Promise<{ default: Omit<Messages, PageNamespace> }>> = {
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
  return core as LoadedMessages;
}

type Vars = Record<string, string | number>;

function lookup(messages: Partial<Messages>, key: string): unknown {
  let node: unknown = messages;
  for (const part of key.split('.')) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

/** Translates "namespace.path.to.key", filling {placeholders}. A missing key shows itself. */
export function translate(messages: Partial<Messages>, key: string, vars?: Vars): string {
  const value = lookup(messages, key);
  if (typeof value !== 'string') return key;
  if (!vars) return value;
  return value.replace(/\{(\w+)\}/g, (match, name: string) => (name in vars ? String(vars[name]) : match));
}

/** The keys under a group ("guides.linkedin.faq.items"), in catalogue order, for lists of any length. */
export function keysOf(messages: Partial<Messages>, key: string): string[] {
  const value = lookup(messages, key);
  return value !== null && typeof value === 'object' ? Object.keys(value) : [];
}
