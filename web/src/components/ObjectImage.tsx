/**
 * A stored image value shown as an image: an objectKey through its signed URL (useObjectUrl),
 * http(s) and data: URLs as they are; a value that does not load says "Image load failed".
 */
import { useState } from 'react';
import { Image, Space, Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useObjectUrl } from '../services/storage';

export interface ObjectImageProps {
  value?: string | null;
  width?: number;
  height?: number;
  testId?: string;
}

export default function ObjectImage({ value, width, height = 64, testId }: ObjectImageProps) {
  const { t } = useTranslation();
  const { url, loading, failed } = useObjectUrl(value);
  const [broken, setBroken] = useState<string>();
  if (!value?.trim()) return <>-</>;
  let body;
  if (loading) body = <Spin size="small" />;
  else if (!url || failed || broken === url)
    body = (
      <Typography.Text type="secondary" data-testid="image-load-failed">
        {t('image.loadFailed')}
      </Typography.Text>
    );
  else body = <Image src={url} width={width} height={height} style={{ objectFit: 'contain' }} onError={() => setBroken(url)} />;
  return (
    <span data-testid={testId} style={{ display: 'inline-block', minHeight: 22 }}>
      {body}
    </span>
  );
}

/** Several stored images side by side ("-" when there are none). */
export function ObjectImages({ values, size = 64, testId }: { values?: readonly string[]; size?: number; testId?: string }) {
  if (!values?.length) return <>-</>;
  return (
    <Space wrap data-testid={testId}>
      {values.map((v, i) => (
        <ObjectImage key={`${i}:${v}`} value={v} width={size} height={size} />
      ))}
    </Space>
  );
}
