/**
 * The share dialogs of the attachments screen: make a share (validity, code; then the link and
 * code to copy) and a file's shares with their state, reset, delete and signed-out access log.
 */
import { useEffect, useState } from 'react';
import { App, Button, Form, Input, InputNumber, Modal, Radio, Space, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useActions } from '../../hooks/useActions';
import { addShare, deleteShare, listShareLog, listShares, resetShare, type AttachFile, type Share, type ShareAccess, type ShareMade, attachKeys } from '../../services/attach';
import { isShareCode, shareUrl, validityRequest, VALIDITY_CHOICES, type ValidityChoice } from '../../utils/attach';
import { formatTime } from '../../utils/time';
import { registerTexts } from '../../locales/domains';
import { attachTexts } from '../../locales/domains/attach';
import QueryTable from '../../components/QueryTable';

registerTexts(attachTexts);

/** Copies a text, with the spec's success/failure messages. */
function useCopy() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  return async (text: string) => {
    try {
      await navigator.clipboard.writeText(text);
      void message.success(t('com_msg_copy_success'));
    } catch {
      void message.error(t('com_msg_copy_fail'));
    }
  };
}

/** The link and code of a share just made or reset, with copy buttons. */
function MadeShare({ made }: { made: ShareMade }) {
  const { t } = useTranslation();
  const copy = useCopy();
  const link = shareUrl(window.location.origin, made.token);
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="attach-share-made">
      <Typography.Text strong>{t('attach.share.link')}</Typography.Text>
      <Space.Compact style={{ width: '100%' }}>
        <Input readOnly value={link} data-testid="attach-share-link" />
        <Button onClick={() => void copy(link)} data-testid="attach-share-copy-link">
          {t('attach.share.copy')}
        </Button>
      </Space.Compact>
      <Typography.Text strong>{t('attach.share.code')}</Typography.Text>
      <Space.Compact>
        <Input readOnly value={made.code} style={{ width: 120 }} data-testid="attach-share-code-value" />
        <Button onClick={() => void copy(made.code)} data-testid="attach-share-copy-code">
          {t('attach.share.copy')}
        </Button>
      </Space.Compact>
      <Button onClick={() => void copy(t('attach.share.copyBoth', { link, code: made.code }))}>{t('attach.share.copyBothButton')}</Button>
      <Typography.Text type="secondary">{made.expiresAt ? t('attach.share.expiresAt', { time: formatTime(made.expiresAt) }) : t('attach.share.permanent')}</Typography.Text>
    </Space>
  );
}

