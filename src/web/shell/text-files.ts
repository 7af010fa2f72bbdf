// The texts a page the app runs on hydrates with, as JSON files the server serves (GET /i18n/<file>) and the
// page names in its data: one language's core catalogues, and each page namespace on its own. They are data,
// not code: a file is parsed, not compiled and run, and cached for every page (its name holds a hash of its
// content, so it never changes). In the HTML they were about 13 KB (compressed) on every page, which made
// the HTML one round trip longer on a slow phone's network.
import { createHash } from 'node:crypto';
import { LANGUAGES, type Language } from '../../domain/catalog.js';
import { ALL_MESSAGES } from '../../i18n/all-messages.js';
import { PAGE_NAMESPACES, messagesFor, type PageNamespace } from '../../i18n/messages.js';
import type { TextFiles } from '../app-data.js';

export const TEXT_FILES_PREFIX = '/i18n/';

interface TextFile {
  path: string;
  body: string;
}

let files: { byPath: Map<string, TextFile>; byLanguage: Record<Language, { core: string; pages: Record<PageNamespace, string> }> } | null = null;

function build() {
  const byPath = new Map<string, TextFile>();
  const add = (name: string, value: unknown): string => {
    const body = JSON.stringify(value);
    const hash = createHash('sha256').update(body).digest('hex').slice(0, 12);
    const path = `${TEXT_FILES_PREFIX}${name}.${hash}.json`;
    byPath.set(path, { path, body });
    return path;
  };
  const byLanguage = Object.fromEntries(
    LANGUAGES.map((language) => {
      const all = ALL_MESSAGES[language];
      const pages = Object.fromEntries(PAGE_NAMESPACES.map((namespace) => [namespace, add(`${language}-${namespace}`, all[namespace])]));
      return [language, { core: add(language, messagesFor(all, [])), pages }];
    }),
  ) as Record<Language, { core: string; pages: Record<PageNamespace, string> }>;
  return { byPath, byLanguage };
}

function textFiles() {
  files ??= build();
  return files;
}

/** The files a page in `language` with these page namespaces loads its texts from. */
export function textFilesFor(language: Language, namespaces: readonly PageNamespace[]): TextFiles {
  const { core, pages } = textFiles().byLanguage[language];
  return { core, pages: Object.fromEntries(namespaces.map((namespace) => [namespace, pages[namespace]])) };
}

/** The JSON text of the file at `path` (as named by textFilesFor), or null for any other path. */
export function textFile(path: string): string | null {
  return textFiles().byPath.get(path)?.body ?? null;
}
