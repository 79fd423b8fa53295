/**
 * The client certificates the charge-point CA signed for a device (SignCertificate), newest
 * first: serial, subject, issuer, validity, whether the charger installed it, and a mark on
 * one that ends within EXPIRING_DAYS (utils/certificates) or has ended.
 */
import { Empty, Table, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { fleetKeys, listCertificates, type DeviceCertificate } from '../../../services/fleet';
import { formatTime } from '../../../utils/time';
import { emptyTextOf } from '../../../components/TableState';
import { certificateHealth, HEALTH_COLORS } from '../../../utils/certificates';

const STATE_COLORS = ['blue', 'green', 'red', 'orange'];

export default function CertificateTable({ deviceId }: { deviceId: number }) {
  const { t } = useTranslation();
  const q = useQuery({ queryKey: fleetKeys.certificates(deviceId), queryFn: () => listCertificates(deviceId) });
  const now = Date.now();
  return (
    <Table<DeviceCertificate>
      size="small"
      rowKey="id"
      loading={q.isPending}
      dataSource={q.data ?? []}
      pagination={false}
      data-testid="device-certificates"
      locale={{ emptyText: emptyTextOf(q, <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('device.security.noCertificates')} />) }}
      columns={[
        { title: t('device.security.serial'), dataIndex: 'serial', render: (v: string) => <Typography.Text code>{v}</Typography.Text> },
        { title: t('device.security.subject'), dataIndex: 'subject' },
        { title: t('device.security.issuer'), dataIndex: 'issuer' },
        { title: t('device.security.notBefore'), dataIndex: 'notBefore', render: (v: number) => formatTime(v) },
        {
          title: t('device.security.notAfter'),
          dataIndex: 'notAfter',
          render: (v: number) => {
            const h = certificateHealth(v, now);
            return (
              <>
                {formatTime(v)} <Tag color={HEALTH_COLORS[h]}>{t(`device.security.health.${h}`)}</Tag>
              </>
            );
          },
        },
        {
          title: t('device.security.state'),
          dataIndex: 'state',
          render: (v: number) => <Tag color={STATE_COLORS[v]}>{t(`device.security.certState.${v}`)}</Tag>,
        },
      ]}
    />
  );
}
