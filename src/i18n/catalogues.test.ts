import { readdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { LANGUAGES } from '../domain/catalog.js';
import { ALL_MESSAGES } from './all-messages.js';
import { argumentsOf } from './format.js';
import { PAGE_NAMESPACES, SERVER_NAMESPACES, loadMessages, loadPageMessages, messagesFor, translate } from './messages.js';

function keys(node: unknown, prefix = ''): string[] {
  if (typeof node === 'string') return [prefix];
  if (node === null || typeof node !== 'object') throw new Error(`${prefix}: only strings and objects are allowed`);
  return Object.entries(node).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
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

test('translations are well formed, not empty, and take the same values in every language', () => {
  for (const key of keys(ALL_MESSAGES.de)) {
    const german = translate('de', ALL_MESSAGES.de, key);
    for (const lang of LANGUAGES) {
      const text = translate(lang, ALL_MESSAGES[lang], key);
      expect(text.trim(), `${lang}:${key}`).not.toBe('');
      // argumentsOf parses the text: an unbalanced brace or a plural without "other" fails here.
      expect(argumentsOf(text), `${lang}:${key}`).toEqual(argumentsOf(german));
    }
  }
});

test('translate fills placeholders and shows missing keys as themselves', () => {
  expect(translate('de', ALL_MESSAGES.de, 'home.pricing.photos', { n: 10 })).toBe('10 Bewerbungsfotos');
  expect(translate('en', ALL_MESSAGES.en, 'home.pricing.photos', { n: 10 })).toBe('10 application photos');
  expect(translate('de', ALL_MESSAGES.de, 'home.nope')).toBe('home.nope');
});

test('the browser loads the core catalogues and the page namespaces separately, and together they are everything', async () => {
  for (const lang of LANGUAGES) {
    const core = await loadMessages(lang);
    const pages = await Promise.all(PAGE_NAMESPACES.map((namespace) => loadPageMessages(lang, namespace)));
    for (const namespace of [...PAGE_NAMESPACES, ...SERVER_NAMESPACES]) expect(Object.keys(core), lang).not.toContain(namespace);
    const server = Object.fromEntries(SERVER_NAMESPACES.map((n) => [n, ALL_MESSAGES[lang][n]]));
    expect({ ...core, ...Object.fromEntries(PAGE_NAMESPACES.map((n, i) => [n, pages[i]])), ...server }).toEqual(ALL_MESSAGES[lang]);
  }
});

test('texts only the server uses (mails) are never embedded in a page', () => {
  for (const lang of LANGUAGES) {
    const embedded = messagesFor(ALL_MESSAGES[lang], PAGE_NAMESPACES);
    for (const namespace of SERVER_NAMESPACES) expect(Object.keys(embedded), lang).not.toContain(namespace);
  }
});

test('no text makes the claims docs/rules.md §1 removed', () => {
  const forbidden = [/19[,.]99/, /29[,.]99/, /19[,.]90/, /free trial/i, /prueba gratuita/i, /kostenlos(e|en)? (test|probe)/i, /gratis (test|probe)/i, /2\s*[-–]\s*5 (Tage|days|días)/i, /12\s*[-–]\s*24/, /1\s*[-–]\s*2 (Werktage|business days|días hábiles)/i, /24\s*[-–]\s*48/, /malware/i];
  for (const lang of LANGUAGES) {
    for (const key of keys(ALL_MESSAGES[lang])) {
      const text = translate(lang, ALL_MESSAGES[lang], key);
      for (const pattern of forbidden) expect(text, `${lang}:${key}`).not.toMatch(pattern);
    }
  }
});

test('counts take the plural form of each language ("1 von 1 Bild konnte", not "1 von 1 Bildern konnten")', () => {
  const failed = (lang: (typeof LANGUAGES)[number], n: number, total: number) => translate(lang, ALL_MESSAGES[lang], 'order.upload.partialFailure', { n, total });
  expect(failed('de', 1, 1)).toBe('1 von 1 Bild konnte nicht hochgeladen werden.');
  expect(failed('de', 2, 3)).toBe('2 von 3 Bildern konnten nicht hochgeladen werden.');
  expect(failed('en', 1, 1)).toBe('1 of 1 photo could not be uploaded.');
  expect(failed('es', 1, 1)).toBe('No se ha podido subir 1 de 1 foto.');
  expect(failed('es', 2, 3)).toBe('No se han podido subir 2 de 3 fotos.');
  expect(translate('de', ALL_MESSAGES.de, 'home.pricing.outfits', { n: 1 })).toBe('1 Outfit');
  expect(translate('de', ALL_MESSAGES.de, 'home.pricing.outfits', { n: 3 })).toBe('bis zu 3 Outfits');
  expect(translate('en', ALL_MESSAGES.en, 'mail.hours', { n: 1 })).toBe('1 business hour');
  expect(translate('es', ALL_MESSAGES.es, 'mail.photos', { n: 10 })).toBe('10 fotos profesionales');
});
