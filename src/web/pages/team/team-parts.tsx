// What the team pages share: the team's look as rows, the numbered headings of their steps, their text fields,
// and field errors in the team's words.
import type { ComponentProps, InputHTMLAttributes, ReactNode } from 'react';
import { DetailRows } from '../../components/details.js';
import { FormField } from '../../components/form-fields.js';
import { useI18n } from '../../lib/i18n.js';

type Translate = ReturnType<typeof useI18n>['t'];

export interface TeamLook {
  style: string | null;
  location: string | null;
  outfit: string | null;
}

/** Style, and background and outfit where the team has them, as label/value rows. */
export function lookRows(t: Translate, look: TeamLook): [string, string][] {
  return [
    ...(look.style ? ([[t('team.look.style'), t(`catalog.styles.${look.style}.name`)]] as [string, string][]) : []),
    ...(look.location ? ([[t('team.look.location'), t(`catalog.locations.${look.location}.name`)]] as [string, string][]) : []),
    ...(look.outfit ? ([[t('team.look.outfit'), t(`catalog.outfits.${look.outfit}.name`)]] as [string, string][]) : []),
  ];
}

/** The package and the team's look: fixed for every member. */
export function LookRows({ look, packageKey }: { look: TeamLook; packageKey?: string | null }) {
  const { t } = useI18n();
  const rows: [string, string][] = [
    ...(packageKey ? ([[t('team.look.package'), t(`catalog.packages.${packageKey}.name`)]] as [string, string][]) : []),
    ...lookRows(t, look),
  ];
  return <DetailRows rows={rows} />;
}

/** The heading of a numbered step of the order or member page. */
export function NumberedHeading({ id, number, children }: { id: string; number: number; children: ReactNode }) {
  return (
    <h2 id={id} className="team-form__heading">
      <span className="team-form__number" aria-hidden="true">
        {number}
      </span>
      {children}
    </h2>
  );
}

/** Codes the shared error catalogue has no words for (e-mail checks, the team's look), in the team's own texts. */
const OWN_ERRORS = new Set(['emailRequired', 'invalidEmail', 'locationRequired', 'outfitRequired']);

export function useTeamErrorText() {
  const { t } = useI18n();
  return (code: string, vars?: Record<string, string | number>) => {
    if (OWN_ERRORS.has(code)) return t(`team.order.errors.${code}`);
    const text = t(`errors.${code}`, vars);
    return text === `errors.${code}` ? t('errors.unknown') : text;
  };
}

/** A message under a form of the team page: what was done, or why it was not. */
export type Notice = { tone: 'info' | 'error'; text: string } | null;

/** What a text field's control may carry besides its value (a textarea takes `rows`). */
type TextControl = Pick<InputHTMLAttributes<HTMLInputElement>, 'type' | 'autoComplete' | 'autoCapitalize' | 'spellCheck' | 'inputMode' | 'maxLength'> & { rows?: number };

export type TextFieldProps = TextControl & Omit<ComponentProps<typeof FormField>, 'children'> & { testId: string; multiline?: boolean; value: string; onChange: (value: string) => void };

/** A labelled text field of the team pages (a textarea with `multiline`); a change hands on the new text. */
export function TextField({ id, noteId, label, error, hint, hintTestId, testId, multiline, value, onChange, ...control }: TextFieldProps) {
  return (
    <FormField id={id} noteId={noteId} label={label} error={error} hint={hint} hintTestId={hintTestId}>
      {(aria) =>
        multiline ? (
          <textarea id={id} {...control} value={value} onChange={(e) => onChange(e.target.value)} {...aria} data-testid={testId} />
        ) : (
          <input id={id} {...control} value={value} onChange={(e) => onChange(e.target.value)} {...aria} data-testid={testId} />
        )
      }
    </FormField>
  );
}
