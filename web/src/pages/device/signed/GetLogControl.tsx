/**
 * GetLog (control type 25) beside GetDiagnostics on the log-upload card: the log to ask for, the
 * security log only for users with auth_device_certificate (the server's rule,
 * internal/fleet/logs.go).
 */
import { useState } from 'react';
import { Button, Select, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../../components/access';
import { registerTexts } from '../../../locales/domains';
import { signedTexts } from '../../../locales/domains/signed';
import { CTL, type GetLogType } from '../../../services/fleet';
import { logTypesFor } from './signing';

registerTexts(signedTexts);

export default function GetLogControl({ name, onStart }: { name: string; onStart(logType: GetLogType): void }) {
  const { t } = useTranslation();
  const can = useCan();
  const types = logTypesFor(can('auth_device_certificate'));
  const [logType, setLogType] = useState<GetLogType>('DiagnosticsLog');
  return (
    <Space.Compact>
      <Select
        style={{ width: 160 }}
        value={logType}
        onChange={setLogType}
        aria-label={t('getlog.type')}
        options={types.map((v) => ({ value: v, label: t(`getlog.${v}`) }))}
        data-testid="getlog-type"
      />
      <Button onClick={() => onStart(logType)} title={t('getlog.hint')} data-testid={`control-${CTL.getLog}`}>
        {name}
      </Button>
    </Space.Compact>
  );
}
