/**
 * The card "Security events" of a device's Security tab (docs/security-profiles.md, "Security
 * events"): the SecurityEventNotifications the charger sent, newest first (time, type by its
 * readable name with the raw type beside, critical tag, technical info, the alarm a critical one
 * opened: open or ended), filtered by type, criticality and time, paged, and exported to xlsx
 * with the same filter. Users holding auth_device_edit acknowledge an event whose alarm is
 * open: the alarm ends (POST dev/security/event/ack, an action-log row).
 */
import { useState } from 'react';
import { App, Badge, Button, Card, Tag, Typography } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import ListPage, { type FilterField } from '../../../components/ListPage';
import { useCan } from '../../../components/access';
import { useActions } from '../../../hooks/useActions';
import { useListState } from '../../../hooks/useListState';
import { deviceKeys } from '../../../services/device';
import { fleetKeys } from '../../../services/fleet';
import {
  ackSecurityEvents,
  exportSecurityEvents,
  listSecurityEvents,
  securityEventKeys,
  type SecurityEvent,
} from '../../../services/securityEvents';
import { registerTexts } from '../../../locales/domains';
import { securityEventTexts } from '../../../locales/domains/securityEvents';
import { formatTime } from '../../../utils/time';
import { alarmState, canAcknowledge, SECURITY_EVENT_TYPES, securityEventBody, typeLabel } from './securityEvents';

registerTexts(securityEventTexts);

const SPEC = { type: 'string', critical: 'number', startTime: 'number', endTime: 'number' } as const;
const ALARM_BADGES = { open: 'error', ended: 'default', none: 'default' } as const;

export default function SecurityEvents({ device }: { device: { id: number; sn: string } }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const can = useCan();
  const { confirm } = useActions();
  const list = useListState(SPEC, '', true);
  const [exporting, setExporting] = useState(false);
  const canEdit = can('auth_device_edit');

  const acknowledge = (e: SecurityEvent) =>
    confirm(() => ackSecurityEvents([e.id ?? 0]), {
      title: t('secEvent.confirmAck', { sn: device.sn, type: typeLabel(e.type ?? '', t) }),
      content: t('secEvent.ackHint'),
      success: t('secEvent.acked'),
      invalidate: [securityEventKeys.list(device.id), fleetKeys.events(device.id), deviceKeys.details],
    });

  const columns: ColumnsType<SecurityEvent> = [
    { title: t('secEvent.occurredAt'), dataIndex: 'occurredAt', key: 'occurredAt', render: (v: number) => formatTime(v) },
    {
      title: t('secEvent.type'),
      dataIndex: 'type',
      key: 'type',
      render: (v: string) => {
        const label = typeLabel(v, t);
        return (
          <span data-testid="sec-event-type">
            {label}
            {label !== v && (
              <Typography.Text type="secondary" translate="no">
                {' · '}
                {v}
              </Typography.Text>
            )}
          </span>
        );
      },
    },
    {
      title: t('secEvent.critical'),
      dataIndex: 'critical',
      key: 'critical',
      render: (v: boolean) => (v ? <Tag color="red">{t('secEvent.critical')}</Tag> : <Tag>{t('secEvent.notCritical')}</Tag>),
    },
    { title: t('secEvent.techInfo'), dataIndex: 'techInfo', key: 'techInfo', render: (v: string) => v || '-' },
    {
      title: t('secEvent.alarm'),
      key: 'alarm',
      render: (_: unknown, r) => {
        const s = alarmState(r);
        if (s === 'explained') return <Tag data-testid="sec-event-alarm-explained">{t('secEvent.alarm.explained', { id: r.commandId })}</Tag>;
        return s === 'none' ? '-' : <Badge status={ALARM_BADGES[s]} text={t(`secEvent.alarm.${s}`)} data-testid={`sec-event-alarm-${s}`} />;
      },
    },
    ...(canEdit
      ? [
          {
            title: t('secEvent.actions'),
            key: 'actions',
            render: (_: unknown, r: SecurityEvent) =>
              canAcknowledge(r, canEdit) ? (
                <a onClick={() => acknowledge(r)} data-testid="sec-event-ack">
                  {t('secEvent.ack')}
                </a>
              ) : null,
          },
        ]
      : []),
  ];
  const filters: FilterField[] = [
    {
      name: 'type',
      label: t('secEvent.type'),
      width: 260,
      options: SECURITY_EVENT_TYPES.map((x) => ({ value: x.type, label: typeLabel(x.type, t) })),
    },
    { name: 'critical', label: t('secEvent.critical'), width: 140, options: [{ value: 1, label: t('secEvent.criticalOnly') }] },
    { name: 'time', label: t('secEvent.occurredAt'), timeRange: ['startTime', 'endTime'] },
  ];
  const doExport = async () => {
    setExporting(true);
    const done = message.loading(t('secEvent.exporting'), 0);
    try {
      await exportSecurityEvents(securityEventBody(device.id, list.query, false));
    } catch {
      /* toasted */
    } finally {
      done();
      setExporting(false);
    }
  };
  return (
    <Card title={t('secEvent.title')} style={{ marginTop: 16 }} data-testid="device-security-events">
      <Typography.Paragraph type="secondary">{t('secEvent.hint')}</Typography.Paragraph>
      <ListPage<SecurityEvent>
        list={list}
        queryKey={securityEventKeys.list(device.id)}
        fetcher={(q) => listSecurityEvents(securityEventBody(device.id, q))}
        columns={columns}
        filters={filters}
        testId="sec-events"
        toolbar={
          <Button icon={<DownloadOutlined />} loading={exporting} onClick={() => void doExport()} data-testid="sec-events-export">
            {t('secEvent.export')}
          </Button>
        }
      />
    </Card>
  );
}
