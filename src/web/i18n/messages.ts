import type { Language } from '../../domain/catalog.js';
import type de from './de/index.js';

/** German is the source: every language must have exactly its keys (see i18n.test.ts). */
export type Messages = typeof de;
export type Namespace = keyof Messages;

const loaders: Record<Language, () => Promise<{ default: Messages }>> = {
  de: () => import('./de/index.js'),
  en: () => import('./en/index.js'),
  es: () => import('./es/index.js'),
};

/** Loads one language's catalogues; the browser fetches only the language in use. */
export async function loadMessages(language: Language): Promise<Messages> {
  return (await loaders[language]()).default;
}

type Vars = Record<string, string | number>;

function lookup(messages: Messages, key: string): unknown {
  let node: unknown = messages;
  for (const part of key.split('.')) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

/** Translates "namespace.path.to.key", filling {placeholders}. A missing key shows itself. */
export function translate(messages: Messages, key: string, vars?: Vars): string {
  const value = lookup(messages, key);
  if (typeof value !== 'string') return key;
  if (!vars) return value;
  return value.replace(/\{(\w+)\}/g, (match, name: string) => (name in vars ? String(vars[name]) : match));
}
