// The question asked before an action that cannot be taken back (deleting the photos, a new join link, removing
// a member): the question, the action's button and the way back.
import type { ReactNode } from 'react';

interface ConfirmProps {
  /** Classes beside `confirm`. */
  className?: string;
  /** The question, and its id that names the dialog. */
  question: { id: string; text: ReactNode };
  confirm: { label: ReactNode; testId: string; onClick: () => void; disabled: boolean };
  cancel: { label: ReactNode; onClick: () => void };
  /** The small buttons of a row in a list. */
  small?: boolean;
}

export function ConfirmBox({ className, question, confirm, cancel, small }: ConfirmProps) {
  const size = small ? ' button--small' : '';
  return (
    <div className={className ? `confirm ${className}` : 'confirm'} role="alertdialog" aria-labelledby={question.id}>
      <p id={question.id}>{question.text}</p>
      <div className="confirm__actions">
        <button type="button" className={`button button--danger${size}`} onClick={confirm.onClick} disabled={confirm.disabled} data-testid={confirm.testId}>
          {confirm.label}
        </button>
        <button type="button" className={`button button--secondary${size}`} onClick={cancel.onClick}>
          {cancel.label}
        </button>
      </div>
    </div>
  );
}

/** A button whose action is asked about first: pressed, it gives way to the question while `open`. */
export function ConfirmedButton({ open, onOpen, button, cancelLabel, ...box }: Omit<ConfirmProps, 'cancel'> & {
  open: boolean;
  onOpen: (open: boolean) => void;
  button: { label: ReactNode; className: string; testId: string };
  cancelLabel: ReactNode;
}) {
  if (open) return <ConfirmBox {...box} cancel={{ label: cancelLabel, onClick: () => onOpen(false) }} />;
  return (
    <button type="button" className={button.className} onClick={() => onOpen(true)} data-testid={button.testId}>
      {button.label}
    </button>
  );
}