/** Make a share of a file: validity and an optional 4-digit code; then the link and code. */
export function ShareModal({ file, onClose }: { file?: AttachFile; onClose(): void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [form] = Form.useForm<{ validity: ValidityChoice; days?: number; code: string }>();
  const [made, setMade] = useState<ShareMade | null>(null);
  const [busy, setBusy] = useState(false);
  const choice = Form.useWatch('validity', form);
  useEffect(() => {
    if (!file) return;
    setMade(null);
    form.resetFields();
  }, [file, form]);
  const submit = async (v: { validity: ValidityChoice; days?: number; code?: string }) => {
    const validity = validityRequest(v.validity, v.days);
    if (!file || validity === null) return;
    setBusy(true);
    try {
      setMade(await addShare(file.id, validity, (v.code ?? '').trim()));
      void qc.invalidateQueries({ queryKey: attachKeys.shares });
    } catch {
      /* shown by the request layer */
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open={!!file}
      title={t('attach.share.title', { name: file?.name ?? '' })}
      onCancel={onClose}
      footer={
        made ? (
          <Button onClick={onClose}>{t('com_ok')}</Button>
        ) : (
          <Space>
            <Button onClick={onClose}>{t('com_cancel')}</Button>
            <Button type="primary" loading={busy} onClick={() => form.submit()} data-testid="attach-share-ok">
              {t('attach.share.create')}
            </Button>
          </Space>
        )
      }
      destroyOnHidden
    >
      {made ? (
        <MadeShare made={made} />
      ) : (
        <Form form={form} layout="vertical" onFinish={submit} initialValues={{ validity: '7', code: '' }}>
          <Form.Item name="validity" label={t('attach.share.validity')} rules={[{ required: true, message: t('com_value_required') }]}>
            <Radio.Group data-testid="attach-share-validity">
              {VALIDITY_CHOICES.map((c) => (
                <Radio.Button key={c} value={c} data-testid={`attach-share-validity-${c}`}>
                  {t(`attach.share.validity.${c}`)}
                </Radio.Button>
              ))}
            </Radio.Group>
          </Form.Item>
          {choice === 'custom' && (
            <Form.Item
              name="days"
              label={t('attach.share.days')}
              rules={[
                { required: true, message: t('com_value_required') },
                { validator: (_r, v: number | null) => (validityRequest('custom', v) === null && v != null ? Promise.reject(new Error(t('attach.share.daysRange'))) : Promise.resolve()) },
              ]}
            >
              <InputNumber min={1} max={3650} precision={0} data-testid="attach-share-days" />
            </Form.Item>
          )}
          <Form.Item
            name="code"
            label={t('attach.share.code')}
            extra={t('attach.share.codeHint')}
            rules={[{ validator: (_r, v: string | undefined) => (isShareCode((v ?? '').trim()) ? Promise.resolve() : Promise.reject(new Error(t('attach.share.codeInvalid')))) }]}
          >
            <Input maxLength={4} style={{ width: 120 }} inputMode="numeric" data-testid="attach-share-code" />
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}

/** The signed-out accesses of one share, newest first (the server keeps the last 200 shown). */
function ShareAccessLog({ shareId }: { shareId: number }) {
  const { t } = useTranslation();
  const q = useQuery({ queryKey: attachKeys.shareLog(shareId), queryFn: () => listShareLog(shareId) });
  const columns: ColumnsType<ShareAccess> = [
    { title: t('attach.shareLog.at'), dataIndex: 'at', render: (v: number) => formatTime(v) },
    { title: t('attach.shareLog.client'), dataIndex: 'clientIp' },
    { title: t('attach.shareLog.action'), dataIndex: 'action', render: (v: string) => t(`attach.shareLog.action.${v}`, { defaultValue: v }) },
    {
      title: t('attach.shareLog.result'),
      dataIndex: 'result',
      render: (v: string) => <Tag color={v === 'ok' ? 'green' : v === 'wrong_code' || v === 'locked' ? 'red' : undefined}>{t(`attach.shareLog.result.${v}`, { defaultValue: v })}</Tag>,
    },
  ];
  return <QueryTable<ShareAccess> query={q} rowKey={(r) => `${r.at}-${r.clientIp}-${r.action}-${r.result}`} size="small" loading={q.isFetching} columns={columns} dataSource={q.data ?? []} pagination={{ pageSize: 10, hideOnSinglePage: true }} data-testid="attach-share-log" />;
}

/** A file's shares: state, accesses, expiry; reset (unlock, new code) and delete. */
export function SharesModal({ file, onClose }: { file?: AttachFile; onClose(): void }) {
  const { t } = useTranslation();
  const { confirm, run } = useActions();
  const [made, setMade] = useState<ShareMade | null>(null);
  useEffect(() => setMade(null), [file]);
  const q = useQuery({ queryKey: attachKeys.fileShares(file?.id ?? 0), queryFn: () => listShares(file!.id), enabled: !!file });
  const columns: ColumnsType<Share> = [
    { title: t('attach.share.createdAt'), dataIndex: 'createdAt', render: (v: number) => formatTime(v) },
    { title: t('attach.creator'), dataIndex: 'creatorName' },
    { title: t('attach.share.expires'), key: 'expires', render: (_: unknown, r) => (r.permanent ? t('attach.share.validity.permanent') : formatTime(r.expiresAt)) },
    {
      title: t('attach.share.state'),
      key: 'state',
      render: (_: unknown, r) =>
        r.locked ? <Tag color="red">{t('attach.share.locked')}</Tag> : r.expired ? <Tag>{t('attach.share.expired')}</Tag> : <Tag color="green">{t('attach.share.active')}</Tag>,
    },
    { title: t('attach.share.wrongCodes'), dataIndex: 'wrongCodes' },
    { title: t('attach.share.accesses'), dataIndex: 'accesses' },
    {
      title: t('com_actions'),
      key: 'actions',
      render: (_: unknown, r) => (
        <Space>
          <a
            onClick={() =>
              void run(async () => setMade(await resetShare(r.id)), { invalidate: [attachKeys.shares] })
            }
            data-testid="attach-share-reset"
          >
            {t('attach.share.reset')}
          </a>
          <a onClick={() => confirm(() => deleteShare(r.id), { title: t('attach.share.deleteConfirm'), danger: true, invalidate: [attachKeys.shares] })}>{t('com_delete')}</a>
        </Space>
      ),
    },
  ];
  return (
    <Modal open={!!file} title={t('attach.shares.title', { name: file?.name ?? '' })} onCancel={onClose} footer={null} width={900} destroyOnHidden>
      {made && (
        <div style={{ marginBottom: 16 }}>
          <Typography.Paragraph type="success">{t('attach.share.resetDone')}</Typography.Paragraph>
          <Typography.Text>
            {t('attach.share.code')}: <Typography.Text copyable strong data-testid="attach-share-new-code">{made.code}</Typography.Text>
          </Typography.Text>
        </div>
      )}
      <QueryTable<Share> query={q}
        rowKey="id"
        size="small"
        loading={q.isFetching}
        columns={columns}
        dataSource={q.data ?? []}
        pagination={false}
        expandable={{ expandedRowRender: (r) => <ShareAccessLog shareId={r.id} />, rowExpandable: (r) => r.accesses > 0 }}
        data-testid="attach-shares"
      />
    </Modal>
  );
}
