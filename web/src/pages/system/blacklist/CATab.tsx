/**
 * The device-access page's Charge-point CA tab (docs/security-profiles.md, "The charge-point
 * CA"): the CA that signs chargers' client certificates (built in or the operator's, whether
 * this node holds its key, its certificate to download and install on chargers), the other CAs
 * trusted for client certificates, and each device's installed certificate, soonest expiry
 * first, with a link to the device's Security tab to renew it.
 */
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Descriptions, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import ListPage from '../../../components/ListPage';
import { useListState } from '../../../hooks/useListState';
import { caTexts } from '../../../locales/domains/ca';
import { registerTexts } from '../../../locales/domains';
import { caKeys, getCA, listFleetCertificates, type CACertificate, type FleetCertificate } from '../../../services/ca';
import { saveBlob } from '../../../services/download';
import { formatTime } from '../../../utils/time';
import { pemFileName } from './caView';
import { EXPIRING_DAYS, expiry, HEALTH_COLORS } from '../../../utils/certificates';

registerTexts(caTexts);

const SPEC = { sn: 'string', expiringWithinDays: 'number' } as const;

/** Saves a certificate's PEM as a .crt file. */
const savePEM = (c: CACertificate) => saveBlob(new Blob([c.pem], { type: 'application/x-pem-file' }), pemFileName(c.subject));

function ExpiryTag({ notAfter }: { notAfter: number }) {
  const { t } = useTranslation();
  const e = expiry(notAfter, Date.now());
  return <Tag color={HEALTH_COLORS[e.state]}>{t(`ca.expiry.${e.state}`, { count: Math.abs(e.days) })}</Tag>;
}

function CACard() {
  const { t } = useTranslation();
  const { data: st, isLoading } = useQuery({ queryKey: caKeys.detail, queryFn: getCA });
  const trustedColumns: ColumnsType<CACertificate> = [
    { title: t('ca.subject'), dataIndex: 'subject', key: 'subject' },
    { title: t('ca.notAfter'), dataIndex: 'notAfter', key: 'notAfter', render: (v: number) => <Space>{formatTime(v)}<ExpiryTag notAfter={v} /></Space> },
    { title: t('ca.fingerprint'), dataIndex: 'fingerprint', key: 'fingerprint', render: (v: string) => <Typography.Text code copyable={{ text: v }}>{v.slice(0, 16)}…</Typography.Text> },
    { title: '', key: 'download', render: (_: unknown, c) => <a onClick={() => savePEM(c)}>{t('ca.download')}</a> },
  ];
  return (
    <Card title={t('ca.title')} loading={isLoading} data-testid="ca-card">
      {st && (
        <Space direction="vertical" style={{ width: '100%' }}>
          <Descriptions column={{ xs: 1, md: 2 }} size="small" bordered>
            <Descriptions.Item label={t('ca.source')}>
              <span data-testid="ca-source">{t(`ca.source.${st.source}`, { defaultValue: st.source })}</span>
            </Descriptions.Item>
            <Descriptions.Item label={t('ca.canSign')}>
              {st.canSign ? <Tag color="green">{t('ca.canSign.yes')}</Tag> : <Tag color="red">{t('ca.canSign.no')}</Tag>}
            </Descriptions.Item>
            <Descriptions.Item label={t('ca.subject')}>
              <span data-testid="ca-subject">{st.ca.subject}</span>
            </Descriptions.Item>
            <Descriptions.Item label={t('ca.keyType')}>{st.ca.keyType}</Descriptions.Item>
            <Descriptions.Item label={t('ca.serial')}>
              <Typography.Text code>{st.ca.serial}</Typography.Text>
            </Descriptions.Item>
            <Descriptions.Item label={t('ca.validityDays')}>{t('ca.days', { count: st.validityDays })}</Descriptions.Item>
            <Descriptions.Item label={t('ca.notBefore')}>{formatTime(st.ca.notBefore)}</Descriptions.Item>
            <Descriptions.Item label={t('ca.notAfter')}>
              <Space>
                {formatTime(st.ca.notAfter)}
                <ExpiryTag notAfter={st.ca.notAfter} />
              </Space>
            </Descriptions.Item>
            <Descriptions.Item label={t('ca.fingerprint')} span={2}>
              <Typography.Text code copyable>
                {st.ca.fingerprint}
              </Typography.Text>
            </Descriptions.Item>
          </Descriptions>
          {!st.canSign && <Typography.Text type="warning">{t('ca.cannotSignHint')}</Typography.Text>}
          <Button onClick={() => savePEM(st.ca)} data-testid="ca-download">
            {t('ca.downloadCA')}
          </Button>
          <Typography.Title level={5}>{t('ca.trusted')}</Typography.Title>
          <Table<CACertificate> rowKey="fingerprint" size="small" columns={trustedColumns} dataSource={st.trusted} pagination={false} locale={{ emptyText: t('ca.trusted.none') }} />
        </Space>
      )}
    </Card>
  );
}

function FleetCertificates() {
  const { t } = useTranslation();
  const list = useListState(SPEC);
  const columns: ColumnsType<FleetCertificate> = [
    {
      title: t('device.sn'),
      dataIndex: 'sn',
      key: 'sn',
      render: (v: string, r) => <Link to={`/manage/device/detail/${r.deviceId}/security`}>{v}</Link>,
    },
    { title: t('ca.deviceName'), dataIndex: 'deviceName', key: 'deviceName' },
    { title: t('ca.serial'), dataIndex: 'serial', key: 'serial', render: (v: string) => <Typography.Text code>{v}</Typography.Text> },
    { title: t('ca.notAfter'), dataIndex: 'notAfter', key: 'notAfter', render: (v: number) => formatTime(v) },
    { title: t('ca.expiry'), key: 'expiry', render: (_: unknown, r) => <ExpiryTag notAfter={r.notAfter} /> },
    { title: t('ca.issuer'), dataIndex: 'issuer', key: 'issuer' },
  ];
  return (
    <Card title={t('ca.fleet')} data-testid="fleet-certificates">
      <ListPage<FleetCertificate>
        list={list}
        queryKey={caKeys.fleet}
        fetcher={listFleetCertificates}
        columns={columns}
        rowKey="id"
        testId="fleet-certificates-table"
        filters={[
          { name: 'sn', label: t('device.sn') },
          {
            name: 'expiringWithinDays',
            label: t('ca.expiringWithin'),
            width: 180,
            options: [EXPIRING_DAYS, 90, 365].map((d) => ({ value: d, label: t('ca.days', { count: d }) })),
          },
        ]}
      />
    </Card>
  );
}

export default function CATab() {
  return (
    <Space direction="vertical" style={{ width: '100%' }} size="middle">
      <CACard />
      <FleetCertificates />
    </Space>
  );
}
