import { Suspense, useEffect, useRef, type ReactNode } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { AppDataProvider, useAppData, type AppData } from './app-data.js';
import { ConsentProvider } from './components/consent.js';
import { ErrorBoundary } from './components/error-boundary.js';
import { Footer } from './components/footer.js';
import { NavBar } from './components/nav-bar.js';
import { UpdateNotice } from './components/update-notice.js';
import { I18nProvider, useI18n } from './lib/i18n.js';
import { lazyPage, type LazyPage } from './shell/lazy-page.js';
import { trackPageView } from './lib/metrics.js';
import { resolvePath, PAGES, type PageKey } from './routes.js';
import { OfflinePage } from './pages/offline/offline-page.js';
import { stepPageForPath } from './pages/order/order-steps.js';

// The home page comes without the client application (static-page-data.ts) unless a service needing consent is
// configured, so the app loads it on demand too.
const HomePage = lazyPage(() => import('./pages/home/home-page.js').then((m) => ({ default: m.HomePage })));
const OrderRoutes = lazyPage(() => import('./pages/order/order-routes.js'));
const TrackingPage = lazyPage(() => import('./pages/tracking/tracking-page.js').then((m) => ({ default: m.TrackingPage })));
const OrderStatusPage = lazyPage(() => import('./pages/tracking/order-status-page.js').then((m) => ({ default: m.OrderStatusPage })));
const ContactPage = lazyPage(() => import('./pages/contact/contact-page.js').then((m) => ({ default: m.ContactPage })));
const ImpressumPage = lazyPage(() => import('./pages/legal/impressum-page.js').then((m) => ({ default: m.ImpressumPage })));
const PrivacyPage = lazyPage(() => import('./pages/legal/privacy-page.js').then((m) => ({ default: m.PrivacyPage })));
const TermsPage = lazyPage(() => import('./pages/legal/terms-page.js').then((m) => ({ default: m.TermsPage })));
const AccessibilityPage = lazyPage(() => import('./pages/legal/accessibility-page.js').then((m) => ({ default: m.AccessibilityPage })));
const AboutPage = lazyPage(() => import('./pages/legal/about-page.js').then((m) => ({ default: m.AboutPage })));
const guides = () => import('./pages/guides/guide-pages.js');
const ApplicationPhotosGuide = lazyPage(() => guides().then((m) => ({ default: m.ApplicationPhotosGuide })));
const LinkedinGuide = lazyPage(() => guides().then((m) => ({ default: m.LinkedinGuide })));
const AiTestGuide = lazyPage(() => guides().then((m) => ({ default: m.AiTestGuide })));
const WithdrawalPage = lazyPage(() => import('./pages/withdrawal/withdrawal-page.js').then((m) => ({ default: m.WithdrawalPage })));
const AdminRoutes = lazyPage(() => import('./pages/admin/admin-routes.js'));
const SuccessPage = lazyPage(() => import('./pages/order/success-page.js').then((m) => ({ default: m.SuccessPage })));
const TeamOrderPage = lazyPage(() => import('./pages/team/team-order-page.js').then((m) => ({ default: m.TeamOrderPage })));
const TeamPage = lazyPage(() => import('./pages/team/team-page.js').then((m) => ({ default: m.TeamPage })));
const TeamJoinPage = lazyPage(() => import('./pages/team/team-join-page.js').then((m) => ({ default: m.TeamJoinPage })));
const TeamMemberPage = lazyPage(() => import('./pages/team/team-member-page.js').then((m) => ({ default: m.TeamMemberPage })));

/** Pages with one fixed path, loaded on demand. */
const LAZY_PAGES: Partial<Record<PageKey, LazyPage>> = {
  home: HomePage,
  tracking: TrackingPage,
  kontakt: ContactPage,
  impressum: ImpressumPage,
  datenschutz: PrivacyPage,
  agb: TermsPage,
  barrierefreiheit: AccessibilityPage,
  ueberUns: AboutPage,
  guideApplicationPhotos: ApplicationPhotosGuide,
  guideLinkedin: LinkedinGuide,
  guideAiTest: AiTestGuide,
  widerruf: WithdrawalPage,
  success: SuccessPage,
  team: TeamOrderPage,
};

/** Pages whose path carries an id or a token (routes.ts resolves them). */
const LINK_PAGES: Partial<Record<PageKey, LazyPage>> = {
  teamStatus: TeamPage,
  teamJoin: TeamJoinPage,
  teamMember: TeamMemberPage,
};

