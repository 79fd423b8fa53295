/** The dialogs of the attachments screen: folder, upload, edit, move, share and a file's shares. */
import { useEffect, useState } from 'react';
import { App, Button, Form, Input, InputNumber, Modal, Progress, Radio, Select, Space, Table, Tag, TreeSelect, Typography, Upload } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { ButtonProps } from 'antd/es/button';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useActions } from '../../hooks/useActions';
import {
  addFile,
  addFolder,
  addShare,
  ATTACH_LIST_KEY,
  ATTACH_SHARES_KEY,
  ATTACH_TREE_KEY,
  deleteShare,
  listShares,
  moveFiles,
  resetShare,
  updateFile,
  updateFolder,
  type AttachFile,
  type AttachFolder,
  type Share,
  type ShareMade,
} from '../../services/attach';
import { uploadErrorMessage, uploadObject } from '../../services/storage';
import {
  isShareCode,
  kindOfFile,
  LEVEL_FIELDS,
  levelOptions,
  objectNameOf,
  OPEN_LEVELS,
  shareUrl,
  validityRequest,
  VALIDITY_CHOICES,
  type Levels,
  type ValidityChoice,
} from '../../utils/attach';
import { formatTime } from '../../utils/time';

export type FolderTreeData = { value: number; title: string; children?: FolderTreeData[] };

export function toTreeSelect(list: readonly (AttachFolder | null)[]): FolderTreeData[] {
  return list.filter((f): f is AttachFolder => !!f).map((f) => ({ value: f.id, title: f.name, children: f.children?.length ? toTreeSelect(f.children) : undefined }));
}

/** Read, write and download level selects, limited to the parent folder's levels. */
function LevelFields({ max }: { max?: Partial<Levels> | null }) {
  const { t } = useTranslation();
  return (
    <Space wrap>
      {LEVEL_FIELDS.map((f) => (
        <Form.Item key={f} name={f} label={t(`attach.${f}`)} rules={[{ required: true, message: t('com_value_required') }]}>
          <Select style={{ width: 110 }} options={levelOptions(max?.[f]).map((v) => ({ value: v, label: String(v) }))} data-testid={`attach-${f}`} />
        </Form.Item>
      ))}
    </Space>
  );
}

const levelsOf = (x: Partial<Levels> | null | undefined): Levels =>
  x ? { readLevel: x.readLevel ?? 5, writeLevel: x.writeLevel ?? 5, downloadLevel: x.downloadLevel ?? 5 } : OPEN_LEVELS;

/** Add a folder (under `parent`, else at the top of `customerId`'s tree) or rename/re-level `folder`. */
export function FolderModal({
  open,
  folder,
  parent,
  customerId,
  customers = [],
  onClose,
}: {
  open: boolean;
  folder?: AttachFolder;
  parent?: AttachFolder;
  customerId?: number;
  /** Customers in scope: a top-level folder asks for one when the screen shows several. */
  customers?: { value: number; label: string }[];
  onClose(): void;
}) {
  const { t } = useTranslation();
  const { run } = useActions();
  const [form] = Form.useForm<Levels & { name: string; customerId?: number }>();
  const top = !folder && !parent;
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(
      folder ? { name: folder.name, ...levelsOf(folder) } : { name: '', customerId: customerId ?? (customers.length === 1 ? customers[0].value : undefined), ...levelsOf(parent) },
    );
  }, [open, folder, parent, form, customerId, customers]);
  const submit = async (v: Levels & { name: string; customerId?: number }) => {
    setBusy(true);
    const ok = await run(
      () => (folder ? updateFolder({ id: folder.id, ...v }) : addFolder({ ...v, parentId: parent?.id ?? 0, customerId: parent ? undefined : v.customerId })),
      { invalidate: [ATTACH_TREE_KEY, ATTACH_LIST_KEY] },
    );
    setBusy(false);
    if (ok) onClose();
  };
  return (
    <Modal
      open={open}
      title={folder ? t('attach.folder.edit') : t('attach.folder.add')}
      onCancel={onClose}
      onOk={() => form.submit()}
      confirmLoading={busy}
      okButtonProps={{ 'data-testid': 'attach-folder-ok' } as ButtonProps}
      destroyOnHidden
    >
      {parent && !folder && <Typography.Paragraph type="secondary">{t('attach.folder.parent', { path: parent.path })}</Typography.Paragraph>}
      <Form form={form} layout="vertical" onFinish={submit}>
        {top && customers.length > 0 && (
          <Form.Item name="customerId" label={t('attach.folder.customer')} extra={t('attach.folder.customerHint')}>
            <Select allowClear showSearch optionFilterProp="label" options={customers} data-testid="attach-folder-customer" />
          </Form.Item>
        )}
        <Form.Item
          name="name"
          label={t('attach.folder.name')}
          rules={[
            { required: true, whitespace: true, message: t('com_value_required') },
            { pattern: /^[^/]*$/, message: t('attach.folder.noSlash') },
            { max: 100 },
          ]}
        >
          <Input maxLength={100} data-testid="attach-folder-name" />
        </Form.Item>
        <LevelFields max={folder ? undefined : parent} />
      </Form>
    </Modal>
  );
}

