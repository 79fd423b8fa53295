/**
 * One charging session in a drawer: what it was (device, site, customer, connector, idTag,
 * times, meter readings, energy in kWh, duration, stop reason, flags explained), the stop button
 * while it charges, its meter timeline and its signed meter data (docs/sessions.md).
 */
import { Card, Descriptions, Drawer, Space, Tag, Tooltip } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../../utils/time';
import { formatKWh, formatSessionDuration } from '../format';
import { getSession, sessionKeys } from '../../../services/session';
import { StateTag } from './SessionTable';
import SignedTable from './SignedTable';
import StopButton from './StopButton';
import Timeline from './Timeline';

export default function SessionDrawer({ id, onClose }: { id: number; onClose(): void }) {
  const { t, i18n } = useTranslation();
  const q = useQuery({ queryKey: sessionKeys.detail(id), queryFn: () => getSession(id), refetchInterval: (s) => (s.state.data?.stoppedAt === 0 ? 30_000 : false) });
  const s = q.data;
  const wh = (v: number) => formatKWh(v, i18n.language);
  return (
    <Drawer open width={880} onClose={onClose} title={t('session.detail', { id })} loading={q.isPending} extra={s && <StopButton session={s} />}>
      {s && (
        <div data-testid="session-detail">
          <Descriptions bordered size="small" column={2} style={{ marginBottom: 16 }}>
            <Descriptions.Item label={t('session.sn')}>{s.sn}</Descriptions.Item>
            <Descriptions.Item label={t('session.state')}>
              <StateTag row={s} />
            </Descriptions.Item>
            <Descriptions.Item label={t('session.customer')}>{s.customerName || '-'}</Descriptions.Item>
            <Descriptions.Item label={t('session.site')}>{s.siteName || '-'}</Descriptions.Item>
            <Descriptions.Item label={t('session.connector')}>{s.connectorId}</Descriptions.Item>
            <Descriptions.Item label={t('session.idTag')}>
              <span translate="no">{s.idTag || '-'}</span>
            </Descriptions.Item>
            <Descriptions.Item label={t('session.startedAt')}>{formatTime(s.startedAt)}</Descriptions.Item>
            <Descriptions.Item label={t('session.stoppedAt')}>{s.stoppedAt > 0 ? formatTime(s.stoppedAt) : '-'}</Descriptions.Item>
            <Descriptions.Item label={t('session.meterStart')}>{wh(s.meterStart)}</Descriptions.Item>
            <Descriptions.Item label={t('session.meterStop')}>{s.stoppedAt > 0 ? wh(s.meterStop) : '-'}</Descriptions.Item>
            <Descriptions.Item label={t('session.energy')}>
              <span data-testid="session-energy">{s.stoppedAt > 0 ? wh(s.energyWh) : '-'}</span>
            </Descriptions.Item>
            <Descriptions.Item label={t('session.duration')}>{formatSessionDuration(s.durationMs)}</Descriptions.Item>
            <Descriptions.Item label={t('session.reason')}>{s.reason || '-'}</Descriptions.Item>
            <Descriptions.Item label={t('session.flags')}>
              {s.flagNames.length ? (
                <Space wrap size={4}>
                  {s.flagNames.map((f) => (
                    <Tooltip key={f} title={t(`session.flag.${f}`)}>
                      <Tag color="warning">{t(`session.flag.${f}`)}</Tag>
                    </Tooltip>
                  ))}
                </Space>
              ) : (
                '-'
              )}
            </Descriptions.Item>
          </Descriptions>
          <Card size="small" title={t('session.timeline')} style={{ marginBottom: 16 }}>
            <Timeline session={s} />
          </Card>
          <Card size="small" title={t('session.signed')}>
            <SignedTable id={s.id} values={s.signed} />
          </Card>
        </div>
      )}
    </Drawer>
  );
}