/** The page module a path needs, so the browser can load it before hydrating (no flash, no mismatch). */
export function pageForPath(pathname: string): Pick<LazyPage, 'preload'> | null {
  if (pathname.startsWith('/admin')) return AdminRoutes;
  if (pathname.startsWith('/order-status')) return OrderStatusPage;
  if (pathname.startsWith('/order')) {
    // The wizard's module and the step's own, when the step loads on demand.
    const step = stepPageForPath(pathname);
    return step ? { preload: () => Promise.all([OrderRoutes.preload(), step.preload()]).then(() => undefined) } : OrderRoutes;
  }
  const resolution = resolvePath(pathname);
  return resolution.kind === 'page' ? (LAZY_PAGES[resolution.page] ?? LINK_PAGES[resolution.page] ?? null) : null;
}

function Loading() {
  return <div className="page-loading" aria-busy="true" />;
}

/** Spec: the page scrolls to the top on each route change (or to its #anchor), the title follows the page, and every view is counted. */
function RouteEffects({ countViews }: { countViews: boolean }) {
  const location = useLocation();
  const { messages, language } = useI18n();
  const { site, catalog } = useAppData();
  useEffect(() => {
    // Browser tests wait for this before they click: a click before hydration would be lost.
    document.documentElement.dataset.hydrated = 'true';
  }, []);
  useEffect(() => {
    if (!location.hash) {
      window.scrollTo(0, 0);
      return;
    }
    document.getElementById(decodeURIComponent(location.hash.slice(1)))?.scrollIntoView();
  }, [location.pathname, location.hash]);
  // The server's HTML has the first page's title; the titles of the pages and languages that follow come
  // from meta.ts, loaded with the first change.
  const firstTitle = useRef(true);
  useEffect(() => {
    if (firstTitle.current) {
      firstTitle.current = false;
      return;
    }
    const resolution = resolvePath(location.pathname);
    if (resolution.kind !== 'page') return;
    let current = true;
    import('./meta.js').then(
      (meta) => {
        if (current) document.title = meta.pageTitle(resolution.page, language, messages, site, catalog);
      },
      () => {
        // Not loaded (offline): the previous title stays.
      },
    );
    return () => {
      current = false;
    };
  }, [location.pathname, language, messages, site, catalog]);
  useEffect(() => {
    if (countViews) trackPageView(location.pathname, language);
    // Counted once per page, not again when the language changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [location.pathname]);
  return null;
}

function Redirects() {
  const location = useLocation();
  const resolution = resolvePath(location.pathname);
  if (resolution.kind === 'redirect') return <Navigate to={resolution.to} replace />;
  return <Navigate to="/" replace />;
}

function Lazy({ page: Page }: { page: LazyPage }) {
  return (
    <Suspense fallback={<Loading />}>
      <Page />
    </Suspense>
  );
}

function Shell() {
  const { t, switching } = useI18n();
  const location = useLocation();
  return (
    <ConsentProvider>
      <div className={`app${switching ? ' app--switching' : ''}`}>
        <a className="skip-link" href="#main">
          {t('common.skipToContent')}
        </a>
        <RouteEffects countViews />
        <NavBar />
        <main id="main" className="main">
          <ErrorBoundary resetKey={location.pathname}>
            <Routes>
              <Route path="/order/*" element={<Lazy page={OrderRoutes} />} />
              <Route path="/order-status/:id?" element={<Lazy page={OrderStatusPage} />} />
              <Route path={PAGES.offline} element={<OfflinePage />} />
              <Route path="/team/join/:token?" element={<Lazy page={TeamJoinPage} />} />
              <Route path="/team/member/:id?" element={<Lazy page={TeamMemberPage} />} />
              <Route path="/team/:id" element={<Lazy page={TeamPage} />} />
              {(Object.entries(LAZY_PAGES) as [PageKey, LazyPage][]).map(([page, component]) => (
                <Route key={page} path={PAGES[page]} element={<Lazy page={component} />} />
              ))}
              <Route path="*" element={<Redirects />} />
            </Routes>
          </ErrorBoundary>
        </main>
        <Footer />
        <UpdateNotice />
      </div>
    </ConsentProvider>
  );
}

/** The staff area has its own bar and no public navigation or footer. */
function StaffShell() {
  return (
    <div className="app app--staff">
      <RouteEffects countViews={false} />
      <main id="main" className="main main--staff">
        <Suspense fallback={<Loading />}>
          <AdminRoutes />
        </Suspense>
      </main>
    </div>
  );
}

export function App({ data, extra }: { data: AppData; extra?: ReactNode }) {
  const { messages, ...rest } = data;
  return (
    <AppDataProvider data={rest}>
      <I18nProvider language={data.language} messages={messages} capabilities={data.capabilities}>
        {extra}
        <Routes>
          <Route path="/admin/*" element={<StaffShell />} />
          <Route path="*" element={<Shell />} />
        </Routes>
      </I18nProvider>
    </AppDataProvider>
  );
}
