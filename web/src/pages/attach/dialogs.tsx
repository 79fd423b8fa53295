/** The dialogs of the attachments screen: folder, upload, edit and move (shares are in shares.tsx). */
import { useEffect, useState } from 'react';
import { App, Button, Form, Input, Modal, Progress, Select, Space, TreeSelect, Typography, Upload } from 'antd';
import type { ButtonProps } from 'antd/es/button';
import { useTranslation } from 'react-i18next';
import { useActions } from '../../hooks/useActions';
import { addFile, addFolder, moveFiles, updateFile, updateFolder, type AttachFile, type AttachFolder, attachKeys } from '../../services/attach';
import { uploadErrorMessage, uploadObject } from '../../services/storage';
import {
  kindOfFile,
  LEVEL_FIELDS,
  levelOptions,
  objectNameOf,
  OPEN_LEVELS,
  type Levels,
} from '../../utils/attach';
import { registerTexts } from '../../locales/domains';
import { attachTexts } from '../../locales/domains/attach';

registerTexts(attachTexts);

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
      { invalidate: [attachKeys.trees, attachKeys.files] },
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
      const ok = await run(() => addFile({ folderId: folder.id, objectKey: up.objectKey, name: file.name, ...v }), { invalidate: [attachKeys.files] });
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
    const ok = await run(() => updateFile({ id: file.id, ...v }), { invalidate: [attachKeys.files] });
    setBusy(false);
    if (ok) onClose();
  };
  return (
    <Modal
      open={!!file}
      title={t('attach.edit')}
      onCancel={onClose}
      onOk={() => form.submit()}
      confirmLoading={busy}
      okButtonProps={{ 'data-testid': 'attach-edit-ok' } as ButtonProps}
      destroyOnHidden
    >
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
    const ok = await run(() => moveFiles(files.map((f) => f.id), target), { invalidate: [attachKeys.files] });
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
      okButtonProps={{ disabled: !target, 'data-testid': 'attach-move-ok' } as ButtonProps}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{t('attach.move.hint')}</Typography.Paragraph>
      <TreeSelect style={{ width: '100%' }} treeData={tree} value={target} onChange={setTarget} treeDefaultExpandAll placeholder={t('attach.move.folder')} data-testid="attach-move-folder" />
    </Modal>
  );
}
