// Texts that promise what the pictures will show exist twice: the plain key says what the studio really
// does (the customer's own photo, framed, cut out, on a new backdrop, tone balanced: clothes and light stay
// as photographed), and `<key>Generator` promises what an identity-preserving generator makes (a chosen
// outfit, a new setting). The I18nProvider picks the variant from the shop's capabilities, so no call site
// can forget it; claims.test.tsx checks that both variants exist in every language.
import type { Capabilities } from '../../domain/capabilities.js';

export const CLAIM_KEYS: ReadonlySet<string> = new Set([
  'home.hero.subtitle',
  'home.steps.choose.text',
  'home.pricing.refinement',
  'catalog.packages.pro.description',
  'order.steps.refinement',
  'order.gender.subtitle',
  'order.style.subtitle',
  'catalog.styles.professional.description',
  'catalog.styles.casual.description',
  'catalog.styles.creative.description',
  'order.refinement.title',
  'order.refinement.subtitle',
  'order.refinement.locationTitle',
  'order.refinement.required',
  'order.summary.location',
  'legal.terms.s3.p1',
  'legal.terms.s4.p1',
  'legal.terms.s4.packageLine',
  'legal.terms.s4.features.refinement',
  'legal.terms.s4.more.p1',
  'guides.applicationPhotos.benefits.items.clothing.text',
  'guides.applicationPhotos.benefits.items.background.text',
  'guides.applicationPhotos.howItWorks.steps.choose.text',
  'guides.applicationPhotos.tips.items.variety',
  'guides.applicationPhotos.faq.items.whichPackage.a',
  'guides.linkedin.howItWorks.steps.style.text',
  'guides.linkedin.faq.items.style.a',
  'guides.aiTest.benefits.items.variety.text',
  'guides.aiTest.comparison.rows.choice.aspect',
  'guides.aiTest.comparison.rows.choice.ai',
  'guides.aiTest.howItWorks.steps.choose.text',
]);

/** The key to show for `key` with these capabilities. */
export function claimKey(key: string, capabilities: Capabilities): string {
  return capabilities.newOutfits && CLAIM_KEYS.has(key) ? `${key}Generator` : key;
}

/** Whether `key` is the generator variant of a claim (not a text of its own). */
export function isClaimVariant(key: string): boolean {
  return key.endsWith('Generator') && CLAIM_KEYS.has(key.slice(0, -'Generator'.length));
}
