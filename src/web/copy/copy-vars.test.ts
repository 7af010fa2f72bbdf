import { expect, test } from 'vitest';
import { LANGUAGES } from '../../domain/catalog.js';
import { buildCatalogView } from '../../domain/catalog-view.js';
import type { SiteInfo } from '../../domain/site.js';
import { ALL_MESSAGES } from '../../i18n/all-messages.js';
import { translate } from '../../i18n/messages.js';
import { copyVars } from './copy-vars.js';

function keys(node: unknown, prefix = ''): string[] {
  if (typeof node === 'string') return [prefix];
  return Object.entries(node as object).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
}

function placeholders(text: string): string[] {
  return [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!).sort();
}

test('marketing copy quotes numbers only through the catalogue placeholders', () => {
  const catalog = buildCatalogView(null, new Date());
  const site = { name: 'X' } as SiteInfo;
  const allowed = Object.keys(copyVars(catalog, site)).sort();
  for (const lang of LANGUAGES) {
    const pages = ALL_MESSAGES[lang].common.meta.pages;
    const copy = { guides: ALL_MESSAGES[lang].guides, guideLinks: ALL_MESSAGES[lang].common.guides, meta: [pages.guideApplicationPhotos, pages.guideLinkedin, pages.guideAiTest] };
    for (const key of keys(copy)) {
      const text = translate(lang, copy as never, key);
      for (const name of placeholders(text)) expect(allowed, `${lang}:${key}`).toContain(name);
      // A price, a delivery time or a count written out would drift from the catalogue.
      expect(text.replace(/\{\w+\}/g, ''), `${lang}:${key}`).not.toMatch(/\d/);
    }
  }
});

