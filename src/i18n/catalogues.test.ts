import { readdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { LANGUAGES } from '../domain/catalog.js';
import { ALL_MESSAGES } from './all-messages.js';
import { PAGE_NAMESPACES, loadMessages, loadPageMessages, translate } from './messages.js';

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

test('the browser loads the core catalogues and the page namespaces separately, and together they are everything', async () => {
  for (const lang of LANGUAGES) {
    const core = await loadMessages(lang);
    const pages = await Promise.all(PAGE_NAMESPACES.map((namespace) => loadPageMessages(lang, namespace)));
    for (const namespace of PAGE_NAMESPACES) expect(Object.keys(core), lang).not.toContain(namespace);
    expect({ ...core, ...Object.fromEntries(PAGE_NAMESPACES.map((n, i) => [n, pages[i]])) }).toEqual(ALL_MESSAGES[lang]);
  }
});

test('no text makes the claims decisions.md section 1 removed', () => {
  const forbidden = [/19[,.]99/, /29[,.]99/, /19[,.]90/, /free trial/i, /prueba gratuita/i, /kostenlos(e|en)? (test|probe)/i, /gratis (test|probe)/i, /2\s*[-–]\s*5 (Tage|days|días)/i, /12\s*[-–]\s*24/, /1\s*[-–]\s*2 (Werktage|business days|días hábiles)/i, /24\s*[-–]\s*48/, /malware/i];
  for (const lang of LANGUAGES) {
    for (const key of keys(ALL_MESSAGES[lang])) {
      const text = translate(ALL_MESSAGES[lang], key);
      for (const pattern of forbidden) expect(text, `${lang}:${key}`).not.toMatch(pattern);
    }
  }
});
