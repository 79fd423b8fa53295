/** Route guards (docs/decisions.md#route-keys); the decisions are the pure functions of access.ts. */
import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { Navigate, useLocation, useSearchParams } from 'react-router';
import { afterLoginTarget, guardRedirect, landingPath, LOGIN_PATH, NOAUTH_PATH } from '../access';
import { useSession } from '../models/session';
import { routeKeysFor, type RouteInfo } from '../routeMatch';
import PageLoading from './PageLoading';

type Page = ComponentType;

const NoAuthPage = lazy(() => import('../pages/exception/NoAuth'));

/**
 * A /manage page: its keys must all be held (root bypasses). A refused page answers "No access"
 * where it is, at its own address, so it keeps its place in the history tabs like any visited
 * page (docs/decisions.md#refused-pages); the home page still goes to welcome.
 */
export function Guarded({ info, page: PageComponent }: { info: RouteInfo; page: Page }) {
  const { subject } = useSession();
  const to = guardRedirect(subject, info.keys, info.home);
  if (to === NOAUTH_PATH) {
    return (
      <Suspense fallback={null}>
        <NoAuthPage />
      </Suspense>
    );
  }
  if (to) return <Navigate to={to} replace />;
  return (
    <Suspense fallback={info.noLoading ? null : <PageLoading />}>
      <PageComponent />
    </Suspense>
  );
}

/** /manage and below need a session; without one, /login?redirect=<where the user was going>. */
export function RequireSession({ children }: { children: ReactNode }) {
  const { session, loading } = useSession();
  const location = useLocation();
  if (loading) return <PageLoading full />;
  if (!session) {
    const back = location.pathname + location.search;
    return <Navigate to={`${LOGIN_PATH}?redirect=${encodeURIComponent(back)}`} replace />;
  }
  return <>{children}</>;
}

/** `/`: the landing page when signed in, else /login. */
export function RootRedirect() {
  const { subject, loading } = useSession();
  if (loading) return <PageLoading full />;
  if (!subject) return <Navigate to={LOGIN_PATH} replace />;
  return <Navigate to={landingPath(subject)} replace />;
}

/** `/login`: a signed-in user goes on to ?redirect (if allowed) or the landing page. */
export function GuestOnly({ children }: { children: ReactNode }) {
  const { subject, loading } = useSession();
  const [params] = useSearchParams();
  if (loading) return <PageLoading full />;
  if (subject) return <Navigate to={afterLoginTarget(params.get('redirect'), subject, routeKeysFor)} replace />;
  return <>{children}</>;
}

export function PublicPage({ page: PageComponent }: { page: Page }) {
  return (
    <Suspense fallback={<PageLoading full />}>
      <PageComponent />
    </Suspense>
  );
}