/** Upload one file into a folder: the file, a description, levels (the folder's by default), progress. */
export function UploadModal({ open, folder, onClose }: { open: boolean; folder?: AttachFolder; onClose(): void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { run } = useActions();
  const [form] = Form.useForm<Levels & { description: string }>();
  const [file, setFile] = useState<File | null>(null);
  const [percent, setPercent] = useState<number | null>(null);
  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue({ description: '', ...levelsOf(folder) });
    setFile(null);
    setPercent(null);
  }, [open, folder, form]);
  const submit = async (v: Levels & { description: string }) => {
    if (!folder || !file) return;
    setPercent(0);
    try {
      const up = await uploadObject(file, kindOfFile(file.name), { objectName: objectNameOf(file.name), downloadFileName: file.name, onProgress: setPercent });
      const ok = await run(() => addFile({ folderId: folder.id, objectKey: up.objectKey, name: file.name, ...v }), { invalidate: [ATTACH_LIST_KEY] });
      if (ok) onClose();
    } catch (e) {
      const m = uploadErrorMessage(e, (k, p) => t(k, p));
      if (m) void message.error(m);
    } finally {
      setPercent(null);
    }
  };
  return (
    <Modal
      open={open}
      title={t('attach.upload')}
      onCancel={onClose}
      onOk={() => form.submit()}
      confirmLoading={percent !== null}
      okButtonProps={{ disabled: !file, 'data-testid': 'attach-upload-ok' } as ButtonProps}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{t('attach.upload.into', { path: folder?.path ?? '' })}</Typography.Paragraph>
      <Form form={form} layout="vertical" onFinish={submit}>
        <Form.Item label={t('attach.file')} required>
          <Upload
            maxCount={1}
            beforeUpload={(f) => {
              setFile(f);
              return false;
            }}
            onRemove={() => setFile(null)}
            fileList={file ? [{ uid: '1', name: file.name, status: 'done' }] : []}
            data-testid="attach-upload-file"
          >
            <Button>{t('attach.upload.choose')}</Button>
          </Upload>
        </Form.Item>
        <Form.Item name="description" label={t('attach.description')} rules={[{ max: 500 }]}>
          <Input.TextArea rows={2} maxLength={500} data-testid="attach-upload-description" />
        </Form.Item>
        <LevelFields max={folder} />
        {percent !== null && <Progress percent={percent} data-testid="attach-upload-progress" />}
      </Form>
    </Modal>
  );
}

