import { Suspense, useEffect, type ReactNode } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { AppDataProvider, useAppData, type AppData } from './app-data.js';
import { Footer } from './components/footer.js';
import { NavBar } from './components/nav-bar.js';
import { I18nProvider, useI18n } from './i18n/i18n.js';
import { lazyPage, type LazyPage } from './lazy-page.js';
import { pageTitle } from './meta.js';
import { resolvePath, PAGES } from './routes.js';
import { HomePage } from './routes/home/home-page.js';

const OrderRoutes = lazyPage(() => import('./routes/order/order-routes.js'));
const TrackingPage = lazyPage(() => import('./routes/tracking/tracking-page.js').then((m) => ({ default: m.TrackingPage })));
const OrderStatusPage = lazyPage(() => import('./routes/tracking/order-status-page.js').then((m) => ({ default: m.OrderStatusPage })));
const ContactPage = lazyPage(() => import('./routes/contact/contact-page.js').then((m) => ({ default: m.ContactPage })));
const legal = () => import('./routes/legal/legal-pages.js');
const ImpressumPage = lazyPage(() => legal().then((m) => ({ default: m.ImpressumPage })));
const PrivacyPage = lazyPage(() => legal().then((m) => ({ default: m.PrivacyPage })));
const TermsPage = lazyPage(() => legal().then((m) => ({ default: m.TermsPage })));
const AccessibilityPage = lazyPage(() => legal().then((m) => ({ default: m.AccessibilityPage })));
const AdminRoutes = lazyPage(() => import('./routes/admin/admin-routes.js'));
const SuccessPage = lazyPage(() => import('./routes/order/success-page.js').then((m) => ({ default: m.SuccessPage })));

/** The page module a path needs, so the browser can load it before hydrating (no flash, no mismatch). */
export function pageForPath(pathname: string): LazyPage | null {
  if (pathname.startsWith('/admin')) return AdminRoutes;
  if (pathname.startsWith('/order-status')) return OrderStatusPage;
  if (pathname.startsWith('/order')) return OrderRoutes;
  const byPath: Record<string, LazyPage> = {
    [PAGES.tracking]: TrackingPage,
    [PAGES.kontakt]: ContactPage,
    [PAGES.impressum]: ImpressumPage,
    [PAGES.datenschutz]: PrivacyPage,
    [PAGES.agb]: TermsPage,
    [PAGES.barrierefreiheit]: AccessibilityPage,
    [PAGES.success]: SuccessPage,
  };
  return byPath[pathname.replace(/\/+$/, '')] ?? null;
}

function Loading() {
  return <div className="page-loading" aria-busy="true" />;
}

/** Spec: the page scrolls to the top on each route change, and the title follows the page. */
function RouteEffects() {
  const location = useLocation();
  const { messages } = useI18n();
  const { site, catalog } = useAppData();
  useEffect(() => {
    // Browser tests wait for this before they click: a click before hydration would be lost.
    document.documentElement.dataset.hydrated = 'true';
  }, []);
  useEffect(() => {
    if (!location.hash) window.scrollTo(0, 0);
  }, [location.pathname, location.hash]);
  useEffect(() => {
    const resolution = resolvePath(location.pathname);
    if (resolution.kind === 'page') document.title = pageTitle(resolution.page, messages, site, catalog);
  }, [location.pathname, messages, site, catalog]);
  return null;
}

function Redirects() {
  const location = useLocation();
  const resolution = resolvePath(location.pathname);
  if (resolution.kind === 'redirect') return <Navigate to={resolution.to} replace />;
  return <Navigate to="/" replace />;
}

function Shell() {
  const { t, switching } = useI18n();
  return (
    <div className={`app${switching ? ' app--switching' : ''}`}>
      <a className="skip-link" href="#main">
        {t('common.skipToContent')}
      </a>
      <RouteEffects />
      <NavBar />
      <main id="main" className="main">
        <Routes>
          <Route path={PAGES.home} element={<HomePage />} />
          <Route
            path="/order/*"
            element={
              <Suspense fallback={<Loading />}>
                <OrderRoutes />
              </Suspense>
            }
          />
          <Route
            path={PAGES.tracking}
            element={
              <Suspense fallback={<Loading />}>
                <TrackingPage />
              </Suspense>
            }
          />
          <Route
            path="/order-status/:id?"
            element={
              <Suspense fallback={<Loading />}>
                <OrderStatusPage />
              </Suspense>
            }
          />
          <Route
            path={PAGES.kontakt}
            element={
              <Suspense fallback={<Loading />}>
                <ContactPage />
              </Suspense>
            }
          />
          {(
            [
              [PAGES.impressum, <ImpressumPage key="impressum" />],
              [PAGES.datenschutz, <PrivacyPage key="datenschutz" />],
              [PAGES.agb, <TermsPage key="agb" />],
              [PAGES.barrierefreiheit, <AccessibilityPage key="barrierefreiheit" />],
            ] as const
          ).map(([path, element]) => (
            <Route key={path} path={path} element={<Suspense fallback={<Loading />}>{element}</Suspense>} />
          ))}
          <Route
            path={PAGES.success}
            element={
              <Suspense fallback={<Loading />}>
                <SuccessPage />
              </Suspense>
            }
          />
          <Route path="*" element={<Redirects />} />
        </Routes>
      </main>
      <Footer />
    </div>
  );
}

/** The staff area has its own bar and no public navigation or footer. */
function StaffShell() {
  return (
    <div className="app app--staff">
      <RouteEffects />
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
      <I18nProvider language={data.language} messages={messages}>
        {extra}
        <Routes>
          <Route path="/admin/*" element={<StaffShell />} />
          <Route path="*" element={<Shell />} />
        </Routes>
      </I18nProvider>
    </AppDataProvider>
  );
}
