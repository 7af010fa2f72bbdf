// What a page shows instead of an order or team it cannot show (no such address, no access, a failed load):
// the reason, and the way home.
import type { ReactNode } from 'react';
import { Link } from './link.js';

export function ProblemPage(props: {
  heading?: ReactNode;
  /** Read out at once (role="alert"); a page that never loaded anything says it quietly. */
  announce?: boolean;
  testId?: string;
  home: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="page page--narrow">
      {props.heading && <h1>{props.heading}</h1>}
      <p className="alert alert--error" role={props.announce === false ? undefined : 'alert'} data-testid={props.testId}>
        {props.children}
      </p>
      <Link to="/" className="button button--secondary">
        {props.home}
      </Link>
    </div>
  );
}
