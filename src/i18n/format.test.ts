import { expect, test } from 'vitest';
import { argumentsOf, formatMessage } from './format.js';

const PHOTOS = '{n, plural, one {# Bild} other {# Bilder}}';

test('values fill their places; a value the caller did not give stays visible', () => {
  expect(formatMessage('Bestellung {number} von {site}', { number: 'BF-1', site: 'X' }, 'de')).toBe('Bestellung BF-1 von X');
  expect(formatMessage('Bestellung {number}', {}, 'de')).toBe('Bestellung {number}');
  expect(formatMessage('no arguments', undefined, 'en')).toBe('no arguments');
});

test('a value is inserted as it is, never read as message syntax', () => {
  expect(formatMessage('Hallo {name}', { name: '{n, plural, other {x}} #' }, 'de')).toBe('Hallo {n, plural, other {x}} #');
});

test('plural forms follow the language, with "#" as the number in its format', () => {
  expect(formatMessage(PHOTOS, { n: 1 }, 'de')).toBe('1 Bild');
  expect(formatMessage(PHOTOS, { n: 0 }, 'de')).toBe('0 Bilder');
  expect(formatMessage(PHOTOS, { n: 3 }, 'de')).toBe('3 Bilder');
  expect(formatMessage(PHOTOS, { n: 1200 }, 'de')).toBe('1.200 Bilder');
  expect(formatMessage('{n, plural, one {# photo} other {# photos}}', { n: 1200 }, 'en')).toBe('1,200 photos');
  expect(formatMessage('{n, plural, one {# foto} other {# fotos}}', { n: 1 }, 'es')).toBe('1 foto');
  // Spanish has a "many" form for millions; without that branch "other" is used.
  expect(formatMessage('{n, plural, one {# foto} other {# fotos}}', { n: 1_000_000 }, 'es')).toBe('1.000.000 fotos');
});

test('an exact match comes before the plural rule', () => {
  const text = '{n, plural, =0 {keine Bilder} one {ein Bild} other {# Bilder}}';
  expect(formatMessage(text, { n: 0 }, 'de')).toBe('keine Bilder');
  expect(formatMessage(text, { n: 1 }, 'de')).toBe('ein Bild');
  expect(formatMessage(text, { n: 2 }, 'de')).toBe('2 Bilder');
});

test('two plurals in one sentence agree each with its own number', () => {
  const text = '{n} von {total, plural, one {# Bild} other {# Bildern}} {n, plural, one {konnte} other {konnten}} nicht hochgeladen werden.';
  expect(formatMessage(text, { n: 1, total: 1 }, 'de')).toBe('1 von 1 Bild konnte nicht hochgeladen werden.');
  expect(formatMessage(text, { n: 2, total: 3 }, 'de')).toBe('2 von 3 Bildern konnten nicht hochgeladen werden.');
});

test('select picks a branch by word, "other" when none matches; branches hold values', () => {
  const text = 'in {hours}{mode, select, express { ({name})} other {}}';
  expect(formatMessage(text, { hours: '6 h', mode: 'express', name: 'Express' }, 'de')).toBe('in 6 h (Express)');
  expect(formatMessage(text, { hours: '24 h', mode: 'standard', name: 'Express' }, 'de')).toBe('in 24 h');
});

test('"#" is an ordinary character outside a plural', () => {
  expect(formatMessage('Nr. #{n}', { n: 5 }, 'de')).toBe('Nr. #5');
});

test('argumentsOf names every value a text takes, inside branches too', () => {
  expect(argumentsOf('{a} {n, plural, one {# {b}} other {{c}}}')).toEqual(['a', 'b', 'c', 'n']);
});

test('malformed texts are refused, so the catalogue test catches them', () => {
  expect(() => argumentsOf('{n, plural, one {# Bild}}')).toThrow(/other/);
  expect(() => argumentsOf('{n, plural, one {# Bild} other {# Bilder}')).toThrow();
  expect(() => argumentsOf('zu viel }')).toThrow();
});