/** Rename a file, change its description and levels (not below its folder's). */
export function EditModal({ file, folder, onClose }: { file?: AttachFile; folder?: AttachFolder; onClose(): void }) {
  const { t } = useTranslation();
  const { run } = useActions();
  const [form] = Form.useForm<Levels & { name: string; description: string }>();
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (!file) return;
    form.resetFields();
    form.setFieldsValue({ name: file.name, description: file.description, ...levelsOf(file) });
  }, [file, form]);
  const submit = async (v: Levels & { name: string; description: string }) => {
    if (!file) return;
    setBusy(true);
    const ok = await run(() => updateFile({ id: file.id, ...v }), { invalidate: [ATTACH_LIST_KEY] });
    setBusy(false);
    if (ok) onClose();
  };
  return (
    <Modal open={!!file} title={t('attach.edit')} onCancel={onClose} onOk={() => form.submit()} confirmLoading={busy} destroyOnHidden>
      <Form form={form} layout="vertical" onFinish={submit}>
        <Form.Item name="name" label={t('attach.name')} rules={[{ required: true, whitespace: true, message: t('com_value_required') }, { max: 200 }]}>
          <Input maxLength={200} data-testid="attach-edit-name" />
        </Form.Item>
        <Form.Item name="description" label={t('attach.description')} rules={[{ max: 500 }]}>
          <Input.TextArea rows={2} maxLength={500} />
        </Form.Item>
        <LevelFields max={folder?.id === file?.folderId ? folder : undefined} />
      </Form>
    </Modal>
  );
}

/** Move files into another folder (levels are raised to the folder's by the server). */
export function MoveModal({ files, tree, onClose }: { files: AttachFile[]; tree: FolderTreeData[]; onClose(): void }) {
  const { t } = useTranslation();
  const { run } = useActions();
  const [target, setTarget] = useState<number>();
  const [busy, setBusy] = useState(false);
  useEffect(() => setTarget(undefined), [files]);
  const submit = async () => {
    if (!target) return;
    setBusy(true);
    const ok = await run(() => moveFiles(files.map((f) => f.id), target), { invalidate: [ATTACH_LIST_KEY] });
    setBusy(false);
    if (ok) onClose();
  };
  return (
    <Modal
      open={files.length > 0}
      title={t('attach.move.title', { count: files.length })}
      onCancel={onClose}
      onOk={submit}
      confirmLoading={busy}
      okButtonProps={{ disabled: !target }}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{t('attach.move.hint')}</Typography.Paragraph>
      <TreeSelect style={{ width: '100%' }} treeData={tree} value={target} onChange={setTarget} treeDefaultExpandAll placeholder={t('attach.move.folder')} data-testid="attach-move-folder" />
    </Modal>
  );
}

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
      void qc.invalidateQueries({ queryKey: [ATTACH_SHARES_KEY] });
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

/** A file's shares: state, accesses, expiry; reset (unlock, new code) and delete. */
export function SharesModal({ file, onClose }: { file?: AttachFile; onClose(): void }) {
  const { t } = useTranslation();
  const { confirm, run } = useActions();
  const [made, setMade] = useState<ShareMade | null>(null);
  useEffect(() => setMade(null), [file]);
  const q = useQuery({ queryKey: [ATTACH_SHARES_KEY, file?.id ?? 0], queryFn: () => listShares(file!.id), enabled: !!file });
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
              void run(async () => setMade(await resetShare(r.id)), { invalidate: [ATTACH_SHARES_KEY] })
            }
            data-testid="attach-share-reset"
          >
            {t('attach.share.reset')}
          </a>
          <a onClick={() => confirm(() => deleteShare(r.id), { title: t('attach.share.deleteConfirm'), danger: true, invalidate: [ATTACH_SHARES_KEY] })}>{t('com_delete')}</a>
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
      <Table<Share> rowKey="id" size="small" loading={q.isFetching} columns={columns} dataSource={q.data ?? []} pagination={false} data-testid="attach-shares" />
    </Modal>
  );
}
