/**
 * The xlsx import dialog shared by the device and token imports: a hint, the template download,
 * one file to upload, then either the count imported or the error with its bad rows in a table
 * (a failed import imports nothing). The page supplies the texts, the calls, the error-row
 * columns and the data-testid prefix (`${testId}-modal`, `-template`, `-file`, `-submit`,
 * `-done`, `-error`, `-rows`); anything of its own (a customer to import into) goes in children,
 * shown under the hint.
 */
import { useState, type ReactNode } from 'react';
import { Alert, App, Button, Modal, Space, Table, Typography, Upload } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { DownloadOutlined, UploadOutlined } from '@ant-design/icons';
import { fileToBase64 } from '../services/download';
import { isCancelled, RequestError } from '../services/request';

export interface XlsxImportTexts {
  title: ReactNode;
  hint: ReactNode;
  template: ReactNode;
  chooseFile: ReactNode;
  submit: ReactNode;
  /** The footer button that closes the dialog. */
  close: ReactNode;
  /** Shown as a message and in the success Alert. */
  done(count: number): string;
}

export interface XlsxImportModalProps<R> {
  open: boolean;
  onClose(): void;
  width: number;
  /** The data-testid prefix: "import" gives import-modal, import-submit, … */
  testId: string;
  texts: XlsxImportTexts;
  /** Downloads the template; a failed download is ignored here (request shows its own error). */
  template(): Promise<unknown>;
  /** Sends the file (its name and base64 content); undefined while the page is not ready to import. */
  upload: ((fileName: string, content: string) => Promise<{ imported: number }>) | undefined;
  /** After a successful import, e.g. to refresh the list. */
  onImported?(): Promise<unknown>;
  /** The bad rows named by a failed import's error. */
  errorRows(e: unknown): R[];
  rowKey(row: R): string;
  columns: ColumnsType<R>;
  children?: ReactNode;
}

export default function XlsxImportModal<R extends object>(props: XlsxImportModalProps<R>) {
  const { open, onClose, width, testId, texts, template, upload, onImported, errorRows, rowKey, columns, children } = props;
  const { message } = App.useApp();
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ message: string; rows: R[] } | null>(null);
  const [imported, setImported] = useState<number | null>(null);

  const close = () => {
    setFile(null);
    setError(null);
    setImported(null);
    onClose();
  };
  const submit = async () => {
    if (!file || !upload) return;
    setBusy(true);
    setError(null);
    setImported(null);
    try {
      const r = await upload(file.name, await fileToBase64(file));
      setImported(r.imported);
      void message.success(texts.done(r.imported));
      await onImported?.();
    } catch (e) {
      if (!isCancelled(e)) setError({ message: e instanceof RequestError ? e.message : String(e), rows: errorRows(e) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open={open}
      title={texts.title}
      onCancel={close}
      width={width}
      destroyOnHidden
      footer={
        <Space>
          <Button onClick={close}>{texts.close}</Button>
          <Button type="primary" disabled={!file || !upload} loading={busy} onClick={() => void submit()} data-testid={`${testId}-submit`}>
            {texts.submit}
          </Button>
        </Space>
      }
    >
      <div data-testid={`${testId}-modal`}>
        <Space direction="vertical" style={{ width: '100%' }}>
          <Typography.Paragraph type="secondary">{texts.hint}</Typography.Paragraph>
          {children}
          <Space>
            <Button icon={<DownloadOutlined />} onClick={() => void template().catch(() => undefined)} data-testid={`${testId}-template`}>
              {texts.template}
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
              <Button icon={<UploadOutlined />} data-testid={`${testId}-file`}>
                {texts.chooseFile}
              </Button>
            </Upload>
          </Space>
          {imported !== null && <Alert type="success" showIcon message={texts.done(imported)} data-testid={`${testId}-done`} />}
          {error && (
            <>
              <Alert type="error" showIcon message={error.message} data-testid={`${testId}-error`} />
              {error.rows.length > 0 && (
                <Table<R> data-testid={`${testId}-rows`} rowKey={rowKey} size="small" pagination={false} dataSource={error.rows} columns={columns} />
              )}
            </>
          )}
        </Space>
      </div>
    </Modal>
  );
}
