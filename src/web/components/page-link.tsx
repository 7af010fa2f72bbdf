import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { linkTarget, type LinkKey } from '../routes.js';

/** A link to a page of the shop; renders nothing while that page does not exist. */
export function PageLink(props: { to: LinkKey; className?: string; children: ReactNode; onClick?: () => void; 'aria-current'?: 'page' }) {
  const target = linkTarget(props.to);
  if (!target) return null;
  return (
    <Link to={target} className={props.className} onClick={props.onClick} aria-current={props['aria-current']}>
      {props.children}
    </Link>
  );
}
