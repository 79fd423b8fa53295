/** errorElement of the router: chunk-load failures offer a reload; other errors a way home. */
import { useRouteError } from 'react-router';
import { useTranslation } from 'react-i18next';
import NetworkError from './NetworkError';
import { isChunkLoadError } from '../utils/chunkError';

export function ChunkLoadFailed() {
  const { t } = useTranslation();
  return <NetworkError title={t('com_error_chunk')} description={t('com_error_chunk_description')} showReload />;
}

export default function RouteError() {
  const error = useRouteError();
  const { t } = useTranslation();
  if (isChunkLoadError(error)) return <ChunkLoadFailed />;
  if (import.meta.env.PROD) console.error(error);
  return <NetworkError title={t('com_error_system')} description={t('com_error_system_description')} showReload showBack />;
}
