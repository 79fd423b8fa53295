/** The router, guards, layout and privacy modal rendered together with a mocked API. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { Modal } from 'antd';
import { createMemoryRouter, RouterProvider } from 'react-router';
import './i18n';
import { routeObjects } from './router';
import { queryClient } from './services/queryClient';
import { post, resetRequestState } from './services/request';
import { setupRequest } from './setupRequest';
import { HISTORY_STORAGE_KEY } from './utils/history';

type Handler = (body: unknown) => unknown;
let api: Record<string, Handler>;
let posted: { url: string; body: unknown }[];

function session(auth: string[], extra: { root?: boolean; needConfirm?: boolean } = {}) {
  return {
    user: { id: 2, userName: 'operator', nickName: 'Op', email: '', root: !!extra.root, vendor: false, customerId: 0, avatar: '', locale: 'en-US', timeZone: 'Asia/Hong_Kong' },
    role: { id: 1, name: 'r', auth, menu: auth },
    tokenId: 't',
    csrfToken: 'c',
    privacy: { needConfirm: !!extra.needConfirm, content: '<p>Policy<script>alert(1)</script></p>', newPrivacyPolicyVersion: '2026-11-01' },
  };
}

beforeEach(() => {
  posted = [];
  resetRequestState();
  queryClient.clear();
  api = {
    '/api/unauth/config': () => ({ code: 0, data: { captcha: false, defaultLocale: 'en-US', showLanguageSwitch: true, timeZone: 'Asia/Hong_Kong', version: 'x' } }),
    '/api/unauth/info': () => ({ code: 20001, message: 'not logged in' }),
  };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const path = url.split('?')[0];
      const body = init.body ? JSON.parse(init.body as string) : undefined;
      posted.push({ url: path, body });
      const h = api[path];
      if (!h) return new Response('{}', { status: 404 });
      return new Response(JSON.stringify(h(body)), { status: 200 });
    }),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
  // a static dialog (the session-expired one) lives outside the rendered tree: it must not
  // reach into the next test
  Modal.destroyAll();
});

function renderAt(path: string) {
  const router = createMemoryRouter(routeObjects, { initialEntries: [path] });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

describe('app routing', { timeout: 15000 }, () => {
  it('without a session, /manage pages go to /login?redirect= and show the login form', async () => {
    const router = renderAt('/manage/site/list');
    // The first render of the file loads the lazy login page cold: allow a busy machine time.
    expect(await screen.findByTestId('login-username', {}, { timeout: 15_000 })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/login');
    expect(router.state.location.search).toBe('?redirect=%2Fmanage%2Fsite%2Flist');
    expect(screen.getByTestId('login-password')).toBeTruthy();
    expect(screen.getByTestId('login-submit')).toBeTruthy();
    // captcha is off in the config
    expect(screen.queryByTestId('login-captcha')).toBeNull();
    expect(await screen.findByTestId('language-switch')).toBeTruthy();
  });

  it('/ goes to welcome for a user without auth_home', async () => {
    api['/api/unauth/info'] = () => ({ code: 0, data: session(['auth_site', 'auth_site_list']) });
    const router = renderAt('/');
    expect(await screen.findByTestId('page-welcome')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/manage/welcome');
    const sidebar = screen.getByTestId('sidebar');
    expect(sidebar.textContent).toContain('Sites');
    expect(sidebar.textContent).not.toContain('Devices');
  });

  it('/login with a session goes on to the redirect target when its keys are held', async () => {
    api['/api/unauth/info'] = () => ({ code: 0, data: session(['auth_site', 'auth_site_list']) });
    const router = renderAt('/login?redirect=%2Fmanage%2Fsite%2Flist');
    expect(await screen.findByTestId('site-list')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/manage/site/list');
  });

  it('a route without permission answers No access at its own address (kept in the history tabs); the home page goes to welcome', async () => {
    api['/api/unauth/info'] = () => ({ code: 0, data: session(['auth_site']) });
    const router = renderAt('/manage/site/add');
    expect(await screen.findByTestId('page-noauth')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/manage/site/add');
    // the refused page has its own history tab, named after the page, not "No access"
    const tabs = screen.getByTestId('history-tabs');
    await waitFor(() => expect(tabs.textContent).toContain('Add site'));
    await act(() => router.navigate('/manage/home'));
    expect(await screen.findByTestId('page-welcome')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/manage/welcome');
    // still there after moving on
    expect(screen.getByTestId('history-tabs').textContent).toContain('Add site');
  });

  it('root passes every guard', async () => {
    api['/api/unauth/info'] = () => ({ code: 0, data: session([], { root: true }) });
    const router = renderAt('/manage/system/menu');
    expect(await screen.findByTestId('menu-page')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/manage/system/menu');
  });

  it('unknown paths show the 404 page; /403 the forbidden page', async () => {
    const router = renderAt('/no/such/page');
    expect(await screen.findByTestId('page-404')).toBeTruthy();
    await act(() => router.navigate('/403'));
    expect((await screen.findByTestId('page-403')).textContent).toContain('contact the creator');
  });

  it('the privacy modal blocks use until accepted, then posts the version', async () => {
    let accepted = false;
    api['/api/unauth/info'] = () => ({ code: 0, data: session(['auth_home'], { needConfirm: !accepted }) });
    api['/api/auth/sys/user/owner/privacy'] = () => {
      accepted = true;
      return { code: 0, data: null };
    };
    renderAt('/manage/home');
    // the lazy route and the modal take more than findBy's default second on a loaded CI machine
    const modal = await screen.findByTestId('privacy-modal', {}, { timeout: 5000 });
    expect(modal.textContent).toContain('Policy');
    expect(modal.innerHTML).not.toContain('<script');
    fireEvent.click(screen.getByTestId('privacy-accept'));
    await waitFor(() => expect(screen.queryByTestId('privacy-modal')).toBeNull(), { timeout: 5000 });
    expect(posted.find((p) => p.url === '/api/auth/sys/user/owner/privacy')?.body).toEqual({ version: '2026-11-01' });
  });

  it('a session-expired code shows one dialog whose OK goes to /login', async () => {
    api['/api/unauth/info'] = () => ({ code: 0, data: session(['auth_home']) });
    api['/api/auth/sys/anything'] = () => ({ code: 20002, message: 'expired' });
    const router = renderAt('/manage/home');
    setupRequest((p) => void router.navigate(p));
    expect(await screen.findByTestId('home-dashboard')).toBeTruthy();
    await act(async () => {
      await Promise.allSettled([post('/api/auth/sys/anything', { a: 1 }), post('/api/auth/sys/anything', { a: 2 })]);
    });
    const dialogs = await screen.findAllByTestId('session-expired-dialog');
    expect(dialogs).toHaveLength(1);
    fireEvent.click(screen.getByTestId('session-expired-ok'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(await screen.findByTestId('login-username')).toBeTruthy();
  });

});

describe('history tabs end with the session', { timeout: 15000 }, () => {
  const stored = () => JSON.parse(sessionStorage.getItem(HISTORY_STORAGE_KEY) ?? 'null') as { owner: number; tabs: { key: string }[] } | null;
  const tabKeys = () => stored()?.tabs.map((t) => t.key);

  beforeEach(() => {
    sessionStorage.clear();
    api['/api/unauth/info'] = () => ({ code: 0, data: session(['auth_home', 'auth_site', 'auth_site_list']) });
    api['/api/unauth/logout'] = () => ({ code: 0, data: null });
  });

  async function visitTwoPages() {
    const router = renderAt('/manage/home');
    setupRequest((p) => void router.navigate(p));
    await screen.findByTestId('home-dashboard');
    await act(() => router.navigate('/manage/site/list'));
    await waitFor(() => expect(tabKeys()).toEqual(['/manage/home', '/manage/site/list']));
    expect(stored()?.owner).toBe(2);
    expect(screen.getByTestId('history-tabs').textContent).toContain('Site list');
    return router;
  }

  it('logout clears them', async () => {
    const router = await visitTwoPages();
    fireEvent.mouseEnter(screen.getByTestId('user-menu'));
    fireEvent.click(await screen.findByTestId('user-menu-logout'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(posted.some((p) => p.url === '/api/unauth/logout')).toBe(true);
    expect(sessionStorage.getItem(HISTORY_STORAGE_KEY)).toBeNull();
  });

  it('a session-expired code clears them', async () => {
    const router = await visitTwoPages();
    api['/api/auth/sys/anything'] = () => ({ code: 20003, message: 'ended' });
    await act(async () => {
      await Promise.allSettled([post('/api/auth/sys/anything', {})]);
    });
    expect(sessionStorage.getItem(HISTORY_STORAGE_KEY)).toBeNull();
    // the newest dialog (an earlier test's may still be fading out)
    const oks = await screen.findAllByTestId('session-expired-ok');
    fireEvent.click(oks[oks.length - 1]);
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(sessionStorage.getItem(HISTORY_STORAGE_KEY)).toBeNull();
  });

  it("the next user to sign in does not see the previous user's tabs", async () => {
    sessionStorage.setItem(
      HISTORY_STORAGE_KEY,
      JSON.stringify({ owner: 9, tabs: [{ key: '/manage/home', path: '/manage/home', name: 'menu.home' }, { key: '/manage/system/role', path: '/manage/system/role', name: 'menu.role' }] }),
    );
    renderAt('/manage/home');
    await screen.findByTestId('home-dashboard');
    await waitFor(() => expect(stored()?.owner).toBe(2));
    expect(tabKeys()).toEqual(['/manage/home']);
    expect(screen.getByTestId('history-tabs').textContent).not.toContain('Roles');
  });
});
