// Before/after pairs from the examples manifest (configuration): the home page's section and the first
// guide's examples. Without pairs nothing is shown, and no link points here.
import type { ReactNode } from 'react';
import type { ExampleImage, ExamplePair } from '../../domain/site.js';
import { useAppData } from '../app-data.js';
import { useI18n } from '../lib/i18n.js';

/** Each image is shown about 190 px wide (two to a card, cards at least 320 px): half the phone's width. */
const SIZES = '(min-width: 720px) 200px, 46vw';

/** The image's narrower variant beside it, for the browser to pick by the screen. */
function sources(image: ExampleImage) {
  return image.small ? { srcSet: `${image.small.src} ${image.small.width}w, ${image.src} ${image.width}w`, sizes: SIZES } : {};
}

function Pair({ pair }: { pair: ExamplePair }) {
  const { t } = useI18n();
  const style = t(`catalog.styles.${pair.style}.name`);
  const location = t(`catalog.locations.${pair.location}.name`);
  return (
    <li className="before-after__pair" data-testid="before-after-pair">
      <figure className="before-after__figure">
        <div className="before-after__images">
          <div className="before-after__image">
            <img src={pair.before.src} {...sources(pair.before)} width={pair.before.width} height={pair.before.height} alt={t('home.examples.beforeAlt')} loading="lazy" decoding="async" />
            <span className="before-after__label">{t('home.examples.before')}</span>
          </div>
          <div className="before-after__image">
            <img src={pair.after.src} {...sources(pair.after)} width={pair.after.width} height={pair.after.height} alt={t('home.examples.afterAlt', { style, location })} loading="lazy" decoding="async" />
            <span className="before-after__label before-after__label--after">{t('home.examples.after')}</span>
          </div>
        </div>
        <figcaption className="before-after__caption">
          {t('home.examples.caption', { style, location })}
          {/* What was done to the example (scripts/make-examples.ts runs the studio pipeline). */}
          <span className="before-after__made">{t('home.examples.made')}</span>
          <span className="before-after__credit">{t('home.examples.credit', { credit: pair.credit })}</span>
        </figcaption>
      </figure>
    </li>
  );
}

export function BeforeAfter(props: { id?: string; title: string; text: string; cta?: ReactNode }) {
  const { examples } = useAppData();
  if (!examples.length) return null;
  return (
    <section className="section before-after" id={props.id} aria-labelledby={`${props.id ?? 'examples'}-title`}>
      <h2 id={`${props.id ?? 'examples'}-title`} className="section__title">
        {props.title}
      </h2>
      <p className="section__subtitle">{props.text}</p>
      <ul className="before-after__list">
        {examples.map((pair) => (
          <Pair key={pair.id} pair={pair} />
        ))}
      </ul>
      {props.cta && <p className="before-after__cta">{props.cta}</p>}
    </section>
  );
}
