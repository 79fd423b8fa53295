/**
 * The OCPP protocol a device's charger is admitted with (docs/ocpp201.md): auto (the newest both
 * sides speak), OCPP 1.6 or OCPP 2.0.1; with auth_device_edit a change, confirmed, that applies
 * from the charger's next connection. The action log keeps every change.
 */
import { useState } from 'react';
import { Button, Select, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../../components/access';
import { useActions } from '../../../hooks/useActions';
import { registerTexts } from '../../../locales/domains';
import { ocpp201Texts } from '../../../locales/domains/ocpp201';
import { deviceKeys, setDeviceProtocol } from '../../../services/device';
import type { Device } from '../../../services/typings';
import { PROTOCOL_SETTINGS, protocolSettingKey } from '../evse';

registerTexts(ocpp201Texts);

export default function ProtocolSetting({ device: d }: { device: Device }) {
  const { t } = useTranslation();
  const can = useCan();
  const { confirm } = useActions();
  const [chosen, setChosen] = useState<string>(d.protocol);
  const save = () =>
    confirm(() => setDeviceProtocol(d.id, chosen), {
      title: t('ocpp201.protocol.confirm', { sn: d.sn, protocol: t(protocolSettingKey(chosen)) }),
      content: t('ocpp201.protocol.help'),
      success: t('ocpp201.protocol.saved'),
      invalidate: [deviceKeys.details],
    });
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="device-protocol">
      <Space wrap>
        <Typography.Text strong>{t('ocpp201.protocol')}</Typography.Text>
        <Tag data-testid="device-protocol-current">{t(protocolSettingKey(d.protocol))}</Tag>
      </Space>
      <Typography.Text type="secondary">{t('ocpp201.protocol.help')}</Typography.Text>
      {can('auth_device_edit') && (
        <Space wrap>
          <Select<string>
            value={chosen}
            onChange={setChosen}
            style={{ minWidth: 260 }}
            aria-label={t('ocpp201.protocol')}
            options={PROTOCOL_SETTINGS.map((p) => ({ value: p.value, label: t(p.label) }))}
            data-testid="protocol-choose"
          />
          <Button type="primary" disabled={chosen === d.protocol} onClick={save} data-testid="protocol-save">
            {t('ocpp201.protocol.save')}
          </Button>
        </Space>
      )}
    </Space>
  );
}
