// The terms as the server renders them: the team-order section for businesses (issue 17) in every language,
// its facts taken from the catalogue, and the consumer sections still in place around it.
import { expect, test } from 'vitest';
import { STUDIO_CAPABILITIES } from '../../../domain/capabilities.js';
import { LANGUAGES, RETENTION, VAT_RATE_PERCENT, type Language } from '../../../domain/catalog.js';
import { buildCatalogView } from '../../../domain/catalog-view.js';
import type { SiteInfo } from '../../../domain/site.js';
import { ALL_MESSAGES } from '../../../i18n/all-messages.js';
import { translate } from '../../../i18n/messages.js';
import { render } from '../../entry-server.js';

const NOW = new Date('2026-11-25T10:00:00Z');
const SITE: SiteInfo = {
  name: 'Bewerbungsfoto Studio',
  legalName: 'Bewerbungsfoto Studio GmbH',
  supportEmail: 'support@shop.test',
  privacyEmail: 'support@shop.test',
  phone: null,
  address: 'Musterstraße 1, 10115 Berlin',
  vatId: 'DE136695976',
  taxNumber: null,
  responsiblePerson: null,
  registerEntry: null,
  socialLinks: [],
  sisterSites: [],
  generatorName: null,
};

async function page(url: string, language: Language): Promise<string> {
  const result = await render({
    url,
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
  if (result.kind !== 'page') throw new Error(`${url}: ${result.kind}`);
  return result.html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/\s+/g, ' ');
}

const terms = (language: Language) => page('/agb', language);

const TEAM_FACTS: Record<Language, string[]> = {
  de: ['§ 14 Team-Bestellungen für Unternehmen', '(§ 14 BGB)', 'Ein Widerrufsrecht besteht bei Team-Bestellungen nicht', '(§ 312g BGB)', `Nettopreise zuzüglich der gesetzlichen Umsatzsteuer von derzeit ${VAT_RATE_PERCENT} %`, 'Reverse-Charge-Verfahren', 'Art. 196 MwStSystRL', 'willigt beim Beitritt selbst', 'Die hochgeladenen Fotos Ihrer Teammitglieder sehen Sie nie', `${RETENTION.daysAfterCompletion} Tage nach Abschluss seiner Bestellung`, 'Mit dem Premium Paket und bei Team-Bestellungen (§ 14) erhalten Sie zusätzlich eine kommerzielle Lizenz', 'für jeden Platz die kommerzielle Lizenz nach § 9', 'Nicht genutzte Plätze bleiben über den Link Ihres Teams nutzbar', 'unter support@shop.test anfragen', '§ 15 Schlussbestimmungen'],
  en: ['§ 14 Team orders for businesses', '(section 14 BGB)', 'There is no right of withdrawal for team orders', 'section 312g BGB', `net prices plus the statutory VAT of currently ${VAT_RATE_PERCENT} %`, 'reverse charge procedure', 'Art. 196 Council Directive 2006/112/EC', 'consents themselves', 'You never see your team members', `${RETENTION.daysAfterCompletion} days after their order is completed`, 'With the Premium package and with team orders (§ 14) you also receive a commercial licence', 'the commercial licence under § 9 for every seat', 'Unused seats remain usable', 'refund at support@shop.test', '§ 15 Final provisions'],
  es: ['§ 14 Pedidos de equipo para empresas', '(artículo 14 BGB)', 'En los pedidos de equipo no hay derecho de desistimiento', 'artículo 312g BGB', `precios netos más el IVA legal, actualmente del ${VAT_RATE_PERCENT} %`, 'inversión del sujeto pasivo', 'art. 196 de la Directiva 2006/112/CE', 'da él mismo, al unirse, su consentimiento', 'Nunca ves las fotos que suben los miembros de tu equipo', `${RETENTION.daysAfterCompletion} días después de que finalice su pedido`, 'y con los pedidos de equipo (§ 14) recibes además una licencia comercial', 'la licencia comercial del § 9 para cada plaza', 'Las plazas que no se usen pueden seguir utilizándose', 'reembolso en support@shop.test', '§ 15 Disposiciones finales'],
};

test.each(LANGUAGES)('the terms have a section for team orders by businesses, between privacy and the final provisions (%s)', async (language) => {
  const text = await terms(language);
  const heading = (n: number) => translate(language, ALL_MESSAGES[language], `legal.terms.s${n}.heading`);
  for (const fact of TEAM_FACTS[language]) expect(text, `${language}: ${fact}`).toContain(fact);
  // Every section once, in order; the consumer's withdrawal information is still there.
  const positions = Array.from({ length: 15 }, (_, i) => text.indexOf(heading(i + 1)));
  for (const [i, position] of positions.entries()) expect(position, `${language} § ${i + 1}`).toBeGreaterThan(-1);
  expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  expect(text).toContain(translate(language, ALL_MESSAGES[language], 'legal.terms.s12.intro'));
  expect(text).toContain(translate(language, ALL_MESSAGES[language], 'legal.terms.s15.p1'));
  // Scope: the offer is for consumers, team orders alone for businesses.
  expect(text).toContain(translate(language, ALL_MESSAGES[language], 'legal.terms.s1.p2'));
  expect(text).toContain(translate(language, ALL_MESSAGES[language], 'legal.terms.s1.p3'));
});

test.each(LANGUAGES)('the privacy policy says what a team order processes, on which basis, and what the buyer sees (%s)', async (language) => {
  const text = await page('/datenschutz', language);
  const say = (key: string, vars?: Record<string, number>) => translate(language, ALL_MESSAGES[language], `legal.privacy.order.team.${key}`, vars);
  for (const key of ['heading', 'p1', 'p2', 'p3']) expect(text, `${language}: ${key}`).toContain(say(key));
  expect(text).toContain(say('p4', { days: RETENTION.daysAfterCompletion }));
  // The team part sits in the order section, before the photos section.
  expect(text.indexOf(say('heading'))).toBeLessThan(text.indexOf(translate(language, ALL_MESSAGES[language], 'legal.privacy.photos.heading')));
});
