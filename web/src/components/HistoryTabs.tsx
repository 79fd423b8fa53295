/**
 * Up to 20 visited /manage pages, home first, kept in sessionStorage for the signed-in user;
 * closable. One tab per page (utils/history.ts, tabKeyOf).
 */
import { useEffect, useState } from 'react';
import { Tabs } from 'antd';
import { useLocation, useMatches, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useSession } from '../models/session';
import { addTab, loadTabs, removeTab, saveTabs, tabKeyOf, HISTORY_HOME, type HistoryTab } from '../utils/history';
import type { RouteInfo } from '../routeMatch';
import { documentTitle, tabLabel } from '../utils/title';
import { useSubjectOf } from '../hooks/usePageSubject';

export default function HistoryTabs() {
  const { session } = useSession();
  const owner = session?.user.id ?? 0;
  // a new owner starts from its own stored tabs (keyed: no state carried over)
  return <OwnedTabs key={owner} owner={owner} />;
}

function OwnedTabs({ owner }: { owner: number }) {
  const { t } = useTranslation();
  const location = useLocation();
  const matches = useMatches();
  const navigate = useNavigate();
  const [tabs, setTabs] = useState<HistoryTab[]>(() => loadTabs(owner));

  const last = matches.length ? matches[matches.length - 1] : undefined;
  const info = last?.handle as RouteInfo | undefined;
  const name = info?.name ?? '';
  // one tab per page: switching a page's own tabs (`:type?`, `?tab=`) does not add another
  const current = tabKeyOf(info?.pattern, last?.params ?? {}, location.pathname);
  // the object the page shows (a device's SN): the browser tab's title and the history tab name it
  const subject = useSubjectOf(location.pathname);
  useEffect(() => {
    setTabs((prev) => {
      const next = addTab(prev, { key: current, path: location.pathname + location.search, name, subject });
      saveTabs(next, owner);
      return next;
    });
  }, [current, location.pathname, location.search, name, subject, owner]);
  useEffect(() => {
    document.title = documentTitle(name ? t(name) : '', subject);
  }, [name, subject, t]);

  const close = (key: string) => {
    const next = removeTab(tabs, key);
    setTabs(next);
    saveTabs(next, owner);
    if (key === current) void navigate(next[next.length - 1].path);
  };

  return (
    <div data-testid="history-tabs">
    <Tabs
      type="editable-card"
      hideAdd
      size="small"
      activeKey={current}
      onChange={(key) => {
        const tab = tabs.find((x) => x.key === key);
        if (tab) void navigate(tab.path);
      }}
      onEdit={(key, action) => action === 'remove' && typeof key === 'string' && close(key)}
      items={tabs.map((tab) => ({ key: tab.key, label: tabLabel(tab.name ? t(tab.name) : tab.key, tab.subject), closable: tab.key !== HISTORY_HOME }))}
      style={{ margin: '0 16px', marginTop: 8 }}
    />
    </div>
  );
}
