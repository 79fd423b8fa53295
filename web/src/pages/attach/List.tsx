/**
 * attach/list — attachments (docs/attachments.md#folders-and-files): a customer's folder tree on the
 * left (add, rename/levels, delete for those who may write the folder), the files of the
 * selected folder on the right with name search and paging (in the URL; the folder as `folder`),
 * upload, edit, move, delete, download (signed link) and shares.
 */
import { useMemo, useState } from 'react';
import { Button, Card, Empty, Flex, Select, Space, Tag, Tree, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { DataNode } from 'antd/es/tree';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import ListPage, { type FilterField } from '../../components/ListPage';
import { useActions } from '../../hooks/useActions';
import { useListState } from '../../hooks/useListState';
import { useCustomerOptions } from '../../hooks/useOptions';
import { deleteFiles, deleteFolder, fileUrl, folderTree, listFiles, type AttachFile, type AttachFolder, attachKeys } from '../../services/attach';
import { flattenFolders } from '../../utils/attach';
import { formatBytes } from '../../utils/format';
import { formatClock } from '../../utils/time';
import ZonedTitle from '../../components/ZonedTitle';
import { EditModal, FolderModal, MoveModal, toTreeSelect, UploadModal } from './dialogs';
import { ShareModal, SharesModal } from './shares';
import { registerTexts } from '../../locales/domains';
import { attachTexts } from '../../locales/domains/attach';
import SelectionButton from '../../components/SelectionButton';

registerTexts(attachTexts);

const FILTER_SPEC = { name: 'string' } as const;

function toTreeNodes(list: readonly (AttachFolder | null)[]): DataNode[] {
  return list
    .filter((f): f is AttachFolder => !!f)
    .map((f) => ({
      key: f.id,
      title: <span data-testid="attach-folder" data-path={f.path}>{f.name}</span>,
      children: f.children?.length ? toTreeNodes(f.children) : undefined,
    }));
}

/** Starts the browser's download of a signed link (Content-Disposition names the file). */
function openLink(url: string) {
  const a = document.createElement('a');
  a.href = url;
  a.rel = 'noopener';
  a.download = '';
  document.body.appendChild(a);
  a.click();
  a.remove();
}

export default function AttachList() {
  const { t } = useTranslation();
  const { confirm, run } = useActions();
  const list = useListState(FILTER_SPEC);
  const [params, setParams] = useSearchParams();
  const customers = useCustomerOptions();
  const customerId = Number(params.get('customer')) || undefined;
  const folderId = Number(params.get('folder')) || 0;

  const tree = useQuery({ queryKey: attachKeys.tree(customerId ?? 0), queryFn: () => folderTree(customerId) });
  const folders = useMemo(() => flattenFolders(tree.data ?? []), [tree.data]);
  const folder = folders.find((f) => f.id === folderId);
  const treeNodes = useMemo(() => toTreeNodes(tree.data ?? []), [tree.data]);
  const pickerTree = useMemo(() => toTreeSelect(tree.data ?? []), [tree.data]);

  const setParam = (name: string, v: number | undefined) =>
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      if (v) next.set(name, String(v));
      else next.delete(name);
      next.delete('page');
      if (name === 'customer') next.delete('folder');
      return next;
    });

  const [folderDialog, setFolderDialog] = useState<{ folder?: AttachFolder; parent?: AttachFolder } | null>(null);
  const [uploading, setUploading] = useState(false);
  const [editing, setEditing] = useState<AttachFile>();
  const [moving, setMoving] = useState<AttachFile[]>([]);
  const [sharing, setSharing] = useState<AttachFile>();
  const [shares, setShares] = useState<AttachFile>();
  const [selected, setSelected] = useState<AttachFile[]>([]);

  const download = (f: AttachFile) =>
    void run(async () => openLink((await fileUrl(f.id)).url), { success: false });

  const columns: ColumnsType<AttachFile> = [
    { title: t('attach.name'), dataIndex: 'name', key: 'name', width: 180, ellipsis: true, render: (v: string) => <span data-testid="attach-file-name">{v}</span> },
    { title: t('attach.size'), dataIndex: 'size', key: 'size', render: (v: number) => formatBytes(v) },
    // name, size and time first: the folder tree takes a third of the width at 1366 px
    { title: <ZonedTitle title={t('attach.createdAt')} />, dataIndex: 'createdAt', key: 'createdAt', render: (v: number) => <span style={{ whiteSpace: 'nowrap' }}>{formatClock(v)}</span> },
    { title: t('attach.type'), dataIndex: 'contentType', key: 'contentType', render: (v: string) => v || '-' },
    { title: t('attach.description'), dataIndex: 'description', key: 'description', width: 140, ellipsis: true, render: (v: string) => v || '-' },
    {
      title: t('attach.levels'),
      key: 'levels',
      render: (_: unknown, r) => (
        <Space size={2}>
          <Tag title={t('attach.readLevel')}>{`R${r.readLevel}`}</Tag>
          <Tag title={t('attach.writeLevel')}>{`W${r.writeLevel}`}</Tag>
          <Tag title={t('attach.downloadLevel')}>{`D${r.downloadLevel}`}</Tag>
        </Space>
      ),
    },
    { title: t('attach.creator'), dataIndex: 'creatorName', key: 'creatorName', render: (v: string) => v || '-' },
    { title: t('attach.path'), dataIndex: 'path', key: 'path' },
    {
      title: t('com_actions'),
      key: 'actions',
      fixed: 'right',
      // up to six actions in lines of two or three rather than one column as wide as the rest
      width: 170,
      render: (_: unknown, r) => (
        <Space wrap size={[8, 0]}>
          {r.downloadable && (
            <a onClick={() => download(r)} data-testid="attach-download">
              {t('attach.download')}
            </a>
          )}
          {r.downloadable && (
            <a onClick={() => setSharing(r)} data-testid="attach-share">
              {t('attach.share')}
            </a>
          )}
          <a onClick={() => setShares(r)} data-testid="attach-shares-open">
            {t('attach.shares')}
          </a>
          {r.writable && (
            <>
              <a onClick={() => setEditing(r)} data-testid="attach-edit">
                {t('com_edit')}
              </a>
              <a onClick={() => setMoving([r])} data-testid="attach-move">
                {t('attach.move')}
              </a>
              <a
                onClick={() => confirm(() => deleteFiles([r.id]), { title: t('com_confirm_delete', { name: r.name }), danger: true, invalidate: [attachKeys.files] })}
                data-testid="attach-delete"
              >
                {t('com_delete')}
              </a>
            </>
          )}
        </Space>
      ),
    },
  ];
  const filters: FilterField[] = [{ name: 'name', label: t('attach.name'), placeholder: t('attach.searchName') }];
  const selectedIds = selected.map((f) => f.id);

  return (
    <Flex gap={16} align="flex-start" data-testid="attach-page">
      <Card
        size="small"
        style={{ width: 240, flex: 'none' }}
        title={t('attach.folders')}
        extra={
          <Button size="small" type="primary" onClick={() => setFolderDialog({})} data-testid="attach-folder-add-top">
            {t('attach.folder.addTop')}
          </Button>
        }
      >
        <Space direction="vertical" style={{ width: '100%' }}>
          {customers.length > 1 && (
            <Select
              allowClear
              showSearch
              optionFilterProp="label"
              style={{ width: '100%' }}
              placeholder={t('attach.customer')}
              options={customers}
              value={customerId}
              onChange={(v?: number) => setParam('customer', v)}
              data-testid="attach-customer"
            />
          )}
          {treeNodes.length ? (
            <Tree
              blockNode
              defaultExpandAll
              treeData={treeNodes}
              selectedKeys={folderId ? [folderId] : []}
              onSelect={(keys) => setParam('folder', keys.length ? Number(keys[0]) : undefined)}
              data-testid="attach-tree"
            />
          ) : (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={tree.isFetching ? t('attach.loading') : t('attach.noFolders')} />
          )}
          {folder && (
            <Space wrap size={4} data-testid="attach-folder-actions">
              {folder.writable && (
                <>
                  <Button size="small" onClick={() => setFolderDialog({ parent: folder })} data-testid="attach-folder-add">
                    {t('attach.folder.addSub')}
                  </Button>
                  <Button size="small" onClick={() => setFolderDialog({ folder })} data-testid="attach-folder-edit">
                    {t('attach.folder.edit')}
                  </Button>
                  <Button
                    size="small"
                    danger
                    onClick={() =>
                      confirm(() => deleteFolder(folder.id), {
                        title: t('com_confirm_delete', { name: folder.name }),
                        danger: true,
                        invalidate: [attachKeys.trees],
                        onDone: () => setParam('folder', undefined),
                      })
                    }
                    data-testid="attach-folder-delete"
                  >
                    {t('com_delete')}
                  </Button>
                </>
              )}
              <Typography.Text type="secondary">
                {t('attach.folder.levels', { read: folder.readLevel, write: folder.writeLevel, download: folder.downloadLevel })}
              </Typography.Text>
            </Space>
          )}
        </Space>
      </Card>
      <div style={{ flex: 1, minWidth: 0 }}>
        <ListPage<AttachFile>
          list={list}
          queryKey={attachKeys.folderFiles(folderId, customerId ?? 0)}
          fetcher={(q) => listFiles({ ...q, folderId, customerId })}
          columns={columns}
          filters={filters}
          testId="attach-list"
          columnsId="attach-list"
          rowSelection={{ selectedRowKeys: selectedIds, onChange: (_k, rows) => setSelected(rows), preserveSelectedRowKeys: true }}
          header={() => (
            <Typography.Text type="secondary" data-testid="attach-current">
              {folder ? t('attach.inFolder', { path: folder.path }) : t('attach.allFolders')}
            </Typography.Text>
          )}
          toolbar={
            <>
              <SelectionButton count={selected.length} disabled={selected.some((f) => !f.writable)} onClick={() => setMoving(selected)} data-testid="attach-move-selected">
                {t('attach.moveSelected', { count: selected.length })}
              </SelectionButton>
              <SelectionButton
                danger
                count={selected.length}
                disabled={selected.some((f) => !f.writable)}
                onClick={() =>
                  confirm(() => deleteFiles(selectedIds), {
                    title: t('attach.deleteSelectedConfirm', { count: selected.length }),
                    danger: true,
                    invalidate: [attachKeys.files],
                    onDone: () => setSelected([]),
                  })
                }
                data-testid="attach-delete-selected"
              >
                {t('attach.deleteSelected', { count: selected.length })}
              </SelectionButton>
              <Button type="primary" disabled={!folder?.writable} title={folder ? undefined : t('attach.pickFolder')} onClick={() => setUploading(true)} data-testid="attach-upload">
                {t('attach.upload')}
              </Button>
            </>
          }
        />
      </div>
      <FolderModal open={!!folderDialog} folder={folderDialog?.folder} parent={folderDialog?.parent} customerId={customerId} customers={customers} onClose={() => setFolderDialog(null)} />
      <UploadModal open={uploading} folder={folder} onClose={() => setUploading(false)} />
      <EditModal file={editing} folder={folders.find((f) => f.id === editing?.folderId)} onClose={() => setEditing(undefined)} />
      <MoveModal
        files={moving}
        tree={pickerTree}
        onClose={() => {
          setMoving([]);
          setSelected([]);
        }}
      />
      <ShareModal file={sharing} onClose={() => setSharing(undefined)} />
      <SharesModal file={shares} onClose={() => setShares(undefined)} />
    </Flex>
  );
}
