import '@ant-design/v5-patch-for-react-19';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Modal } from 'antd';
import './i18n';
import i18n from './i18n';
import App from './App';
import { router } from './router';
import { setupRequest } from './setupRequest';
import './global.css';

setupRequest((path) => void router.navigate(path));

// A chunk that fails to preload after a deploy: offer a reload (spec §8).
let reloadPrompted = false;
window.addEventListener('vite:preloadError', (event) => {
  event.preventDefault();
  if (reloadPrompted) return;
  reloadPrompted = true;
  Modal.confirm({
    title: i18n.t('com_error_chunk'),
    content: i18n.t('com_error_chunk_description'),
    okText: i18n.t('com_btn_reload'),
    cancelText: i18n.t('com_cancel'),
    onOk: () => window.location.reload(),
    onCancel: () => {
      reloadPrompted = false;
    },
  });
});

// In production uncaught script errors are logged to the console only (spec §8).
if (import.meta.env.PROD) {
  window.addEventListener('error', (e) => console.error(e.error ?? e.message));
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
