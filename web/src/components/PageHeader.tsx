/** Title row of a page (title, optional back link and actions) and a clearly named empty section. */
import type { ReactNode } from 'react';
import { Button, Empty, Flex, Result, Space, Typography } from 'antd';
import { ArrowLeftOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';

export function PageHeader({ title, extra, back, sub }: { title: ReactNode; extra?: ReactNode; back?: boolean | string; sub?: ReactNode }) {
  const navigate = useNavigate();
  return (
    <Flex justify="space-between" align="center" wrap gap={8} style={{ marginBottom: 16 }}>
      <Space align="center" wrap>
        {back && (
          <Button type="text" icon={<ArrowLeftOutlined />} onClick={() => (typeof back === 'string' ? void navigate(back) : void navigate(-1))} />
        )}
        <Typography.Title level={4} style={{ margin: 0 }} data-testid="page-title">
          {title}
        </Typography.Title>
        {sub}
      </Space>
      {extra && <Space wrap>{extra}</Space>}
    </Flex>
  );
}

/** A section whose data comes with later work (live fleet): says so instead of showing fake data. */
export function PendingSection({ name, testId }: { name: string; testId?: string }) {
  const { t } = useTranslation();
  return (
    <div data-testid={testId} style={{ marginBottom: 16 }}>
      <Typography.Title level={5}>{name}</Typography.Title>
      <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('com_pending_section')} />
    </div>
  );
}

/** A detail whose object does not exist or is outside the caller's data scope. */
export function NotFoundResult({ subTitle }: { subTitle?: string }) {
  const { t } = useTranslation();
  return (
    <div data-testid="detail-not-found">
      <Result status="404" title={t('com_not_found')} subTitle={subTitle} />
    </div>
  );
}
