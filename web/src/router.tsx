/**
 * react-router routes generated from the one route table (routes.tsx).
 *
 * Chunks start together: every route that loads a chunk (the console frame, each page) also has
 * a loader that starts that import. react-router runs the loaders of all matched routes at once
 * when navigation begins, so /manage/device/list fetches the frame and the page in parallel, and
 * alongside the session check, instead of frame → page one after another; the lazy components
 * then find their modules already loaded.
 */
import { lazy, Suspense } from 'react';
import { createBrowserRouter, Navigate, Outlet, type RouteObject } from 'react-router';
import { MANAGE_BASE, manageRoutes, publicPages, TOP_PATHS, type RouteDef } from './routes';
import { joinPath, type RouteInfo } from './utils/routeMatch';
import { lazyPage } from './components/lazyPage';
import { Guarded, GuestOnly, PublicPage, RequireSession, RootRedirect } from './components/guards';
import RouteError from './components/RouteError';
import PageLoading from './components/PageLoading';
import { HOME_PATH } from './access';

/** Starts a chunk's import without waiting for it (its lazy component waits). */
const preload = (load: () => Promise<unknown>) => () => {
  load().catch(() => undefined); // a failure shows when the lazy component loads it again
  return null;
};

/**
 * The console frame, one lazy unit: the layout inside antd's App, whose message, modal and
 * notification hooks (App.useApp) only console pages use, so the sign-in page does not load them.
 */
const loadConsole = () => Promise.all([import('./layouts/ManageLayout'), import('antd/es/app')]);
const ManageLayout = lazy(() =>
  loadConsole().then(([{ default: Layout }, { default: AntdApp }]) => ({
    default: function Console() {
      return (
        <AntdApp>
          <Layout />
        </AntdApp>
      );
    },
  })),
);

const pageCache = new Map<unknown, ReturnType<typeof lazyPage>>();
function pageOf(loader: NonNullable<RouteDef['page']>) {
  let p = pageCache.get(loader);
  if (!p) {
    p = lazyPage(loader);
    pageCache.set(loader, p);
  }
  return p;
}

function toRouteObjects(defs: RouteDef[], parentPath: string, parentKeys: string[]): RouteObject[] {
  return defs.map((def) => {
    const pattern = joinPath(parentPath, def.path);
    const keys = [...parentKeys, ...(def.keys ?? [])];
    const info: RouteInfo = { pattern, name: def.name, keys, home: !!def.home, noLoading: !!def.noLoading };
    const children: RouteObject[] = [];
    if (def.redirect) children.push({ index: true, handle: info, element: <Navigate to={def.redirect} replace /> });
    if (def.children) children.push(...toRouteObjects(def.children, pattern, keys));
    const obj: RouteObject = { path: def.path || undefined, handle: info };
    if (def.page) {
      obj.element = <Guarded info={info} page={pageOf(def.page)} />;
      obj.loader = preload(def.page);
    }
    if (children.length) obj.children = children;
    return obj;
  });
}

const publicRoute = (path: string, loader: NonNullable<RouteDef['page']>): RouteObject => ({
  path,
  loader: preload(loader),
  element: <PublicPage page={pageOf(loader)} />,
});

export const routeObjects: RouteObject[] = [
  {
    element: <Outlet />,
    errorElement: <RouteError />,
    // the loaders answer at once; nothing to show meanwhile
    hydrateFallbackElement: <></>,
    children: [
      { path: TOP_PATHS.root, element: <RootRedirect /> },
      {
        path: TOP_PATHS.login,
        loader: preload(publicPages.login),
        element: (
          <GuestOnly>
            <PublicPage page={pageOf(publicPages.login)} />
          </GuestOnly>
        ),
      },
      publicRoute(TOP_PATHS.findPassword, publicPages.findPassword),
      publicRoute(TOP_PATHS.resetPassword, publicPages.resetPassword),
      publicRoute(TOP_PATHS.shareFile, publicPages.shareFile),
      publicRoute(TOP_PATHS.error, publicPages.error),
      publicRoute(TOP_PATHS.forbidden, publicPages.forbidden),
      {
        path: MANAGE_BASE,
        loader: preload(loadConsole),
        element: (
          <RequireSession>
            <Suspense fallback={<PageLoading full />}>
              <ManageLayout />
            </Suspense>
          </RequireSession>
        ),
        errorElement: <RouteError />,
        children: [{ index: true, element: <Navigate to={HOME_PATH} replace /> }, ...toRouteObjects(manageRoutes, MANAGE_BASE, [])],
      },
      publicRoute('*', publicPages.notFound),
    ],
  },
];

export const router = createBrowserRouter(routeObjects);
