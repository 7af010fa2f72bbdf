// Which paths exist and where the others go (spec section 2, route table).
// Links to a page that does not exist are not rendered (see PageLink).
import type { PageNamespace } from '../i18n/messages.js';

export type GuideKey = 'applicationPhotos' | 'linkedin' | 'aiTest';

export type PageKey =
  | 'home'
  | 'order'
  | 'success'
  | 'tracking'
  | 'orderStatus'
  | 'admin'
  | 'kontakt'
  | 'impressum'
  | 'datenschutz'
  | 'agb'
  | 'barrierefreiheit'
  | 'ueberUns'
  | 'guideApplicationPhotos'
  | 'guideLinkedin'
  | 'guideAiTest'
  | 'widerruf'
  | 'offline'
  | 'team'
  | 'teamStatus'
  | 'teamJoin'
  | 'teamMember';

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
  ueberUns: '/ueber-uns',
  guideApplicationPhotos: '/bewerbungsfotos-erstellen',
  guideLinkedin: '/linkedin-profilbild-erstellen',
  guideAiTest: '/ki-bewerbungsfotos-test',
  widerruf: '/widerruf',
  offline: '/offline',
  // Team orders (issue 17): the company's order form, and the pages behind the links of the mails. The last
  // three have an id or token after their path (resolvePath); their entries here are only their canonical.
  team: '/team',
  teamStatus: '/team/status',
  teamJoin: '/team/join',
  teamMember: '/team/member',
};

/** The pages behind a team's links: one team's, one member's, one join link's; never for search engines. */
const TEAM_LINK_PAGES: readonly PageKey[] = ['teamStatus', 'teamJoin', 'teamMember'];

export const GUIDE_PAGES: Readonly<Record<GuideKey, PageKey>> = {
  applicationPhotos: 'guideApplicationPhotos',
  linkedin: 'guideLinkedin',
  aiTest: 'guideAiTest',
};
export const GUIDE_KEYS = Object.keys(GUIDE_PAGES) as GuideKey[];

/** Pages for search engines (sitemap.xml): public content, not a customer's order or the staff area. */
export const PUBLIC_PAGES: readonly string[] = [
  PAGES.home,
  PAGES.guideApplicationPhotos,
  PAGES.guideLinkedin,
  PAGES.guideAiTest,
  PAGES.tracking,
  PAGES.kontakt,
  PAGES.impressum,
  PAGES.datenschutz,
  PAGES.agb,
  PAGES.barrierefreiheit,
  PAGES.ueberUns,
  PAGES.widerruf,
  PAGES.team,
];

/** The long texts a page needs beyond the core catalogues (embedded with it, loaded with it). */
export const PAGE_MESSAGES: Partial<Record<PageKey, readonly PageNamespace[]>> = {
  impressum: ['legal'],
  datenschutz: ['legal'],
  agb: ['legal'],
  barrierefreiheit: ['legal'],
  ueberUns: ['legal'],
  guideApplicationPhotos: ['guides'],
  guideLinkedin: ['guides'],
  guideAiTest: ['guides'],
  team: ['team'],
  teamStatus: ['team'],
  teamJoin: ['team'],
  teamMember: ['team'],
};

/** The wizard's steps by path; /order/ shows gender and /order/features shows the summary (spec). */
export const ORDER_STEP_PATHS = ['gender', 'upload', 'style', 'package', 'refinement', 'features', 'summary'] as const;

/** Everything a link may point at. Targets missing from LINK_TARGETS do not exist. */
export type LinkKey = PageKey | 'beforeAfter' | 'orderStart';

const LINK_TARGETS: Partial<Record<LinkKey, string>> = {
  ...PAGES,
  beforeAfter: '/#before-after',
  orderStart: '/order/gender',
};
delete LINK_TARGETS.admin;
delete LINK_TARGETS.offline;
for (const page of TEAM_LINK_PAGES) delete LINK_TARGETS[page];

export function linkTarget(key: LinkKey): string | null {
  return LINK_TARGETS[key] ?? null;
}

export type Resolution = { kind: 'page'; page: PageKey } | { kind: 'redirect'; to: string } | { kind: 'notFound' };

const EXACT: ReadonlyMap<string, PageKey> = new Map(
  (Object.entries(PAGES) as [PageKey, string][]).filter(([page]) => page !== 'orderStatus' && page !== 'admin' && !TEAM_LINK_PAGES.includes(page)).map(([page, path]) => [path, page]),
);

export function resolvePath(pathname: string): Resolution {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  const exact = EXACT.get(path);
  if (exact) return { kind: 'page', page: exact };
  if (path === '/admin' || path.startsWith('/admin/')) return { kind: 'page', page: 'admin' };
  // The status page itself explains a missing or malformed id (spec: 'Keine Bestell-ID gefunden').
  if (path === '/order-status' || /^\/order-status\/[^/]+$/.test(path)) return { kind: 'page', page: 'orderStatus' };
  // Like the status page, each team page explains a missing or malformed id or token itself.
  if (/^\/team\/join(\/[^/]+)?$/.test(path)) return { kind: 'page', page: 'teamJoin' };
  if (/^\/team\/member(\/[^/]+)?$/.test(path)) return { kind: 'page', page: 'teamMember' };
  if (/^\/team\/[^/]+$/.test(path)) return { kind: 'page', page: 'teamStatus' };
  if (path.startsWith('/order/')) {
    const step = path.slice('/order/'.length);
    return (ORDER_STEP_PATHS as readonly string[]).includes(step) ? { kind: 'page', page: 'order' } : { kind: 'redirect', to: '/' };
  }
  if (path === '/wizard' || path.startsWith('/wizard/')) return { kind: 'redirect', to: '/order' };
  // A missing file (favicon.ico, an old asset) is a 404, not a page.
  if (/\.[a-z0-9]{1,8}$/i.test(path)) return { kind: 'notFound' };
  return { kind: 'redirect', to: '/' };
}
