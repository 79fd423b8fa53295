/**
 * message/list — the notification centre (docs/messages.md#the-notification-centre-as-a-triage-list-issue-30): the caller's console
 * messages as a triage list, one row per device and alarm (repeats folded, with their count),
 * newest (latest repeat) first and sortable by last or first time, with type, read/unread, processed/untreated and recovered/unrecovered
 * filters (in the URL). Mark read and process one row or the selected rows; mark all read.
 * The list refetches when the unread count rises (components/MessageBell.tsx).
 */
import { DEVICE_READ_KEYS } from '../../access';
import { useState } from 'react';
import { Button, Space, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import ListPage, { type FilterField } from '../../components/ListPage';
import { EventName, KindTag, LevelTag } from '../../components/fleet';
import { useCan } from '../../components/access';
import { useActions } from '../../hooks/useActions';
import { useListState } from '../../hooks/useListState';
import { refreshUnread } from '../../hooks/useUnread';
import { EVENT_KINDS } from '../../services/fleet';
import { listMessages, processMessages, readMessages, type Message, messageKeys } from '../../services/message';
import { FLAG_FILTERS, MESSAGE_DEFAULT_SORT, MESSAGE_FILTER_SPEC, messageQuery } from '../../utils/message';
import { formatClock, formatTime } from '../../utils/time';
import ZonedTitle from '../../components/ZonedTitle';
import SelectionButton from '../../components/SelectionButton';

/** A yes/no state as a tag: `on` coloured, else plain (i18n `message.<name>.<0|1>`). */
function StateTag({ name, on, color }: { name: (typeof FLAG_FILTERS)[number]; on: boolean; color: string }) {
  const { t } = useTranslation();
  return (
    <Tag color={on ? color : undefined} data-testid={`message-${name}`} data-value={on ? '1' : '0'}>
      {t(`message.${name}.${on ? 1 : 0}`)}
    </Tag>
  );
}

export default function MessageList() {
  const { t } = useTranslation();
  const can = useCan();
  const { run, confirm } = useActions();
  const list = useListState(MESSAGE_FILTER_SPEC, MESSAGE_DEFAULT_SORT);
  const [selected, setSelected] = useState<Message[]>([]);

  const act = async (call: () => Promise<unknown>) => {
    const ok = await run(call, { invalidate: [messageKeys.list] });
    if (ok) setSelected([]);
    refreshUnread();
  };
  const markRead = (ids: number[]) => void act(() => readMessages(ids));
  const process = (ids: number[]) => void act(() => processMessages(ids));

  const columns: ColumnsType<Message> = [
    {
      title: <ZonedTitle title={t('message.sort.lastAt')} />,
      dataIndex: 'lastAt',
      key: 'lastAt',
      sorter: true,
      render: (v: number) => <span data-testid="message-last" style={{ whiteSpace: 'nowrap' }}>{formatClock(v)}</span>,
    },
    {
      title: t('message.device'),
      dataIndex: 'sn',
      key: 'sn',
      // a long SN or name is cut (whole in the tooltip) so the alarm and the actions stay in view
      // at 1366 px (issue 30 item 6)
      render: (v: string, r) => (
        <Space direction="vertical" size={0} style={{ maxWidth: 170 }} className="cell-ellipsis" title={r.deviceName ? `${v}\n${r.deviceName}` : v}>
          {can(DEVICE_READ_KEYS) && r.deviceId ? (
            <Link to={`/manage/device/detail/${r.deviceId}`} data-testid="message-device" translate="no">
              {v}
            </Link>
          ) : (
            <span data-testid="message-device" translate="no">{v}</span>
          )}
          {r.deviceName && <Typography.Text type="secondary">{r.deviceName}</Typography.Text>}
        </Space>
      ),
    },
    { title: t('message.name'), key: 'name', width: 200, ellipsis: true, render: (_: unknown, r) => <span data-testid="message-name"><EventName code={r.code} name={r.name} vendorCode={r.vendorCode} /></span> },
    { title: t('event.level'), dataIndex: 'level', key: 'level', render: (v: number, r) => (r.kind === 1 || r.kind === 2 ? <LevelTag level={v} /> : '-') },
    { title: t('message.site'), dataIndex: 'siteName', key: 'siteName', render: (v: string) => <div className="cell-ellipsis" style={{ maxWidth: 110 }} title={v}>{v || '-'}</div> },
    { title: t('message.repeats'), dataIndex: 'repeats', key: 'repeats', render: (v: number) => <span data-testid="message-repeats">{v}</span> },
    {
      title: t('message.states'),
      key: 'states',
      // the three flags wrap under each other rather than widen the row past the actions
      render: (_: unknown, r) => (
        <Space size={4} wrap style={{ maxWidth: 130 }}>
          <StateTag name="read" on={r.read} color="default" />
          <StateTag name="processed" on={r.processed} color="green" />
          <StateTag name="recovered" on={r.recovered} color="blue" />
        </Space>
      ),
    },
    // kind and first time after the triage columns: at 1366 px they are what scrolls
    { title: t('event.kind'), dataIndex: 'kind', key: 'kind', render: (v: number) => <span data-testid="message-kind" data-value={v}><KindTag kind={v} /></span> },
    {
      title: <ZonedTitle title={t('message.time')} />,
      dataIndex: 'startedAt',
      key: 'startedAt',
      sorter: true,
      render: (v: number) => <span style={{ whiteSpace: 'nowrap' }}>{formatClock(v)}</span>,
    },
    {
      title: t('com_actions'),
      key: 'actions',
      // always in view at 1366 px: the other columns scroll under it (issue 30 item 6)
      fixed: 'right',
      render: (_: unknown, r) => (
        <Space>
          {!r.read && (
            <a onClick={() => markRead([r.id])} data-testid="message-mark-read">
              {t('message.markRead')}
            </a>
          )}
          {r.processed ? (
            <Typography.Text type="secondary" title={r.processedBy ? t('message.processedBy', { user: r.processedBy, time: formatTime(r.processedAt) }) : undefined}>
              {formatClock(r.processedAt)}
            </Typography.Text>
          ) : (
            <a onClick={() => process([r.id])} data-testid="message-do-process">
              {t('message.process')}
            </a>
          )}
        </Space>
      ),
    },
  ];

  const flagOptions = (name: (typeof FLAG_FILTERS)[number]) => [0, 1].map((v) => ({ value: v, label: t(`message.${name}.${v}`) }));
  const filters: FilterField[] = [
    { name: 'kind', label: t('event.kind'), width: 140, options: EVENT_KINDS.map((v) => ({ value: v, label: t(`event.kind.${v}`) })) },
    ...FLAG_FILTERS.map((name) => ({ name, label: t(`message.${name}`), width: 130, options: flagOptions(name) })),
  ];
  const ids = selected.map((m) => m.id);

  return (
    <ListPage<Message>
      list={list}
      queryKey={messageKeys.list}
      fetcher={(q) => listMessages(messageQuery(q))}
      columns={columns}
      filters={filters}
      testId="message-list"
      columnsId="message-list"
      rowSelection={{ selectedRowKeys: ids, onChange: (_k, rows) => setSelected(rows), preserveSelectedRowKeys: true }}
      toolbar={
        <>
          <SelectionButton count={ids.length} onClick={() => markRead(ids)} data-testid="message-read-selected">
            {t('message.markReadSelected', { count: ids.length })}
          </SelectionButton>
          <SelectionButton count={ids.length} onClick={() => process(ids)} data-testid="message-process-selected">
            {t('message.processSelected', { count: ids.length })}
          </SelectionButton>
          <Button
            onClick={() => confirm(() => readMessages([]), { title: t('message.readAllConfirm'), invalidate: [messageKeys.list], onDone: refreshUnread })}
            data-testid="message-read-all"
          >
            {t('message.readAll')}
          </Button>
          {can('auth_message_setting') && (
            <Link to="/manage/message/setting" data-testid="message-setting-link">
              {t('menu.message.setting')}
            </Link>
          )}
        </>
      }
    />
  );
}
