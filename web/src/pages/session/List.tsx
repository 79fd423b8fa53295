/**
 * session/list — charging sessions of the caller's scope (docs/sessions.md): filters in the
 * URL, keyset pages, a drawer per session, and the xlsx export of the filtered sessions for
 * holders of auth_session_export (bounded by the server like the log exports).
 */
import { useMemo, useState } from 'react';
import { App, Button } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader';
import { useCan } from '../../components/access';
import { registerTexts } from '../../locales/domains';
import { sessionTexts } from '../../locales/domains/session';
import SessionTable, { type SessionFilters } from './components/SessionTable';
import { exportSessions } from '../../services/session';

registerTexts(sessionTexts);

const NUMBERS = ['customerId', 'siteId', 'startTime', 'endTime'] as const;
const TEXTS = ['sn', 'idTag', 'reason'] as const;

/** The filters kept in the query string. */
export function filtersOf(p: URLSearchParams): SessionFilters {
  const f: Record<string, unknown> = {};
  for (const k of NUMBERS) if (Number(p.get(k)) > 0) f[k] = Number(p.get(k));
  for (const k of TEXTS) if (p.get(k)) f[k] = p.get(k);
  if (p.get('state') === 'charging' || p.get('state') === 'ended') f.open = p.get('state') === 'charging';
  return f as SessionFilters;
}

function paramsOf(f: SessionFilters): URLSearchParams {
  const p = new URLSearchParams();
  for (const k of [...NUMBERS, ...TEXTS]) if (f[k] !== undefined && f[k] !== '') p.set(k, String(f[k]));
  if (f.open !== undefined && f.open !== null) p.set('state', f.open ? 'charging' : 'ended');
  return p;
}

export default function SessionList() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const can = useCan();
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => filtersOf(params), [params]);
  const [exporting, setExporting] = useState(false);
  const doExport = async () => {
    setExporting(true);
    const done = message.loading(t('session.exporting'), 0);
    try {
      await exportSessions(filters);
    } catch {
      /* toasted */
    } finally {
      done();
      setExporting(false);
    }
  };
  return (
    <>
      <PageHeader title={t('menu.session')} />
      <SessionTable
        filters={filters}
        onSearch={(f) => setParams(paramsOf(f))}
        toolbar={
          can('auth_session_export') && (
            <Button icon={<DownloadOutlined />} loading={exporting} onClick={() => void doExport()} data-testid="sessions-export">
              {t('session.export')}
            </Button>
          )
        }
      />
    </>
  );
}
