/** Device import from xlsx: template download, upload, and the bad rows in a table (nothing imported). */
import { useState } from 'react';
import { Alert, App, Button, Modal, Space, Table, Typography, Upload } from 'antd';
import { DownloadOutlined, UploadOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { downloadTemplate, importDevices, importErrorRows, type ImportRowError } from '../../services/device';
import { fileToBase64 } from '../../services/download';
import { isCancelled, RequestError } from '../../services/request';

export default function ImportModal({ open, onClose }: { open: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ message: string; rows: ImportRowError[] } | null>(null);
  const [imported, setImported] = useState<number | null>(null);

  const close = () => {
    setFile(null);
    setError(null);
    setImported(null);
    onClose();
  };
  const submit = async () => {
    if (!file) return;
    setBusy(true);
    setError(null);
    setImported(null);
    try {
      const r = await importDevices(file.name, await fileToBase64(file));
      setImported(r.imported);
      void message.success(t('device.importDone', { count: r.imported }));
      await qc.invalidateQueries({ queryKey: ['dev/basic/list'] });
      await qc.invalidateQueries({ queryKey: ['dev/basic/status/count'] });
    } catch (e) {
      if (!isCancelled(e)) setError({ message: e instanceof RequestError ? e.message : String(e), rows: importErrorRows(e) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open={open}
      title={t('device.import')}
      onCancel={close}
      width={720}
      destroyOnHidden
      footer={
        <Space>
          <Button onClick={close}>{t('com_close')}</Button>
          <Button type="primary" disabled={!file} loading={busy} onClick={() => void submit()} data-testid="import-submit">
            {t('device.importSubmit')}
          </Button>
        </Space>
      }
    >
      <div data-testid="import-modal">
        <Space direction="vertical" style={{ width: '100%' }}>
          <Typography.Paragraph type="secondary">{t('device.importHint')}</Typography.Paragraph>
          <Space>
            <Button icon={<DownloadOutlined />} onClick={() => void downloadTemplate().catch(() => undefined)} data-testid="import-template">
              {t('device.template')}
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
              <Button icon={<UploadOutlined />} data-testid="import-file">
                {t('device.chooseFile')}
              </Button>
            </Upload>
          </Space>
          {imported !== null && <Alert type="success" showIcon message={t('device.importDone', { count: imported })} data-testid="import-done" />}
          {error && (
            <>
              <Alert type="error" showIcon message={error.message} data-testid="import-error" />
              {error.rows.length > 0 && (
                <Table<ImportRowError>
                  data-testid="import-rows"
                  rowKey={(r) => `${r.row}:${r.message}`}
                  size="small"
                  pagination={false}
                  dataSource={error.rows}
                  columns={[
                    { title: t('device.importRow'), dataIndex: 'row', key: 'row', width: 100 },
                    { title: t('device.importReason'), dataIndex: 'message', key: 'message' },
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
