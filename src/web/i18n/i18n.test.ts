import { readdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { LANGUAGES } from '../../domain/catalog.js';
import { ALL_MESSAGES } from './all-messages.js';
import { translate } from './messages.js';

function keys(node: unknown, prefix = ''): string[] {
  if (typeof node === 'string') return [prefix];
  if (node === null || typeof node !== 'object') throw new Error(`${prefix}: only strings and objects are allowed`);
  return Object.entries(node).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
}

function placeholders(text: string): string[] {
  return [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!).sort();
}

test('every language has the same namespaces on disk', () => {
  const dir = path.dirname(new URL(import.meta.url).pathname);
  const namespaces = (lang: string) => readdirSync(path.join(dir, lang)).filter((f) => f.endsWith('.json')).sort();
  for (const lang of LANGUAGES) expect(namespaces(lang), lang).toEqual(namespaces('de'));
});

test('no key is missing or extra in any language', () => {
  const source = keys(ALL_MESSAGES.de).sort();
  expect(source.length).toBeGreaterThan(50);
  for (const lang of LANGUAGES) {
    const current = keys(ALL_MESSAGES[lang]).sort();
    expect({ lang, missing: source.filter((k) => !current.includes(k)), extra: current.filter((k) => !source.includes(k)) }).toEqual({
      lang,
      missing: [],
      extra: [],
    });
  }
});

test('translations use the same placeholders and are not empty', () => {
  for (const key of keys(ALL_MESSAGES.de)) {
    const german = translate(ALL_MESSAGES.de, key);
    for (const lang of LANGUAGES) {
      const text = translate(ALL_MESSAGES[lang], key);
      expect(text.trim(), `${lang}:${key}`).not.toBe('');
      expect(placeholders(text), `${lang}:${key}`).toEqual(placeholders(german));
    }
  }
});

test('translate fills placeholders and shows missing keys as themselves', () => {
  expect(translate(ALL_MESSAGES.de, 'home.pricing.photos', { n: 10 })).toBe('10 Bewerbungsfotos');
  expect(translate(ALL_MESSAGES.en, 'home.pricing.photos', { n: 10 })).toBe('10 application photos');
  expect(translate(ALL_MESSAGES.de, 'home.nope')).toBe('home.nope');
});
