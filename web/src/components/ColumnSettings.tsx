/**
 * Column settings of a list (issue 30 item 6): which columns show, chosen by each user per list
 * and kept in localStorage (as ProTable's columnsState), so an operator on a 1366 px screen
 * can drop the columns they do not scan and keep the ones they do. Fixed columns (SN, actions)
 * always show. A column marked `hidden` (antd's own flag) is hidden until the user shows it: kept
 * as "+key" among the settings, so a list can add a column without pushing the others out of view.
 */
import { useState, type ReactNode } from 'react';
import { Button, Checkbox, Dropdown } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { useSession } from '../models/session';

/** The localStorage key of a user's settings of one list. */
export function columnsStorageKey(userId: number | undefined, listId: string): string {
  return `chargeops_columns:${userId ?? 0}:${listId}`;
}

/** The hidden column keys stored under key (none if absent or unreadable). */
export function readHidden(key: string): string[] {
  try {
    const v: unknown = JSON.parse(localStorage.getItem(key) ?? '[]');
    return Array.isArray(v) ? v.filter((k): k is string => typeof k === 'string') : [];
  } catch {
    return [];
  }
}

/** A column the settings can hide: it has a key and a title and is not fixed. */
function hideable<Row>(c: ColumnsType<Row>[number]): boolean {
  return c.key !== undefined && !c.fixed && c.title !== undefined;
}

/**
 * Whether a column is hidden by the stored settings: hidden by the user ("key"), or hidden by
 * default (`hidden`) and not shown by the user ("+key").
 */
export function isHiddenBy<Row>(settings: readonly string[], c: ColumnsType<Row>[number]): boolean {
  const k = String(c.key);
  return settings.includes(k) || (!!c.hidden && !settings.includes(`+${k}`));
}

/** The settings after the user shows or hides a column (its default dropped: what the user chose is kept). */
export function toggledSettings(settings: readonly string[], k: string, show: boolean, hiddenByDefault: boolean): string[] {
  const rest = settings.filter((h) => h !== k && h !== `+${k}`);
  if (show) return hiddenByDefault ? [...rest, `+${k}`] : rest;
  return hiddenByDefault ? rest : [...rest, k];
}

/** The columns of a list minus the ones this user hid, and the control that hides them. */
export function useColumnSettings<Row>(listId: string | undefined, columns: ColumnsType<Row>) {
  const { t } = useTranslation();
  const { session } = useSession();
  const key = columnsStorageKey(session?.user?.id, listId ?? '');
  const [state, setState] = useState<{ key: string; hidden: string[] }>(() => ({ key, hidden: listId ? readHidden(key) : [] }));
  // another user signed in (or the list changed): their own settings
  const hidden = state.key === key ? state.hidden : listId ? readHidden(key) : [];
  if (!listId) return { columns, control: null };
  const toggle = (k: string, show: boolean, hiddenByDefault: boolean) => {
    const next = toggledSettings(hidden, k, show, hiddenByDefault);
    localStorage.setItem(key, JSON.stringify(next));
    setState({ key, hidden: next });
  };
  const control = (
    <Dropdown
      trigger={['click']}
      menu={{
        items: columns.filter(hideable).map((c) => {
          const k = String(c.key);
          return {
            key: k,
            label: (
              <Checkbox checked={!isHiddenBy(hidden, c)} onChange={(e) => toggle(k, e.target.checked, !!c.hidden)} data-testid={`column-toggle-${k}`}>
                {c.title as ReactNode}
              </Checkbox>
            ),
          };
        }),
      }}
    >
      <Button data-testid="list-columns">{t('list.columns')}</Button>
    </Dropdown>
  );
  return { columns: columns.filter((c) => !hideable(c) || !isHiddenBy(hidden, c)).map((c) => (c.hidden ? { ...c, hidden: false } : c)), control };
}
