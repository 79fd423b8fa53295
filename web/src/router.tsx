/**
 * react-router routes generated from the one route table (routes.tsx).
 *
 * Chunks start together: every route that loads a chunk (the console frame, each page) has a
 * loader that loads it. react-router runs the loaders of all matched routes at once when
 * navigation begins, so /manage/device/list fetches the frame and the page in parallel, and
 * alongside the session check, instead of frame → page one after another. The loaders wait for
 * their chunks, so the pages render at once when navigation commits (lazyPage.tsx), and a page
 * that exports `prefetch` starts its first queries as soon as its code is in, while the route is
 * still resolving.
 */
import { Suspense } from 'react';
import { createBrowserRouter, Navigate, Outlet, type LoaderFunctionArgs, type RouteObject } from 'react-router';
import { MANAGE_BASE, manageRoutes, publicPages, TOP_PATHS, type RouteDef } from './routes';
import { infoOf } from './routeMatch';
import { joinPath } from './utils/routeDef';
import { lazyPage, type LazyPage } from './components/lazyPage';
import { Guarded, GuestOnly, PublicPage, RequireSession, RootRedirect } from './components/guards';
import RouteError from './components/RouteError';
import PageLoading from './components/PageLoading';
import { HOME_PATH, type KeyRequirement } from './access';

/** A route loader that loads a page's chunk and starts its data; a failure shows when the page renders. */
const preload =
  (page: LazyPage) =>
  async ({ request }: LoaderFunctionArgs) => {
    const m = await page.preload();
    m?.prefetch?.(new URL(request.url));
    return null;
  };

/**
 * The console frame, one lazy unit: the layout inside antd's App, whose message, modal and
 * notification hooks (App.useApp) only console pages use, so the sign-in page does not load them.
 */
const ConsoleFrame = lazyPage(() =>
  Promise.all([import('./layouts/ManageLayout'), import('antd/es/app')]).then(([{ default: Layout }, { default: AntdApp }]) => ({
    default: function Console() {
      return (
        <AntdApp>
          <Layout />
        </AntdApp>
      );
    },
  })),
);

const pageCache = new Map<unknown, LazyPage>();
function pageOf(loader: NonNullable<RouteDef['page']>) {
  let p = pageCache.get(loader);
  if (!p) {
    p = lazyPage(loader);
    pageCache.set(loader, p);
  }
  return p;
}

function toRouteObjects(defs: RouteDef[], parentPath: string, parentKeys: KeyRequirement[]): RouteObject[] {
  return defs.map((def) => {
    const pattern = joinPath(parentPath, def.path);
    const keys = [...parentKeys, ...(def.keys ?? [])];
    const info = infoOf(def, pattern, keys);
    const children: RouteObject[] = [];
    if (def.redirect) children.push({ index: true, handle: info, element: <Navigate to={def.redirect} replace /> });
    if (def.children) children.push(...toRouteObjects(def.children, pattern, keys));
    const obj: RouteObject = { path: def.path || undefined, handle: info };
    if (def.page) {
      obj.element = <Guarded info={info} page={pageOf(def.page)} />;
      obj.loader = preload(pageOf(def.page));
    }
    if (children.length) obj.children = children;
    return obj;
  });
}

const publicRoute = (path: string, loader: NonNullable<RouteDef['page']>): RouteObject => ({
  path,
  loader: preload(pageOf(loader)),
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
        loader: preload(pageOf(publicPages.login)),
        element: (
          <GuestOnly>
            <PublicPage page={pageOf(publicPages.login)} />
          </GuestOnly>
        ),
      },
      publicRoute(TOP_PATHS.findPassword, publicPages.findPassword),
      publicRoute(TOP_PATHS.resetPassword, publicPages.resetPassword),
      publicRoute(TOP_PATHS.shareFile, publicPages.shareFile),
      publicRoute(TOP_PATHS.shareIssue, publicPages.shareIssue),
      publicRoute(TOP_PATHS.error, publicPages.error),
      publicRoute(TOP_PATHS.forbidden, publicPages.forbidden),
      {
        path: MANAGE_BASE,
        loader: preload(ConsoleFrame),
        element: (
          <RequireSession>
            <Suspense fallback={<PageLoading full />}>
              <ConsoleFrame />
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
