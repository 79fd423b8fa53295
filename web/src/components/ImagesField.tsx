/**
 * Several images as a form value (device and model images): each picked JPG or PNG is uploaded
 * and its objectKey appended; only the last maxCount are kept (docs/storage.md). URLs stored
 * before uploads existed keep displaying and can be removed.
 */
import { useEffect, useRef } from 'react';
import { Button, Progress, Space, Typography, Upload } from 'antd';
import { DeleteOutlined, UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import ObjectImage from './ObjectImage';
import { useUpload } from '../hooks/useUpload';
import { acceptOf, humanLimit, keepLast, UPLOAD_RULES } from '../utils/uploadRules';

export interface ImagesFieldProps {
  value?: string[];
  onChange?: (v: string[]) => void;
  maxCount?: number;
  testId?: string;
}

const SIZE = 80;

export default function ImagesField({ value, onChange, maxCount = 10, testId }: ImagesFieldProps) {
  const { t } = useTranslation();
  const { upload, percents, busy } = useUpload('image');
  const rule = UPLOAD_RULES.image;
  // Uploads finish one by one: each appends to the latest list, not to the one it started with.
  const latest = useRef<string[]>(value ?? []);
  useEffect(() => {
    latest.current = value ?? [];
  }, [value]);
  const set = (next: string[]) => {
    latest.current = next;
    onChange?.(next);
  };
  const list = value ?? [];
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid={testId}>
      <Space wrap align="start">
        {list.map((v, i) => (
          <Space key={`${i}:${v}`} direction="vertical" size={4} align="center" style={{ width: SIZE }}>
            <ObjectImage value={v} width={SIZE} height={SIZE} />
            <Button size="small" type="text" danger icon={<DeleteOutlined />} aria-label={t('com_delete')} onClick={() => set(list.filter((_, j) => j !== i))} />
          </Space>
        ))}
        {percents.map((p, i) => (
          <Progress key={i} type="circle" percent={p} size={SIZE} />
        ))}
      </Space>
      <Upload
        accept={acceptOf('image')}
        multiple
        showUploadList={false}
        beforeUpload={(file) => {
          void upload(file).then((done) => done && set(keepLast([...latest.current, done.objectKey], maxCount)));
          return Upload.LIST_IGNORE;
        }}
      >
        <Button icon={<UploadOutlined />} loading={busy} data-testid={testId && `${testId}-upload`}>
          {t('upload.pick')}
        </Button>
      </Upload>
      <Typography.Text type="secondary">
        {t('upload.hint', { typeList: rule.typeList, maxSize: humanLimit(rule.maxBytes) })} {t('upload.maxCount', { count: maxCount })}
      </Typography.Text>
    </Space>
  );
}
