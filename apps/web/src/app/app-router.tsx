import type { MenuNode } from '@shuzhi/contracts/menu';
import { lazy, type ReactNode, Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Route, Routes, useSearchParams } from 'react-router';
import { PageLoading } from '../components/page-loading.tsx';
import { loadPageLocales } from '../platform/i18n/i18n.ts';
import { useBranding } from '../platform/profile/profile.ts';
import { GuestOnly, RequireAuth } from './guards/guards.tsx';
import { DashboardGate, HomeIndex } from './home-route.tsx';
import { DASHBOARD_PATH, NO_LOGIN_PATHS } from './navigation.ts';
import { useRouteTable } from './route-table.ts';
import { STATIC_PAGES } from './static-routes.ts';

/** A page outside the login page: the features' texts and dayjs load with it. */
function withPageLocales<T>(page: () => Promise<T>): () => Promise<T> {
  return () => Promise.all([page(), loadPageLocales()]).then(([module]) => module);
}

// The page behind a menu (a view, an embedded or an external link): comes with the shell.
const loadMenuPage = () => import('./layout/menu-page.tsx');
const MenuPage = lazy(() => loadMenuPage().then((module) => ({ default: module.MenuPage })));
const ViewByKey = lazy(() => loadMenuPage().then((module) => ({ default: module.ViewByKey })));

// The signed-in shell (menus, tabs, settings drawer, realtime) loads after sign-in: the login page needs none of it.
const LayoutShell = lazy(
  withPageLocales(() =>
    Promise.all([import('./layout/layout-shell.tsx'), loadMenuPage()]).then(([module]) => ({
      default: module.LayoutShell,
    })),
  ),
);
const loadLoginPage = () => import('../features/auth/login.page.tsx');
const LoginPage = lazy(loadLoginPage);

/** Starts fetching the login page while the first language loads, instead of after the first render. */
export function preloadFirstPage(pathname: string): void {
  if (pathname === '/login') void loadLoginPage();
}
const ScanConfirmPage = lazy(withPageLocales(() => import('../features/auth/scan-confirm.page.tsx')));
const RowConfirmPage = lazy(withPageLocales(() => import('../features/diy-confirm/row-confirm.page.tsx')));
const ScancodePage = lazy(withPageLocales(() => import('../features/no-login/scancode.page.tsx')));
const CockpitPage = lazy(withPageLocales(() => import('../features/cockpit/cockpit.page.tsx')));
const StatementPage = lazy(withPageLocales(() => import('../features/no-login/statement.page.tsx')));
const CustomScenePage = lazy(withPageLocales(() => import('../features/no-login/custom-scene.page.tsx')));
// antd's Result with its drawings: only when such a page is shown.
const NoPermissionPage = lazy(() => import('../features/errors/no-permission.page.tsx'));
const NotFoundPage = lazy(() => import('../features/errors/not-found.page.tsx'));
const ROW_CONFIRM_PATH = '/diyReport/rowConfirm';
const SCANCODE_PATH = '/scancode';
const COCKPIT_PATH = '/jsc';

/** The cockpit outside the shell: signed in, or through a signed link (`?link=`) without a login (SPEC §6). */
function CockpitRoute() {
  const [params] = useSearchParams();
  const page = (
    <Suspense fallback={<PageLoading fullscreen />}>
      <CockpitPage />
    </Suspense>
  );
  return params.has('link') ? page : <RequireAuth>{page}</RequireAuth>;
}
/** Public statements and custom scenes (issue 22 §2, docs/no-login.md): opened by their signed code. */
const PUBLIC_PAGES = [
  { path: '/statement', Page: StatementPage },
  { path: '/customScene', Page: CustomScenePage },
] as const;

/** Directories that name a redirect (e.g. `/system` → `/system/user`). */
function directoryRedirects(nodes: readonly MenuNode[]): { path: string; to: string }[] {
  return nodes.flatMap((node) => [
    ...(node.type === 1 && node.path && node.redirect && node.path !== node.redirect
      ? [{ path: node.path, to: node.redirect }]
      : []),
    ...directoryRedirects(node.children ?? []),
  ]);
}

