// Which paths exist and where the others go (spec section 2, route table).
// Later features add their pages here; links to a page that does not exist yet are not rendered.

export type PageKey = 'home' | 'order' | 'success' | 'tracking' | 'orderStatus' | 'admin' | 'kontakt' | 'impressum' | 'datenschutz' | 'agb' | 'barrierefreiheit';

export const PAGES: Readonly<Record<PageKey, string>> = {
  home: '/',
  order: '/order',
  success: '/success',
  tracking: '/tracking',
  orderStatus: '/order-status',
  admin: '/admin',
  kontakt: '/kontakt',
  impressum: '/impressum',
  datenschutz: '/datenschutz',
  agb: '/agb',
  barrierefreiheit: '/barrierefreiheit',
};

/** Pages for search engines (sitemap.xml): public content, not a customer's order or the staff area. */
export const PUBLIC_PAGES: readonly string[] = [PAGES.home, PAGES.tracking, PAGES.kontakt, PAGES.impressum, PAGES.datenschutz, PAGES.agb, PAGES.barrierefreiheit];

/** The wizard's steps by path; /order/ shows gender and /order/features shows the summary (spec). */
export const ORDER_STEP_PATHS = ['gender', 'upload', 'style', 'package', 'refinement', 'features', 'summary'] as const;

/** Everything a link may point at. Targets missing from LINK_TARGETS are not built yet. */
export type LinkKey = PageKey | 'beforeAfter' | 'orderStart';

const LINK_TARGETS: Partial<Record<LinkKey, string>> = {
  home: PAGES.home,
  order: PAGES.order,
  orderStart: '/order/gender',
  success: PAGES.success,
  tracking: PAGES.tracking,
  kontakt: PAGES.kontakt,
  impressum: PAGES.impressum,
  datenschutz: PAGES.datenschutz,
  agb: PAGES.agb,
  barrierefreiheit: PAGES.barrierefreiheit,
};

export function linkTarget(key: LinkKey): string | null {
  return LINK_TARGETS[key] ?? null;
}

export type Resolution = { kind: 'page'; page: PageKey } | { kind: 'redirect'; to: string } | { kind: 'notFound' };

export function resolvePath(pathname: string): Resolution {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  if (path === '/') return { kind: 'page', page: 'home' };
  if (path === '/success') return { kind: 'page', page: 'success' };
  if (path === '/order') return { kind: 'page', page: 'order' };
  if (path === '/tracking') return { kind: 'page', page: 'tracking' };
  for (const page of ['kontakt', 'impressum', 'datenschutz', 'agb', 'barrierefreiheit'] as const) {
    if (path === PAGES[page]) return { kind: 'page', page };
  }
  if (path === '/admin' || path.startsWith('/admin/')) return { kind: 'page', page: 'admin' };
  // The status page itself explains a missing or malformed id (spec: 'Keine Bestell-ID gefunden').
  if (path === '/order-status' || /^\/order-status\/[^/]+$/.test(path)) return { kind: 'page', page: 'orderStatus' };
  if (path.startsWith('/order/')) {
    const step = path.slice('/order/'.length);
    return (ORDER_STEP_PATHS as readonly string[]).includes(step) ? { kind: 'page', page: 'order' } : { kind: 'redirect', to: '/' };
  }
  if (path === '/wizard' || path.startsWith('/wizard/')) return { kind: 'redirect', to: '/order' };
  // A missing file (favicon.ico, an old asset) is a 404, not a page.
  if (/\.[a-z0-9]{1,8}$/i.test(path)) return { kind: 'notFound' };
  return { kind: 'redirect', to: '/' };
}
