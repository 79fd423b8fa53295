/**
 * One image as a form value: pick a JPG or PNG and it is uploaded (services/storage.ts), the
 * value becoming its objectKey; a typed URL, or a data: URL stored before uploads existed,
 * stays as it is. An uploaded (or data:) image shows as its preview with Replace and Remove,
 * never as its key; an empty value or a web address shows the address box. `kind` icon is for
 * icons (500 KB). The field's wrapper carries the value in data-value (tests).
 */
import { Button, Input, Progress, Space, Typography, Upload } from 'antd';
import { DeleteOutlined, UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import ObjectImage from './ObjectImage';
import { useUpload } from '../hooks/useUpload';
import { acceptOf, humanLimit, UPLOAD_RULES } from '../utils/uploadRules';

export interface ImageFieldProps {
  value?: string;
  onChange?: (v: string) => void;
  kind?: 'image' | 'icon';
  testId?: string;
}

export default function ImageField({ value, onChange, kind = 'image', testId }: ImageFieldProps) {
  const { t } = useTranslation();
  const { upload, percents, busy } = useUpload(kind);
  const rule = UPLOAD_RULES[kind];
  const stored = !!value && !/^https?:\/\//i.test(value);
  const picker = (label: string) => (
    <Upload
      accept={acceptOf(kind)}
      showUploadList={false}
      disabled={busy}
      beforeUpload={(file) => {
        void upload(file).then((done) => done && onChange?.(done.objectKey));
        return Upload.LIST_IGNORE;
      }}
    >
      <Button icon={<UploadOutlined />} loading={busy} data-testid={testId && `${testId}-upload`}>
        {label}
      </Button>
    </Upload>
  );
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid={testId && `${testId}-field`} data-value={value ?? ''}>
      {stored ? (
        <Space>
          {picker(t('upload.replace'))}
          <Button icon={<DeleteOutlined />} onClick={() => onChange?.('')} data-testid={testId && `${testId}-remove`}>
            {t('upload.remove')}
          </Button>
        </Space>
      ) : (
        <Space.Compact style={{ width: '100%' }}>
          <Input value={value} onChange={(e) => onChange?.(e.target.value)} placeholder={t('image.urlPlaceholder')} allowClear data-testid={testId} />
          {picker(t('upload.pick'))}
        </Space.Compact>
      )}
      <Typography.Text type="secondary">{t('upload.hint', { typeList: rule.typeList, maxSize: humanLimit(rule.maxBytes) })}</Typography.Text>
      {percents.map((p, i) => (
        <Progress key={i} percent={p} size="small" />
      ))}
      {value && <ObjectImage value={value} height={64} testId={testId && `${testId}-preview`} />}
    </Space>
  );
}
