/** The signed meter values of a session as the charger sent them, with their download (JSON). */
import { useState } from 'react';
import { Button, Empty, Table, Typography } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../../utils/time';
import { downloadSigned, type SignedValue } from '../../../services/session';

export default function SignedTable({ id, values }: { id: number; values: SignedValue[] }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  if (!values.length) return <Empty description={t('session.signed.empty')} />;
  const fetchFile = async () => {
    setBusy(true);
    try {
      await downloadSigned(id);
    } catch {
      /* toasted */
    } finally {
      setBusy(false);
    }
  };
  return (
    <div data-testid="session-signed">
      <Button icon={<DownloadOutlined />} loading={busy} onClick={() => void fetchFile()} style={{ marginBottom: 8 }} data-testid="session-signed-download">
        {t('session.signed.download')}
      </Button>
      <Table<SignedValue>
        rowKey={(r) => `${r.time}-${r.measurand}-${r.context}`}
        size="small"
        pagination={values.length > 10 ? { pageSize: 10 } : false}
        dataSource={values}
        columns={[
          { title: t('session.signed.time'), dataIndex: 'time', width: 170, render: (v: number) => formatTime(v) },
          { title: t('session.signed.measurand'), dataIndex: 'measurand' },
          { title: t('session.signed.context'), dataIndex: 'context' },
          { title: t('session.signed.format'), dataIndex: 'format' },
          {
            title: t('session.signed.value'),
            dataIndex: 'value',
            render: (v: string) => (
              <Typography.Text code copyable ellipsis={{ tooltip: v }} style={{ maxWidth: 360 }} translate="no">
                {v}
              </Typography.Text>
            ),
          },
        ]}
      />
    </div>
  );
}
