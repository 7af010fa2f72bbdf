import type { ReactNode } from 'react';
import { Link } from './link.js';
import type { MetricEvent } from '../../domain/metrics.js';
import { trackEvent } from '../lib/metrics.js';
import { linkTarget, type LinkKey } from '../routes.js';

/** The attributes that let a page served without React count a click too (static-page.ts reads them). */
export function eventAttributes(event: MetricEvent | undefined, detail?: string): Record<string, string> {
  if (!event) return {};
  return { 'data-event': event, ...(detail === undefined ? {} : { 'data-event-detail': detail }) };
}

/** A link to a page of the shop; renders nothing while that page does not exist. A click counts `event`. */
export function PageLink(props: { to: LinkKey; className?: string; children: ReactNode; event?: MetricEvent; eventDetail?: string; 'aria-current'?: 'page' }) {
  const target = linkTarget(props.to);
  if (!target) return null;
  const { event, eventDetail } = props;
  return (
    <Link
      to={target}
      className={props.className}
      onClick={event ? () => trackEvent(event, eventDetail) : undefined}
      aria-current={props['aria-current']}
      {...eventAttributes(event, eventDetail)}
    >
      {props.children}
    </Link>
  );
}
