/**
 * The device page's Security tab (docs/security-profiles.md): the security profile the
 * device's connections must prove, whether it has a key, with auth_device_edit a change of
 * profile, and the client certificates the charge-point CA signed for it. Raising one the charger is not ready for cuts it off at its next connection;
 * lowering one weakens it: both are confirmed, and the action log keeps every change. Below it,
 * the OCPP protocol the charger is admitted with (ProtocolSetting).
 */
import { useState } from 'react';
import { Alert, Button, Card, Descriptions, Divider, Radio, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../../components/access';
import { useActions } from '../../../hooks/useActions';
import { deviceKeys, setSecurityProfile } from '../../../services/device';
import { CTL, fleetKeys, sendControl } from '../../../services/fleet';
import type { Device } from '../../../services/typings';
import { PROFILES, profileChange, profileNeeds } from './profile';
import CertificateTable from './CertificateTable';
import InstalledCertificates from './InstalledCertificates';
import SecurityEvents from './SecurityEvents';
import ProtocolSetting from './ProtocolSetting';

export default function SecurityTab({ device: d }: { device: Device }) {
  const { t } = useTranslation();
  const can = useCan();
  const { confirm } = useActions();
  const [chosen, setChosen] = useState<number>(d.securityProfile);
  const change = profileChange(d.securityProfile, chosen);
  const needs = profileNeeds(chosen, d.hasKey);
  const save = () =>
    confirm(() => setSecurityProfile(d.id, chosen), {
      title: t(change === 'lower' ? 'device.security.confirmLower' : 'device.security.confirmRaise', {
        sn: d.sn,
        from: d.securityProfile,
        to: chosen,
      }),
      content: (
        <Space direction="vertical">
          {change === 'lower' && <span>{t('device.security.lowerHint')}</span>}
          {needs.map((k) => (
            <span key={k}>{t(k)}</span>
          ))}
          <span>{t('device.security.nextConnection')}</span>
        </Space>
      ),
      danger: change === 'lower',
      invalidate: [deviceKeys.details],
    });
  // ExtendedTriggerMessage SignChargePointCertificate: the charger answers, then sends a new CSR
  const renew = () =>
    confirm(() => sendControl({ deviceIds: [d.id], controlType: CTL.renewCertificate }), {
      title: t('device.security.confirmRenew', { sn: d.sn }),
      content: t('device.security.renewHint'),
      success: t('device.security.renewSent'),
      invalidate: [fleetKeys.certificates(d.id)],
    });
  return (
    <>
      <Card title={t('device.security.title')} data-testid="device-security" style={{ marginBottom: 16 }}>
        <Descriptions bordered size="small" column={1} style={{ marginBottom: 16 }}>
          <Descriptions.Item label={t('device.security.profile')}>
            <Space>
              <Tag color={d.securityProfile >= 2 ? 'green' : d.securityProfile === 1 ? 'blue' : 'orange'} data-testid="security-profile">
                {t('device.security.profileN', { n: d.securityProfile })}
              </Tag>
              <Typography.Text type="secondary">{t(`device.security.profile${d.securityProfile}`)}</Typography.Text>
            </Space>
          </Descriptions.Item>
          <Descriptions.Item label={t('device.security.key')}>
            <span data-testid="security-key">{d.hasKey ? t('device.security.keySet') : t('device.security.keyNone')}</span>
          </Descriptions.Item>
        </Descriptions>
        <Typography.Paragraph type="secondary">{t('device.security.rule')}</Typography.Paragraph>
        {can('auth_device_edit') && (
          <Space direction="vertical" style={{ width: '100%' }}>
            <Radio.Group value={chosen} onChange={(e) => setChosen(e.target.value as number)} data-testid="security-choose">
              <Space direction="vertical">
                {PROFILES.map((p) => (
                  <Radio key={p} value={p} data-testid={`security-choose-${p}`}>
                    {t('device.security.profileN', { n: p })} · {t(`device.security.profile${p}`)}
                  </Radio>
                ))}
              </Space>
            </Radio.Group>
            {change !== 'same' && needs.length > 0 && (
              <Alert type="warning" showIcon message={needs.map((k) => t(k)).join(' ')} data-testid="security-needs" />
            )}
            <Button type="primary" disabled={change === 'same'} onClick={save} data-testid="security-save">
              {t('device.security.save')}
            </Button>
          </Space>
        )}
        <Divider />
        <ProtocolSetting key={`${d.id}-${d.protocol}`} device={d} />
      </Card>
      <Card
        title={t('device.security.certificates')}
        extra={
          can(['auth_device_edit', 'auth_device_certificate'], 'all') && (
            <Button onClick={renew} data-testid="security-renew">
              {t('device.security.renew')}
            </Button>
          )
        }
      >
        <Typography.Paragraph type="secondary">{t('device.security.certificatesHint')}</Typography.Paragraph>
        <CertificateTable deviceId={d.id} />
      </Card>
      <InstalledCertificates device={d} />
      <SecurityEvents device={d} />
    </>
  );
}
