// The sections the home page and the guides are made of: a titled section, its numbered steps and its cards.
import type { ReactNode } from 'react';

/** A section under a heading (`id` is the heading's), with an optional subtitle; `anchor` is the section's own id. */
export function TitledSection(props: { className: string; id: string; title: ReactNode; subtitle?: ReactNode; anchor?: string; children: ReactNode }) {
  return (
    <section className={props.className} id={props.anchor} aria-labelledby={props.id}>
      <h2 id={props.id} className="section__title">
        {props.title}
      </h2>
      {props.subtitle !== undefined && <p className="section__subtitle">{props.subtitle}</p>}
      {props.children}
    </section>
  );
}

export interface TitledItem {
  key: string;
  title: string;
  text: string;
}

/** Items whose title and text `say` gives as `${key}.title` and `${key}.text`. */
export function titledItems(keys: readonly string[], say: (key: string) => string): TitledItem[] {
  return keys.map((key) => ({ key, title: say(`${key}.title`), text: say(`${key}.text`) }));
}

/** "How it works": numbered steps, each with its title and text. */
export function StepList({ steps }: { steps: TitledItem[] }) {
  return (
    <ol className="steps__list">
      {steps.map((step, index) => (
        <li key={step.key} className="steps__item">
          <span className="steps__number" aria-hidden="true">
            {index + 1}
          </span>
          <h3 className="steps__title">{step.title}</h3>
          <p>{step.text}</p>
        </li>
      ))}
    </ol>
  );
}

/** A grid of cards, each with its title and text. */
export function CardGrid({ className, cards }: { className: string; cards: TitledItem[] }) {
  return (
    <ul className={className}>
      {cards.map((card) => (
        <li key={card.key} className="features__card">
          <h3>{card.title}</h3>
          <p>{card.text}</p>
        </li>
      ))}
    </ul>
  );
}
