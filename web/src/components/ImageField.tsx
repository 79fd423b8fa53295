/**
 * Image as a URL string until attachments exist: type a URL, or pick a local file which is
 * kept as a data: URL (small files only).
 */
import { Button, Image, Input, Space, Upload } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { App } from 'antd';

const MAX_BYTES = 256 * 1024;

export default function ImageField({ value, onChange, testId }: { value?: string; onChange?: (v: string) => void; testId?: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Space.Compact style={{ width: '100%' }}>
        <Input value={value} onChange={(e) => onChange?.(e.target.value)} placeholder={t('image.urlPlaceholder')} allowClear data-testid={testId} />
        <Upload
          accept="image/*"
          showUploadList={false}
          beforeUpload={(file) => {
            if (file.size > MAX_BYTES) {
              void message.error(t('image.tooLarge'));
              return Upload.LIST_IGNORE;
            }
            const r = new FileReader();
            r.onload = () => onChange?.(String(r.result));
            r.readAsDataURL(file);
            return false;
          }}
        >
          <Button icon={<UploadOutlined />}>{t('image.local')}</Button>
        </Upload>
      </Space.Compact>
      {value && <Image src={value} height={64} />}
    </Space>
  );
}
