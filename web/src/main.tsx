import '@ant-design/v5-patch-for-react-19';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import i18n, { currentLocale, loadLocale } from './i18n';
import App from './App';
import { router } from './router';
import { setupRequest } from './setupRequest';
import { queryClient } from './services/queryClient';
import { fetchSession, SESSION_KEY } from './models/session';
import './global.css';

setupRequest((path) => void router.navigate(path));

// Every route's guard waits for the session: ask for it now, alongside the route's chunks
// (router.tsx starts those), not after they have loaded and rendered.
void queryClient.prefetchQuery({ queryKey: SESSION_KEY, queryFn: fetchSession, staleTime: Infinity });

// A chunk that fails to preload after a deploy: offer a reload (docs/architecture.md#the-console-in-the-binary). antd's Modal is not in
// the first load (the sign-in page does not need it): the console has loaded it by the time a
// chunk can fail; if it cannot be loaded either (a new release removed it), the browser's own
// dialog asks.
let reloadPrompted = false;
window.addEventListener('vite:preloadError', (event) => {
  event.preventDefault();
  if (reloadPrompted) return;
  reloadPrompted = true;
  const done = () => {
    reloadPrompted = false;
  };
  import('./utils/antdLazy')
    .then(({ Modal }) =>
      Modal.confirm({
        title: i18n.t('com_error_chunk'),
        content: i18n.t('com_error_chunk_description'),
        okText: i18n.t('com_btn_reload'),
        cancelText: i18n.t('com_cancel'),
        onOk: () => window.location.reload(),
        onCancel: done,
      }),
    )
    .catch(() => {
      if (window.confirm(`${i18n.t('com_error_chunk')}\n${i18n.t('com_error_chunk_description')}`)) window.location.reload();
      else done();
    });
});

// In production uncaught script errors are logged to the console only (docs/architecture.md#the-console-in-the-binary).
if (import.meta.env.PROD) {
  window.addEventListener('error', (e) => console.error(e.error ?? e.message));
}

// The stored language's texts first (Chinese is a chunk of its own), then the first render.
void loadLocale(currentLocale())
  .catch(() => undefined)
  .then(() =>
    createRoot(document.getElementById('root')!).render(
      <StrictMode>
        <App />
      </StrictMode>,
    ),
  );
