// One answer of a choice step (choice-steps.tsx); the team order and a member's page offer their choices with it
// too, without loading the wizard's steps.
import type { ReactNode } from 'react';

export function ChoiceButton(props: { selected: boolean; onClick: () => void; title: string; description?: string; badge?: string; extra?: ReactNode; testId: string }) {
  return (
    <button type="button" className={`choice${props.selected ? ' choice--selected' : ''}`} aria-pressed={props.selected} onClick={props.onClick} data-testid={props.testId}>
      {props.badge && <span className="choice__badge">{props.badge}</span>}
      <span className="choice__title">{props.title}</span>
      {props.description && <span className="choice__description">{props.description}</span>}
      {props.extra}
    </button>
  );
}
