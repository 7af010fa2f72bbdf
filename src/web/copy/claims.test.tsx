// "Claims follow capability": without a generator no page promises new clothes; with one, the outfit
// choice and its copy appear. The pages are rendered as the server renders them, in every language.
import { expect, test } from 'vitest';
import { STUDIO_CAPABILITIES, type Capabilities } from '../../domain/capabilities.js';
import { LANGUAGES, type Language } from '../../domain/catalog.js';
import { buildCatalogView } from '../../domain/catalog-view.js';
import type { ExamplePair, SiteInfo } from '../../domain/site.js';
import { CLAIM_KEYS } from './claims.js';
import { render } from '../entry-server.js';
import { ALL_MESSAGES } from '../../i18n/all-messages.js';
import { translate } from '../../i18n/messages.js';

const GENERATOR: Capabilities = { newOutfits: true };
const NOW = new Date('2026-11-20T10:00:00Z');

const SITE: SiteInfo = {
  name: 'Bewerbungsfoto Studio',
  legalName: 'Bewerbungsfoto Studio GmbH',
  supportEmail: 'support@shop.test',
  privacyEmail: 'support@shop.test',
  phone: null,
  address: 'Musterstraße 1, 10115 Berlin',
  vatId: null,
  taxNumber: null,
  responsiblePerson: null,
  registerEntry: null,
  socialLinks: [],
  sisterSites: [],
  generatorName: null,
};

const EXAMPLE: ExamplePair = {
  id: 'studio-professional',
  before: { src: '/examples/astronaut-before.webp', width: 480, height: 600 },
  after: { src: '/examples/studio-professional-after.webp', width: 480, height: 600 },
  style: 'professional',
  location: 'studio',
  credit: 'NASA, public domain',
};

/** The pages that promise what the pictures will be: home (with the package cards), the wizard, the terms, the team order. */
const PAGES = ['/', '/order/gender', '/order/style', '/order/package', '/order/refinement', '/agb', '/team'];

/** Words that promise a chosen outfit, per language. */
const OUTFIT_WORDS: Record<Language, RegExp> = {
  de: /outfit/i,
  en: /outfit/i,
  es: /vestuario|conjunto|outfit/i,
};

async function page(url: string, language: Language, capabilities: Capabilities): Promise<string> {
  const result = await render({
    url,
    language,
    languageFromUrl: false,
    catalog: buildCatalogView(null, NOW),
    site: SITE,
    consent: { analytics: null, chat: null },
    examples: [EXAMPLE],
    capabilities,
    publicUrl: 'http://shop.test',
    now: NOW,
  });
  if (result.kind !== 'page') throw new Error(`${url}: ${result.kind}`);
  // What the visitor reads: the body and the head's description, not the embedded catalogues.
  return `${result.head}\n${result.html}`.replace(/<[^>]+>/g, ' ');
}

/** The words around the first match (so a failure shows where), or null. */
function around(text: string, word: RegExp): string | null {
  const match = word.exec(text);
  return match ? text.slice(Math.max(0, match.index - 80), match.index + 40).replace(/\s+/g, ' ') : null;
}

test.each(LANGUAGES)('without a generator no page promises an outfit (%s)', async (language) => {
  for (const url of PAGES) {
    const text = await page(url, language, STUDIO_CAPABILITIES);
    expect(around(text, OUTFIT_WORDS[language]), `${language} ${url}`).toBeNull();
  }
  // The wizard's refinement step offers the backdrop and no outfit buttons.
  const refinement = await render({
    url: '/order/refinement',
    language,
    languageFromUrl: false,
    catalog: buildCatalogView(null, NOW),
    site: SITE,
    consent: { analytics: null, chat: null },
    examples: [],
    capabilities: STUDIO_CAPABILITIES,
    publicUrl: 'http://shop.test',
    now: NOW,
  });
  // Studio paper and creative colours are what the studio draws; a room only a generator makes.
  expect(refinement.kind === 'page' && refinement.html).toContain('data-testid="location-studio"');
  expect(refinement.kind === 'page' && refinement.html).toContain('data-testid="location-creative"');
  expect(refinement.kind === 'page' && refinement.html).not.toContain('data-testid="location-office"');
  expect(refinement.kind === 'page' && refinement.html).not.toContain('data-testid="outfit-');
});

test.each(LANGUAGES)('with a generator the outfit choice and its copy appear (%s)', async (language) => {
  const home = await page('/', language, GENERATOR);
  expect(home).toMatch(OUTFIT_WORDS[language]);
  const refinement = await page('/order/refinement', language, GENERATOR);
  expect(refinement).toMatch(OUTFIT_WORDS[language]);
  expect(refinement).toContain(translate(language, ALL_MESSAGES[language], 'catalog.locations.office.name'));
  for (const key of ['business', 'smart_casual', 'casual']) expect(refinement).toContain(translate(language, ALL_MESSAGES[language], `catalog.outfits.${key}.name`));
  const terms = await page('/agb', language, GENERATOR);
  expect(terms).toMatch(OUTFIT_WORDS[language]);
  // The team's look: with a generator the company chooses the outfit, and an office, for everyone.
  const team = await page('/team', language, GENERATOR);
  for (const key of ['business', 'smart_casual', 'casual']) expect(team).toContain(translate(language, ALL_MESSAGES[language], `catalog.outfits.${key}.name`));
  expect(team).toContain(translate(language, ALL_MESSAGES[language], 'catalog.locations.office.name'));
});

test.each(LANGUAGES)('a list shows each claim once, in the variant of the mode (%s)', async (language) => {
  const tip = (variant: string) => translate(language, ALL_MESSAGES[language], `guides.applicationPhotos.tips.items.${variant}`);
  const studio = await page('/bewerbungsfotos-erstellen', language, STUDIO_CAPABILITIES);
  expect(studio).toContain(tip('variety'));
  expect(studio).not.toContain(tip('varietyGenerator'));
  const generator = await page('/bewerbungsfotos-erstellen', language, GENERATOR);
  expect(generator).toContain(tip('varietyGenerator'));
  expect(generator.split(tip('varietyGenerator'))).toHaveLength(2);
});

test.each(LANGUAGES)('the examples say what the studio did to them (%s)', async (language) => {
  const home = await page('/', language, STUDIO_CAPABILITIES);
  expect(home).toContain(translate(language, ALL_MESSAGES[language], 'home.examples.made'));
});

test('every claim has its studio and its generator text in every language, with the same placeholders', () => {
  for (const language of LANGUAGES) {
    for (const key of CLAIM_KEYS) {
      for (const variant of [key, `${key}Generator`]) {
        const text = translate(language, ALL_MESSAGES[language], variant);
        expect(text, `${language} ${variant}`).not.toBe(variant);
        expect(text.length, `${language} ${variant}`).toBeGreaterThan(0);
      }
    }
  }
});
