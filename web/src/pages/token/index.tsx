/**
 * token/list (auth_token_list) — a customer's tokens (idTags; docs/tokens.md): list with filters
 * in the URL, add/edit drawer, batch block / unblock / delete with confirmation, xlsx import, and
 * the customer's policy for unknown tokens.
 */
import { useState } from 'react';
import { Button, Space, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import ListPage, { AddButton } from '../../components/ListPage';
import { useDrawer } from '../../components/FormDrawer';
import { useCan } from '../../components/access';
import { useActionsColumn } from '../../components/RowActions';
import { useActions } from '../../hooks/useActions';
import { useListState } from '../../hooks/useListState';
import { registerTexts } from '../../locales/domains';
import { tokenTexts } from '../../locales/domains/token';
import { customerOptions, customerKeys } from '../../services/customer';
import { blockTokens, deleteTokens, listTokens, ORIGINS, STATUS_COLORS, TOKEN_STATUSES, tokenKeys, type Token } from '../../services/token';
import { formatTime } from '../../utils/time';
import TokenDrawer from './TokenDrawer';
import ImportModal from './ImportModal';
import PolicyBar from './PolicyBar';
import SelectionButton from '../../components/SelectionButton';

registerTexts(tokenTexts);

const SPEC = { idTag: 'string', status: 'number', customerId: 'number', origin: 'number' } as const;

export default function TokenList() {
  const { t } = useTranslation();
  const can = useCan();
  const list = useListState(SPEC);
  const drawer = useDrawer<Token>();
  const { confirm } = useActions();
  const actions = useActionsColumn();
  const [selected, setSelected] = useState<number[]>([]);
  const [importing, setImporting] = useState(false);
  const customers = useQuery({ queryKey: customerKeys.options, queryFn: customerOptions });
  const policyCustomer = (list.filters.customerId as number | undefined) ?? (customers.data?.length === 1 ? customers.data[0].id : undefined);

  const batch = (kind: 'block' | 'unblock' | 'delete') => {
    const ids = selected;
    const titles = { block: 'token.confirmBlock', unblock: 'token.confirmUnblock', delete: 'token.confirmDelete' } as const;
    confirm(() => (kind === 'delete' ? deleteTokens(ids) : blockTokens(ids, kind === 'block')), {
      title: t(titles[kind], { count: ids.length }),
      danger: kind !== 'unblock',
      invalidate: [tokenKeys.list],
      onDone: () => setSelected([]),
    });
  };

  const columns: ColumnsType<Token> = [
    { title: t('token.idTag'), dataIndex: 'idTag', key: 'idTag', sorter: true, render: (v: string) => <Typography.Text code>{v}</Typography.Text> },
    { title: t('token.name'), dataIndex: 'name', key: 'name', sorter: true, render: (v: string) => v || '-' },
    { title: t('token.customer'), dataIndex: 'customerName', key: 'customerName' },
    { title: t('token.parent'), dataIndex: 'parentIdTag', key: 'parentIdTag', render: (v: string) => v || '-' },
    {
      title: t('token.status'),
      key: 'status',
      render: (_: unknown, r) => {
        const s = r.status === 1 ? 1 : r.expired ? 2 : 0;
        return <Tag color={STATUS_COLORS[s]} data-testid={`token-status-${r.idTag}`}>{t(`token.status.${s}`)}</Tag>;
      },
    },
    { title: t('token.expiry'), dataIndex: 'expiresAt', key: 'expiresAt', sorter: true, render: (v: number) => (v ? formatTime(v) : t('token.never')) },
    { title: t('token.origin'), dataIndex: 'origin', key: 'origin', render: (v: number) => t(`token.origin.${v}`) },
    { title: t('token.lastUsed'), dataIndex: 'lastUsedAt', key: 'lastUsedAt', sorter: true, render: (v: number) => (v ? formatTime(v) : '-') },
    actions<Token>({
      edit: can('auth_token_edit') ? drawer.edit : undefined,
      remove: can('auth_token_delete') ? (r) => ({ name: r.idTag, call: () => deleteTokens([r.id]), invalidate: [tokenKeys.list] }) : undefined,
    }),
  ];

  return (
    <>
      <ListPage<Token>
        list={list}
        queryKey={tokenKeys.list}
        fetcher={listTokens}
        columns={columns}
        testId="token-list"
        rowSelection={can('auth_token_edit') || can('auth_token_delete') ? { selectedRowKeys: selected, onChange: (keys) => setSelected(keys as number[]) } : undefined}
        filters={[
          { name: 'idTag', label: t('token.idTag'), placeholder: t('token.search') },
          { name: 'status', label: t('token.status'), options: TOKEN_STATUSES.map((s) => ({ value: s, label: t(`token.status.${s}`) })), width: 140 },
          ...((customers.data?.length ?? 0) > 1
            ? [{ name: 'customerId', label: t('token.customer'), options: (customers.data ?? []).map((c) => ({ value: c.id, label: c.name })) }]
            : []),
          { name: 'origin', label: t('token.origin'), options: ORIGINS.map((o) => ({ value: o, label: t(`token.origin.${o}`) })), width: 180 },
        ]}
        header={() => (policyCustomer ? <PolicyBar customerId={policyCustomer} /> : null)}
        toolbar={
          <Space wrap>
            {can('auth_token_add') && <AddButton onClick={drawer.add} testId="token-add" label={t('token.add')} />}
            {can('auth_token_import') && (
              <Button onClick={() => setImporting(true)} data-testid="token-import">
                {t('token.import')}
              </Button>
            )}
            {selected.length > 0 && <Typography.Text type="secondary">{t('token.selected', { count: selected.length })}</Typography.Text>}
            {can('auth_token_edit') && (
              <>
                <SelectionButton count={selected.length} onClick={() => batch('block')} data-testid="token-block">
                  {t('token.block')}
                </SelectionButton>
                <SelectionButton count={selected.length} onClick={() => batch('unblock')} data-testid="token-unblock">
                  {t('token.unblock')}
                </SelectionButton>
              </>
            )}
            {can('auth_token_delete') && (
              <SelectionButton danger count={selected.length} onClick={() => batch('delete')} data-testid="token-delete">
                {t('token.delete')}
              </SelectionButton>
            )}
          </Space>
        }
      />
      <TokenDrawer row={drawer.open ? drawer.row : null} onClose={drawer.close} />
      <ImportModal open={importing} onClose={() => setImporting(false)} />
    </>
  );
}
