// The building blocks of the legal texts: translated paragraphs, lists and sections, with {slot} markers
// filled by links and e-mail addresses.
import { Fragment, type ReactNode } from 'react';
import { useI18n } from '../../lib/i18n.js';

type Vars = Record<string, string | number>;
type Slots = Record<string, ReactNode>;

/** Replaces {slot} markers left in a translated text by React nodes (links, e-mail addresses). */
function fillSlots(text: string, slots: Slots): ReactNode {
  return text.split(/(\{\w+\})/).map((part, index) => {
    const name = /^\{(\w+)\}$/.exec(part)?.[1];
    return <Fragment key={index}>{name !== undefined && name in slots ? slots[name] : part}</Fragment>;
  });
}

/** One translated text; `slots` puts elements where the text has {name} markers. */
function Text(props: { k: string; vars?: Vars; slots?: Slots }) {
  const { t } = useI18n();
  const text = t(props.k, props.vars);
  return <>{props.slots ? fillSlots(text, props.slots) : text}</>;
}

export function P(props: { k: string; vars?: Vars; slots?: Slots }) {
  return (
    <p>
      <Text {...props} />
    </p>
  );
}

/** Paragraphs `${base}.p1` … `${base}.p${count}`. */
export function Paragraphs(props: { base: string; count: number; vars?: Vars; slots?: Slots }) {
  return (
    <>
      {Array.from({ length: props.count }, (_, i) => (
        <P key={i} k={`${props.base}.p${i + 1}`} vars={props.vars} slots={props.slots} />
      ))}
    </>
  );
}

/** A bulleted list of `${base}.${item}` texts. */
export function List(props: { base: string; items: readonly string[]; vars?: Vars; slots?: Slots }) {
  return (
    <ul className="legal__list">
      {props.items.map((item) => (
        <li key={item}>
          <Text k={`${props.base}.${item}`} vars={props.vars} slots={props.slots} />
        </li>
      ))}
    </ul>
  );
}

export function Section(props: { id: string; title: string; children: ReactNode }) {
  return (
    <section className="legal__section" aria-labelledby={props.id}>
      <h2 id={props.id}>{props.title}</h2>
      {props.children}
    </section>
  );
}

/** A section of paragraphs only: its heading `${base}.heading`, its paragraphs `${base}.p1` … `${base}.p${count}`. */
export function ParagraphSection(props: { id: string; base: string; count: number; vars?: Vars; slots?: Slots }) {
  const { t } = useI18n();
  const { id, base, ...paragraphs } = props;
  return (
    <Section id={id} title={t(`${base}.heading`)}>
      <Paragraphs base={base} {...paragraphs} />
    </Section>
  );
}

export function Sub(props: { title: string; children: ReactNode }) {
  return (
    <>
      <h3>{props.title}</h3>
      {props.children}
    </>
  );
}