/** Error pages outside the shell still carry the 'title - system title' page title. */
function StandalonePage({
  titleKey,
  children,
}: {
  titleKey: 'routes.noPermission' | 'routes.notFound';
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const { systemTitle } = useBranding();
  const title = `${t(titleKey)} - ${systemTitle}`;
  useEffect(() => {
    document.title = title;
  }, [title]);
  return (
    <div style={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
      <Suspense fallback={<PageLoading />}>{children}</Suspense>
    </div>
  );
}

export function AppRouter() {
  const { menuTree, menuRoutes } = useRouteTable();
  const staticPaths = new Set(STATIC_PAGES.map((page) => page.path));
  const pages = menuRoutes.filter((route) => !staticPaths.has(route.path) && route.path.startsWith('/'));
  const redirects = directoryRedirects(menuTree).filter((item) => !staticPaths.has(item.path));

  return (
    <Routes>
      <Route
        path="/login"
        element={
          <GuestOnly>
            <Suspense fallback={<PageLoading fullscreen />}>
              <LoginPage />
            </Suspense>
          </GuestOnly>
        }
      />
      {/* Phone side of scan login: signed in (or sent to /login and back), outside the shell. */}
      <Route
        path="/scanLogin"
        element={
          <RequireAuth>
            <Suspense fallback={<PageLoading fullscreen />}>
              <ScanConfirmPage />
            </Suspense>
          </RequireAuth>
        }
      />
      <Route
        path="/401"
        element={
          <StandalonePage titleKey="routes.noPermission">
            <NoPermissionPage />
          </StandalonePage>
        }
      />
      {/* Row confirmation (issue 6 §6): the subject of a record answers without signing in. */}
      <Route
        path={ROW_CONFIRM_PATH}
        element={
          <Suspense fallback={<PageLoading fullscreen />}>
            <RowConfirmPage />
          </Suspense>
        }
      />
      {/* The landing page of a printed QR code (issue 22, docs/no-login.md): a scoped token, no sign-in. */}
      <Route
        path={SCANCODE_PATH}
        element={
          <Suspense fallback={<PageLoading fullscreen />}>
            <ScancodePage />
          </Suspense>
        }
      />
      {/* The big screen (issue 20 §4, docs/dashboards.md "The cockpit"). */}
      <Route path={COCKPIT_PATH} element={<CockpitRoute />} />
      {PUBLIC_PAGES.map(({ path, Page }) => (
        <Route
          key={path}
          path={path}
          element={
            <Suspense fallback={<PageLoading fullscreen />}>
              <Page />
            </Suspense>
          }
        />
      ))}
      {NO_LOGIN_PATHS.filter(
        (path) =>
          path !== '/login' &&
          path !== ROW_CONFIRM_PATH &&
          path !== SCANCODE_PATH &&
          !PUBLIC_PAGES.some((page) => page.path === path),
      ).map((path) => (
        <Route
          key={path}
          path={path}
          element={
            <StandalonePage titleKey="routes.notFound">
              <NotFoundPage />
            </StandalonePage>
          }
        />
      ))}
      <Route
        path="/"
        element={
          <RequireAuth>
            <Suspense fallback={<PageLoading fullscreen />}>
              <LayoutShell />
            </Suspense>
          </RequireAuth>
        }
      >
        <Route index element={<HomeIndex />} />
        {STATIC_PAGES.map((page) => {
          const view =
            page.path === DASHBOARD_PATH ? (
              <DashboardGate>
                <ViewByKey viewKey={page.viewKey} />
              </DashboardGate>
            ) : (
              <ViewByKey viewKey={page.viewKey} />
            );
          return <Route key={page.path} path={page.path} element={view} />;
        })}
        {pages.map((route) =>
          route.redirect && !route.viewKey && !route.link ? (
            <Route key={route.id} path={route.path} element={<Navigate to={route.redirect} replace />} />
          ) : (
            <Route key={route.id} path={route.path} element={<MenuPage route={route} />} />
          ),
        )}
        {redirects.map((item) => (
          <Route key={`redirect:${item.path}`} path={item.path} element={<Navigate to={item.to} replace />} />
        ))}
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
