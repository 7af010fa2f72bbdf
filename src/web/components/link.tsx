// Links to the shop's own pages: React Router's Link and NavLink as this shop uses them. Theirs also prefetch
// the route modules of a framework setup, do view transitions and tell outside addresses apart, which every
// React page downloaded (about 2 KB compressed) and none used: every `to` here is a path of the shop. A plain
// click navigates in the app (the router's own click handling: modifier keys, other targets and middle clicks
// stay the browser's); before the app runs the link works as a plain link.
import type { AnchorHTMLAttributes } from 'react';
import { useHref, useLinkClickHandler, useLocation, useResolvedPath } from 'react-router';

export type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & { to: string; replace?: boolean };

export function Link({ to, replace, target, onClick, ...rest }: LinkProps) {
  const href = useHref(to);
  const navigate = useLinkClickHandler<HTMLAnchorElement>(to, { replace, target });
  return (
    <a
      {...rest}
      href={href}
      target={target}
      onClick={(event) => {
        onClick?.(event);
        if (!event.defaultPrevented) navigate(event);
      }}
    />
  );
}

/** A link that says when its page (or a page below it) is open: aria-current="page" and the class `active`. */
export function NavLink({ className, ...props }: LinkProps) {
  const { pathname } = useLocation();
  const target = useResolvedPath(props.to).pathname;
  const active = pathname === target || (target !== '/' && pathname.startsWith(`${target}/`));
  return <Link {...props} className={[className, active ? 'active' : null].filter(Boolean).join(' ') || undefined} aria-current={active ? 'page' : undefined} />;
}
