/** The row of pies: devices (status outside, health inside), models, open alarms by level, open faults by type. */
import { useMemo } from 'react';
import { Card, Col, Row, Space, Statistic, Tooltip } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
// the pie alone, not the charts' barrel: its period picker (antd's date pickers) is not part of the first load
import PieChart from '../../components/charts/PieChart';
import type { HomeOverview } from '../../services/stats';
import { formatCount } from '../../utils/format';
import { activitySlices, deviceListUrl, healthSlices, kindEvents, kindSlices, levelEvents, levelSlices, modelSlices, openAlarmEvents, sum, type EventFilter } from './figures';

export interface FiguresProps {
  data: HomeOverview | undefined;
  loading: boolean;
  /** Whether the user may open the device list / the event list. */
  canDevices: boolean;
  canEvents: boolean;
  openEvents(title: string, filter: EventFilter): void;
}

const COL = { xs: 24, md: 12, xxl: 6 } as const;
const PIE_HEIGHT = 220;

/** A clickable figure with a label (a Statistic), read by tests through data-value. */
function Figure({ title, hint, value, testId, onClick }: { title: string; hint?: string; value: number | undefined; testId: string; onClick?: () => void }) {
  const stat = (
    <Statistic
      title={title}
      value={value === undefined ? '-' : formatCount(value)}
      valueStyle={{ fontSize: 20, cursor: onClick ? 'pointer' : undefined }}
    />
  );
  return (
    <div
      data-testid={testId}
      data-value={value ?? ''}
      onClick={onClick}
      role={onClick ? 'button' : undefined}
      tabIndex={onClick ? 0 : undefined}
      onKeyDown={onClick && ((e) => (e.key === 'Enter' || e.key === ' ') && (e.preventDefault(), onClick()))}
    >
      {hint ? <Tooltip title={hint}>{stat}</Tooltip> : stat}
    </div>
  );
}

export default function Figures({ data, loading, canDevices, canEvents, openEvents }: FiguresProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  // the same arrays while the answer and language stay: the pies redraw only on a change
  const activity = useMemo(() => activitySlices(data, t), [data, t]);
  const health = useMemo(() => healthSlices(data, t), [data, t]);
  const models = useMemo(() => modelSlices(data, t), [data, t]);
  const levels = useMemo(() => levelSlices(data, t), [data, t]);
  const kinds = useMemo(() => kindSlices(data, t), [data, t]);
  const toDevices = (key: string) => {
    const url = deviceListUrl(key);
    if (url) void navigate(url);
  };
  const nameOf = (slices: { key: string; name: string }[], key: string) => slices.find((s) => s.key === key)?.name ?? key;
  const onLevel = (key: string) => {
    const f = levelEvents(key);
    if (f) openEvents(t('home.drawer.level', { level: nameOf(levels, key) }), f);
  };
  const onKind = (key: string) => {
    const f = kindEvents(key);
    if (f) openEvents(t('home.drawer.kind', { kind: nameOf(kinds, key) }), f);
  };
  const openAlarms = data ? sum(levels) : undefined;
  return (
    <Row gutter={[16, 16]}>
      <Col {...COL}>
        <Card title={t('home.devices')} extra={data && <span data-testid="home-devices-total" data-value={data.devices}>{t('home.devices.total', { count: data.devices, formatted: formatCount(data.devices) })}</span>} style={{ height: '100%' }}>
          <PieChart
            slices={activity}
            inner={health}
            ringNames={{ outer: t('home.ring.activity'), inner: t('home.ring.health') }}
            loading={loading}
            height={PIE_HEIGHT}
            testId="home-pie-devices"
            onSelect={canDevices ? toDevices : undefined}
          />
        </Card>
      </Col>
      <Col {...COL}>
        <Card title={t('home.models')} style={{ height: '100%' }}>
          <PieChart slices={models} loading={loading} height={PIE_HEIGHT} testId="home-pie-models" onSelect={canDevices ? toDevices : undefined} />
        </Card>
      </Col>
      <Col {...COL}>
        <Card title={t('home.alarms')} style={{ height: '100%' }}>
          <Space size="large" style={{ marginBottom: 8 }}>
            <Figure
              title={t('home.alarms.open')}
              value={openAlarms}
              testId="home-alarms-open"
              onClick={canEvents ? () => openEvents(t('home.alarms.open'), openAlarmEvents()) : undefined}
            />
            <Figure
              title={t('home.alarms.devices')}
              hint={t('home.alarms.devicesHint')}
              value={data?.devicesInAlarm}
              testId="home-devices-in-alarm"
              onClick={canEvents ? () => openEvents(t('home.alarms.devices'), openAlarmEvents()) : undefined}
            />
          </Space>
          <PieChart slices={levels} loading={loading} height={PIE_HEIGHT - 60} testId="home-pie-alarms" onSelect={canEvents ? onLevel : undefined} />
        </Card>
      </Col>
      <Col {...COL}>
        <Card
          title={t('home.faults')}
          extra={data && <span data-testid="home-faults-total" data-value={sum(kinds)}>{t('home.faults.openCount', { formatted: formatCount(sum(kinds)) })}</span>}
          style={{ height: '100%' }}
        >
          <PieChart slices={kinds} loading={loading} height={PIE_HEIGHT} testId="home-pie-faults" onSelect={canEvents ? onKind : undefined} />
        </Card>
      </Col>
    </Row>
  );
}
