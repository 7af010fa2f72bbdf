// The three guide pages (spec: hero, benefits, how it works, examples on the first, price cards, FAQ or the
// comparison with traditional photographers, calls to action to the wizard). Their texts are the "guides"
// catalogue; every number in them comes from the catalogue through copyVars.
import { Fragment, type ReactNode } from 'react';
import type { CatalogView } from '../../../domain/catalog-view.js';
import { useAppData } from '../../app-data.js';
import { BeforeAfter } from '../../components/before-after.js';
import { GuideLinks } from '../../components/guide-links.js';
import { copyVars, type CopyVars } from '../../copy/copy-vars.js';
import { useI18n, useNamespace } from '../../lib/i18n.js';
import type { GuideKey } from '../../routes.js';
import { useCatalog } from '../../lib/use-catalog.js';
import { Cards, Comparison, Faq, FinalCta, Hero, HowItWorks, Pricing, Tips, Verdict, type GuideText } from './guide-sections.js';

/** Texts of one guide with the catalogue's numbers filled in. */
function useGuide(guide: GuideKey): GuideText & { vars: CopyVars; catalog: CatalogView } {
  useNamespace('guides');
  const { t, keys } = useI18n();
  const { site } = useAppData();
  const catalog = useCatalog();
  const vars = copyVars(catalog, site);
  return { vars, catalog, t: (key) => t(`guides.${guide}.${key}`, vars), keys: (key) => keys(`guides.${guide}.${key}`) };
}

/** The sections a guide has of its own, between its benefits and its prices. */
type GuidePart = 'howItWorks' | 'examples' | 'tips' | 'limits' | 'comparison' | 'verdict';

/** A guide: its hero and benefits, its own sections in the given order, then prices, FAQ, call to action and the other guides. */
function GuidePage({ guide, parts }: { guide: GuideKey; parts: readonly GuidePart[] }) {
  const text = useGuide(guide);
  const sections: Record<GuidePart, () => ReactNode> = {
    howItWorks: () => <HowItWorks guide={guide} text={text} />,
    examples: () => <BeforeAfter id="beispiele" title={text.t('examples.title')} text={text.t('examples.text')} />,
    tips: () => <Tips guide={guide} text={text} />,
    limits: () => <Cards guide={guide} text={text} group="limits" />,
    comparison: () => <Comparison text={text} />,
    verdict: () => <Verdict text={text} />,
  };
  return (
    <article className="guide" data-testid={`guide-${guide}`}>
      <Hero guide={guide} text={text} />
      <Cards guide={guide} text={text} group="benefits" />
      {parts.map((part) => (
        <Fragment key={part}>{sections[part]()}</Fragment>
      ))}
      <Pricing guide={guide} catalog={text.catalog} />
      <Faq guide={guide} text={text} />
      <FinalCta guide={guide} text={text} />
      <GuideLinks except={guide} headingId={`${guide}-guides-title`} />
    </article>
  );
}

export function ApplicationPhotosGuide() {
  return <GuidePage guide="applicationPhotos" parts={['howItWorks', 'examples', 'tips']} />;
}

export function LinkedinGuide() {
  return <GuidePage guide="linkedin" parts={['howItWorks', 'tips']} />;
}

export function AiTestGuide() {
  return <GuidePage guide="aiTest" parts={['limits', 'comparison', 'verdict', 'howItWorks']} />;
}
