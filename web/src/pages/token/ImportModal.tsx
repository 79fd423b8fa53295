/** Token import from xlsx for one customer: template, upload, the bad rows by row and column (nothing imported). */
import { useState } from 'react';
import { Alert, App, Button, Modal, Select, Space, Table, Typography, Upload } from 'antd';
import { DownloadOutlined, UploadOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { customerOptions } from '../../services/customer';
import { fileToBase64 } from '../../services/download';
import { isCancelled, RequestError } from '../../services/request';
import { downloadTokenTemplate, importTokens, tokenKeys, type TokenRowError } from '../../services/token';

function rowsOf(e: unknown): TokenRowError[] {
  if (!(e instanceof RequestError)) return [];
  const rows = (e.data as { rows?: unknown } | null | undefined)?.rows;
  return Array.isArray(rows) ? (rows as TokenRowError[]).slice().sort((a, b) => a.row - b.row) : [];
}

export default function ImportModal({ open, onClose }: { open: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const customers = useQuery({ queryKey: ['customer/options'], queryFn: customerOptions, enabled: open });
  const [customerId, setCustomerId] = useState<number | undefined>();
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ message: string; rows: TokenRowError[] } | null>(null);
  const [imported, setImported] = useState<number | null>(null);
  const only = customers.data?.length === 1 ? customers.data[0].id : undefined;
  const customer = customerId ?? only;

  const close = () => {
    setFile(null);
    setError(null);
    setImported(null);
    onClose();
  };
  const submit = async () => {
    if (!file || !customer) return;
    setBusy(true);
    setError(null);
    setImported(null);
    try {
      const r = await importTokens(customer, file.name, await fileToBase64(file));
      setImported(r.imported);
      void message.success(t('token.importDone', { count: r.imported }));
      await qc.invalidateQueries({ queryKey: [tokenKeys.list] });
    } catch (e) {
      if (!isCancelled(e)) setError({ message: e instanceof RequestError ? e.message : String(e), rows: rowsOf(e) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open={open}
      title={t('token.import')}
      onCancel={close}
      width={760}
      destroyOnHidden
      footer={
        <Space>
          <Button onClick={close}>{t('com_cancel')}</Button>
          <Button type="primary" disabled={!file || !customer} loading={busy} onClick={() => void submit()} data-testid="token-import-submit">
            {t('token.importSubmit')}
          </Button>
        </Space>
      }
    >
      <div data-testid="token-import-modal">
        <Space direction="vertical" style={{ width: '100%' }}>
          <Typography.Paragraph type="secondary">{t('token.importHint')}</Typography.Paragraph>
          <Select
            style={{ width: 320 }}
            placeholder={t('token.pickCustomer')}
            value={customer}
            onChange={setCustomerId}
            showSearch
            optionFilterProp="label"
            options={(customers.data ?? []).map((c) => ({ value: c.id, label: c.name }))}
            data-testid="token-import-customer"
          />
          <Space>
            <Button icon={<DownloadOutlined />} onClick={() => void downloadTokenTemplate().catch(() => undefined)} data-testid="token-import-template">
              {t('token.template')}
            </Button>
            <Upload
              accept=".xlsx"
              maxCount={1}
              beforeUpload={(f) => {
                setFile(f);
                setError(null);
                setImported(null);
                return false;
              }}
              onRemove={() => setFile(null)}
              fileList={file ? [{ uid: '1', name: file.name, status: 'done' }] : []}
            >
              <Button icon={<UploadOutlined />} data-testid="token-import-file">
                {t('token.chooseFile')}
              </Button>
            </Upload>
          </Space>
          {imported !== null && <Alert type="success" showIcon message={t('token.importDone', { count: imported })} data-testid="token-import-done" />}
          {error && (
            <>
              <Alert type="error" showIcon message={error.message} data-testid="token-import-error" />
              {error.rows.length > 0 && (
                <Table<TokenRowError>
                  data-testid="token-import-rows"
                  rowKey={(r) => `${r.row}:${r.field}:${r.message}`}
                  size="small"
                  pagination={false}
                  dataSource={error.rows}
                  columns={[
                    { title: t('token.importRow'), dataIndex: 'row', key: 'row', width: 80 },
                    { title: t('token.importField'), dataIndex: 'field', key: 'field', width: 180 },
                    { title: t('token.importReason'), dataIndex: 'message', key: 'message' },
                  ]}
                />
              )}
            </>
          )}
        </Space>
      </div>
    </Modal>
  );
}
