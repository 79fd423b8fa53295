/**
 * The optional signing fields of a firmware upload (docs/security-profiles.md, "Signed firmware
 * and logs"): the signing certificate (PEM, typed or loaded from a file) and the signature
 * (base64). With both, control type 5 on the file sends SignedUpdateFirmware.
 */
import { Button, Collapse, Input, Space, Typography, Upload } from 'antd';
import { FileTextOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { registerTexts } from '../../../locales/domains';
import { signedTexts } from '../../../locales/domains/signed';
import { MAX_FIRMWARE_SIGNATURE, MAX_SIGNING_CERTIFICATE } from './signing';

registerTexts(signedTexts);

export interface Signing {
  certificate: string;
  signature: string;
}

export default function FirmwareSigningFields({ value, onChange }: { value: Signing; onChange(v: Signing): void }) {
  const { t } = useTranslation();
  return (
    <Collapse
      size="small"
      data-testid="firmware-signing"
      items={[
        {
          key: 'signing',
          label: t('signed.optional'),
          children: (
            <Space direction="vertical" style={{ width: '100%' }}>
              <Space>
                <Typography.Text>{t('signed.certificate')}</Typography.Text>
                <Upload
                  accept=".pem,.crt,.cer,text/plain"
                  maxCount={1}
                  showUploadList={false}
                  beforeUpload={(f) => {
                    void f.text().then((text) => onChange({ ...value, certificate: text.trim() }));
                    return false;
                  }}
                >
                  <Button size="small" icon={<FileTextOutlined />} data-testid="firmware-certificate-file">
                    {t('signed.certificateFile')}
                  </Button>
                </Upload>
              </Space>
              <Input.TextArea
                rows={5}
                value={value.certificate}
                maxLength={MAX_SIGNING_CERTIFICATE + 100}
                placeholder="-----BEGIN CERTIFICATE-----"
                onChange={(e) => onChange({ ...value, certificate: e.target.value })}
                style={{ fontFamily: 'monospace' }}
                data-testid="firmware-certificate"
              />
              <Typography.Text type="secondary">{t('signed.certificateHint')}</Typography.Text>
              <Typography.Text>{t('signed.signature')}</Typography.Text>
              <Input
                value={value.signature}
                maxLength={MAX_FIRMWARE_SIGNATURE + 10}
                onChange={(e) => onChange({ ...value, signature: e.target.value })}
                style={{ fontFamily: 'monospace' }}
                data-testid="firmware-signature"
              />
              <Typography.Text type="secondary">{t('signed.signatureHint')}</Typography.Text>
            </Space>
          ),
        },
      ]}
    />
  );
}
