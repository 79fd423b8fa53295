/** A figure of a statistics card: antd's Statistic with an optional hint, and a stable test id (Statistic does not pass data attributes on). */
import type { ReactNode } from 'react';
import { Space, Statistic, Tooltip } from 'antd';
import { QuestionCircleOutlined } from '@ant-design/icons';

export default function Figure({ testId, title, hint, value }: { testId: string; title: string; hint?: string; value: ReactNode }) {
  return (
    <div data-testid={testId}>
      <Statistic
        title={
          hint ? (
            <Space size={4}>
              {title}
              <Tooltip title={hint}>
                <QuestionCircleOutlined />
              </Tooltip>
            </Space>
          ) : (
            title
          )
        }
        value={value as string}
      />
    </div>
  );
}
