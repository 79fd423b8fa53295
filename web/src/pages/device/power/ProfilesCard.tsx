/**
 * The charging profiles chargeops set on the charger (GET dev/profile/list): by operators and by
 * the site load manager, with the charger's answer (refused in red with its message). With
 * auth_device_edit and auth_device_chargingProfile: set a profile (SetProfileModal, control type
 * 26), clear one (27 with clear.id) or all (27 without clear), each confirmed and followed to its
 * result like the other operations (useCommands).
 */
import { useState } from 'react';
import { App, Button, Card, Space, Tag, Typography, type ButtonProps } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { CommandResults } from '../../../components/fleet';
import QueryTable from '../../../components/QueryTable';
import { useCommands } from '../../../hooks/useCommands';
import { listProfiles, messageText, powerKeys, PROFILE_STATE_COLORS, scParams, type ProfileRow } from '../../../services/power';
import { formatTime } from '../../../utils/time';
import { periodsSummary, SC_CTL } from './profile';
import SetProfileModal from './SetProfileModal';

/** While a profile waits for the charger's answer its state is read again this often. */
const PENDING_POLL_MS = 3000;

export default function ProfilesCard({ device, editable }: { device: { id: number; sn: string }; editable: boolean }) {
  const { t, i18n } = useTranslation();
  const { modal } = App.useApp();
  const qc = useQueryClient();
  const cmds = useCommands();
  const [setting, setSetting] = useState(false);
  const q = useQuery({
    queryKey: powerKeys.profiles(device.id),
    queryFn: () => listProfiles(device.id),
    refetchInterval: (query) => ((query.state.data ?? []).some((r) => r.state === 0) ? PENDING_POLL_MS : false),
  });
  const refresh = () => qc.invalidateQueries({ queryKey: powerKeys.profiles(device.id) });
  const msg = (m: string) => messageText(m, t, (k) => i18n.exists(k));

  const clear = (row: ProfileRow | null) =>
    modal.confirm({
      title: row ? t('sc.clearConfirm', { id: row.profile.id, sn: device.sn }) : t('sc.clearAllConfirm', { sn: device.sn }),
      content: t('sc.clearHint'),
      okText: row ? t('sc.clear') : t('sc.clearAll'),
      cancelText: t('com_cancel'),
      okButtonProps: { danger: true, 'data-testid': 'confirm-ok' } as ButtonProps,
      onOk: async () => {
        await cmds.send([device], SC_CTL.clearProfile, scParams(row ? { clear: { id: row.profile.id } } : {}));
        await refresh();
      },
    });

  const columns: ColumnsType<ProfileRow> = [
    { title: t('sc.col.connector'), dataIndex: 'connectorId', key: 'connectorId', width: 90, render: (v: number) => (v === 0 ? t('sc.connector.0') : v) },
    { title: t('sc.f.id'), key: 'id', render: (_: unknown, r) => <span data-testid="sc-profile-id">{r.profile.id}</span> },
    { title: t('sc.f.purpose'), key: 'purpose', render: (_: unknown, r) => <span title={r.profile.purpose}>{t(`sc.purpose.${r.profile.purpose}`, { defaultValue: r.profile.purpose })}</span> },
    { title: t('sc.f.stackLevel'), key: 'stackLevel', render: (_: unknown, r) => r.profile.stackLevel },
    {
      title: t('sc.f.kind'),
      key: 'kind',
      render: (_: unknown, r) =>
        `${t(`sc.kind.${r.profile.kind}`, { defaultValue: r.profile.kind })}${r.profile.recurrency ? ` · ${t(`sc.recurrency.${r.profile.recurrency}`, { defaultValue: r.profile.recurrency })}` : ''}`,
    },
    { title: t('sc.f.unit'), key: 'unit', render: (_: unknown, r) => r.profile.schedule.unit },
    {
      title: t('sc.f.periods'),
      key: 'periods',
      render: (_: unknown, r) => (
        <Typography.Text data-testid="sc-profile-periods" style={{ whiteSpace: 'nowrap' }}>
          {periodsSummary(r.profile.schedule.periods, r.profile.schedule.unit)}
        </Typography.Text>
      ),
    },
    {
      title: t('sc.col.validity'),
      key: 'validity',
      render: (_: unknown, r) =>
        r.profile.validFrom || r.profile.validTo ? (
          <Space direction="vertical" size={0}>
            {!!r.profile.validFrom && <span>{t('sc.validFrom', { time: formatTime(r.profile.validFrom) })}</span>}
            {!!r.profile.validTo && <span>{t('sc.validTo', { time: formatTime(r.profile.validTo) })}</span>}
          </Space>
        ) : (
          t('sc.always')
        ),
    },
    {
      title: t('sc.col.source'),
      dataIndex: 'source',
      key: 'source',
      render: (v: string) => (
        <Tag color={v === 'load' ? 'purple' : 'blue'} data-testid="sc-profile-source" data-source={v}>
          {t(`sc.source.${v}`, { defaultValue: v })}
        </Tag>
      ),
    },
    {
      title: t('sc.col.state'),
      dataIndex: 'state',
      key: 'state',
      render: (v: number, r) => (
        <Space direction="vertical" size={0}>
          <Tag color={PROFILE_STATE_COLORS[v] ?? 'default'} data-testid="sc-profile-state" data-state={v}>
            {t(`sc.state.${v}`, { defaultValue: String(v) })}
          </Tag>
          {r.message && (
            <Typography.Text type={v === 2 ? 'danger' : 'secondary'} data-testid="sc-profile-message">
              {msg(r.message)}
            </Typography.Text>
          )}
        </Space>
      ),
    },
    { title: t('sc.col.createdBy'), dataIndex: 'createdBy', key: 'createdBy', render: (v: string) => v || '-' },
    { title: t('sc.col.updated'), dataIndex: 'updatedAt', key: 'updatedAt', render: (v: number) => formatTime(v) },
    ...(editable
      ? [
          {
            title: t('sc.col.actions'),
            key: 'actions',
            render: (_: unknown, r: ProfileRow) => (
              <Button size="small" danger disabled={cmds.sending} onClick={() => clear(r)} data-testid="sc-profile-clear">
                {t('sc.clear')}
              </Button>
            ),
          },
        ]
      : []),
  ];

  return (
    <Card
      title={t('sc.profiles')}
      style={{ marginBottom: 16 }}
      data-testid="sc-profiles-card"
      extra={
        editable && (
          <Space>
            <Button danger disabled={cmds.sending} onClick={() => clear(null)} data-testid="sc-profile-clear-all">
              {t('sc.clearAll')}
            </Button>
            <Button type="primary" onClick={() => setSetting(true)} data-testid="sc-profile-set">
              {t('sc.set')}
            </Button>
          </Space>
        )
      }
    >
      <Typography.Paragraph type="secondary">{t('sc.profilesHint')}</Typography.Paragraph>
      {!editable && <Typography.Paragraph type="secondary">{t('sc.notAllowed')}</Typography.Paragraph>}
      <QueryTable<ProfileRow>
        query={q}
        rowKey={(r) => `${r.connectorId}/${r.profile.id}`}
        size="small"
        columns={columns}
        dataSource={q.data ?? []}
        pagination={false}
        scroll={{ x: 'max-content' }}
        empty={t('sc.noProfiles')}
        data-testid="sc-profiles"
      />
      {!setting && (
        <div style={{ marginTop: 12 }}>
          <CommandResults states={cmds.states} sending={cmds.sending} />
        </div>
      )}
      {setting && (
        <SetProfileModal
          device={device}
          rows={q.data ?? []}
          cmds={cmds}
          onClose={() => setSetting(false)}
          onSent={() => {
            setSetting(false);
            void refresh();
          }}
        />
      )}
    </Card>
  );
}
