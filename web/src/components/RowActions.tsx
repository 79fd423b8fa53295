/**
 * The actions column shared by the list screens: Edit (opens the row's drawer or page), extra
 * links and Delete (confirmed, then the named lists are refreshed).
 */
import type { ReactNode } from 'react';
import { Space } from 'antd';
import type { ColumnType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import type { QueryKey } from '@tanstack/react-query';
import { useActions } from '../hooks/useActions';

export interface RowActionsOptions<Row> {
  /** Links between Edit and Delete. */
  extra?: (r: Row) => ReactNode;
  edit?: (r: Row) => void;
  /** Delete: the name shown in the confirm, the call, the query-key roots to refresh. */
  remove?: (r: Row) => { name: string; call: () => Promise<unknown>; invalidate: readonly QueryKey[]; onDone?: () => void };
  /** Whether a row gets actions at all (default: every row). */
  show?: (r: Row) => boolean;
  fixed?: boolean;
}

export function useActionsColumn() {
  const { t } = useTranslation();
  const { confirm } = useActions();
  return <Row,>(o: RowActionsOptions<Row>): ColumnType<Row> => ({
    title: t('com_actions'),
    key: 'actions',
    fixed: o.fixed ? 'right' : undefined,
    render: (_: unknown, r: Row) => {
      if (o.show && !o.show(r)) return null;
      const del = o.remove?.(r);
      return (
        <Space>
          {o.edit && <a onClick={() => o.edit!(r)}>{t('com_edit')}</a>}
          {o.extra?.(r)}
          {del && (
            <a onClick={() => confirm(del.call, { title: t('com_confirm_delete', { name: del.name }), danger: true, invalidate: del.invalidate, onDone: del.onDone })}>
              {t('com_delete')}
            </a>
          )}
        </Space>
      );
    },
  });
}
