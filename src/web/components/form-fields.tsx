// The parts the order and team forms share: a labelled field whose error takes the place of its hint, a
// checkbox to be ticked before sending (the order's waiver, the photo consent, the team's business
// confirmation), and the submit button under the error of sending.
import type { ReactNode, Ref } from 'react';

/** What a field's control carries: whether it is invalid, and the error or hint that describes it. */
export interface FieldAria {
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

/**
 * A labelled field: the control `children` renders with the given aria attributes, then its error in place of
 * its hint. The two are `${noteId}-error` and `${noteId}-hint`; noteId is the control's id unless given.
 */
export function FormField(props: {
  id: string;
  noteId?: string;
  label: ReactNode;
  error?: ReactNode;
  hint?: ReactNode;
  hintTestId?: string;
  children: (aria: FieldAria) => ReactNode;
}) {
  const { error, hint } = props;
  const noteId = props.noteId ?? props.id;
  return (
    <div className="field">
      <label htmlFor={props.id}>{props.label}</label>
      {props.children({ 'aria-invalid': error ? true : undefined, 'aria-describedby': error ? `${noteId}-error` : hint ? `${noteId}-hint` : undefined })}
      {error ? (
        <p id={`${noteId}-error`} className="field__error" role="alert">
          {error}
        </p>
      ) : hint ? (
        <p id={`${noteId}-hint`} className="field__hint" data-testid={props.hintTestId}>
          {hint}
        </p>
      ) : null}
    </div>
  );
}

/** The error shown under a checkbox: its id, which the checkbox names in aria-describedby, and its text. */
export interface CheckboxError {
  id: string;
  text: ReactNode;
}

/** A checkbox with its text and, while it is shown, the error under it that describes the checkbox. */
export function CheckboxField({ id, ref, checked, onChange, error, testId, children }: {
  id?: string;
  ref?: Ref<HTMLInputElement>;
  checked: boolean;
  onChange: (checked: boolean) => void;
  error?: CheckboxError | null;
  testId: string;
  children: ReactNode;
}) {
  return (
    <>
      <label className={`consent${error ? ' consent--error' : ''}`}>
        <input
          ref={ref}
          id={id}
          type="checkbox"
          checked={checked}
          onChange={(e) => onChange(e.target.checked)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error?.id}
          data-testid={testId}
        />
        <span>{children}</span>
      </label>
      {error && (
        <p id={error.id} className="field__error" role="alert">
          {error.text}
        </p>
      )}
    </>
  );
}

/** The error of sending the form, if there is one, and the submit button (its text says so while the form is sent). */
export function SubmitButton(props: { error: string | null; errorTestId: string; submitting: boolean; testId: string; children: ReactNode }) {
  return (
    <>
      {props.error && (
        <p className="alert alert--error" role="alert" data-testid={props.errorTestId}>
          {props.error}
        </p>
      )}
      <button type="submit" className="button button--primary button--large button--block" disabled={props.submitting} data-testid={props.testId}>
        {props.children}
      </button>
    </>
  );
}
