/**
 * The device page's "Remote sessions" tab: every link, web page and terminal session of the
 * device (who, from where, when, how long), newest first. Holders of auth_logs_action also see
 * what was typed in a terminal; for everyone else the server leaves it out (inputHidden).
 */
import { useState } from 'react';
import { Alert, Modal, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import ListPage from '../../../components/ListPage';
import { useListState } from '../../../hooks/useListState';
import { registerTexts } from '../../../locales/domains';
import { remoteTexts } from '../../../locales/domains/remote';
import { listLinkSessions, remoteKeys, type RemoteSession, type SessionListInput } from '../../../services/remote';
import { formatTime } from '../../../utils/time';
import { formatRemaining } from './linkState';
import { readableInput } from './protocol';

registerTexts(remoteTexts);

const SPEC = {} as const;
const KIND_COLORS: Record<string, string> = { web: 'blue', ssh: 'purple', link: 'default' };

export default function SessionList({ deviceId }: { deviceId: number }) {
  const { t } = useTranslation();
  const list = useListState(SPEC, '', true);
  const [input, setInput] = useState<RemoteSession | null>(null);
  const columns: ColumnsType<RemoteSession> = [
    {
      title: t('rlink.session.kind'),
      dataIndex: 'kind',
      key: 'kind',
      render: (v: string) => <Tag color={KIND_COLORS[v]}>{t(`rlink.session.kind.${v}`, { defaultValue: v })}</Tag>,
    },
    { title: t('rlink.session.user'), dataIndex: 'userName', key: 'userName' },
    { title: t('rlink.session.ip'), dataIndex: 'ip', key: 'ip', render: (v: string) => v || '-' },
    { title: t('rlink.session.started'), dataIndex: 'startedAt', key: 'startedAt', render: (v: number) => formatTime(v) },
    {
      title: t('rlink.session.ended'),
      dataIndex: 'endedAt',
      key: 'endedAt',
      render: (v: number) => (v ? formatTime(v) : <Tag color="processing">{t('rlink.session.active')}</Tag>),
    },
    { title: t('rlink.session.duration'), dataIndex: 'durationSec', key: 'durationSec', render: (v: number, r) => (r.endedAt ? formatRemaining(v) : '-') },
  ];
  columns.push({
    title: t('rlink.session.input'),
    key: 'input',
    render: (_: unknown, r) =>
      r.kind !== 'ssh' ? (
        '-'
      ) : r.inputHidden ? (
        <Typography.Text type="secondary" data-testid="session-input-hidden">
          {t('rlink.session.inputHidden')}
        </Typography.Text>
      ) : r.input ? (
        <a onClick={() => setInput(r)} data-testid="session-input">
          {t('rlink.session.viewInput')}
        </a>
      ) : (
        '-'
      ),
  });
  return (
    <>
      <ListPage<RemoteSession>
        list={list}
        queryKey={remoteKeys.sessions(deviceId)}
        fetcher={(q) => listLinkSessions({ ...(q as unknown as SessionListInput), deviceId })}
        columns={columns}
        testId="remote-sessions"
      />
      <Modal
        open={!!input}
        title={input && t('rlink.session.inputTitle', { user: input.userName, time: formatTime(input.startedAt) })}
        onCancel={() => setInput(null)}
        footer={null}
        width={720}
      >
        {input?.inputTruncated && <Alert type="warning" showIcon message={t('rlink.session.truncated')} style={{ marginBottom: 8 }} />}
        <Typography.Paragraph>
          <pre style={{ maxHeight: 420, overflow: 'auto', whiteSpace: 'pre-wrap', wordBreak: 'break-all' }} data-testid="session-input-text">
            {readableInput(input?.input ?? '')}
          </pre>
        </Typography.Paragraph>
      </Modal>
    </>
  );
}
