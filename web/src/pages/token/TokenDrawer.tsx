/** Add/edit drawer of a token: idTag, name, parent, expiry, status, customer (on add), note. */
import { DatePicker, Form, Input, InputNumber, Select } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import FormDrawer from '../../components/FormDrawer';
import { useActions } from '../../hooks/useActions';
import { customerOptions, customerKeys } from '../../services/customer';
import { addToken, MAX_ID_TAG, tokenKeys, updateToken, type Token } from '../../services/token';
import { fromPicker, toPicker } from '../../utils/time';

interface Values {
  customerId?: number;
  idTag: string;
  name?: string;
  parentIdTag?: string;
  note?: string;
  status: number;
  expiresAt?: { format: (f: string) => string } | null;
  priority?: number | null;
}

const TAG_RULE = /^[!-~]{1,20}$/;

export default function TokenDrawer({ row, onClose }: { row: Partial<Token> | null; onClose(): void }) {
  const { t } = useTranslation();
  const { run } = useActions();
  const editing = !!row?.id;
  const customers = useQuery({ queryKey: customerKeys.options, queryFn: customerOptions, enabled: row !== null && !editing });
  const initial: Partial<Values> | undefined = row
    ? { ...row, status: row.status ?? 0, priority: row.priority ?? 0, expiresAt: row.expiresAt ? toPicker(row.expiresAt) : null } as Partial<Values>
    : undefined;
  const submit = (v: Values) => {
    const body = {
      customerId: v.customerId ?? row?.customerId ?? 0,
      idTag: v.idTag.trim(),
      name: v.name?.trim() ?? '',
      parentIdTag: v.parentIdTag?.trim() ?? '',
      note: v.note?.trim() ?? '',
      status: v.status,
      expiresAt: v.expiresAt ? fromPicker(v.expiresAt) : 0,
      priority: v.priority ?? 0,
    };
    return run(() => (editing ? updateToken({ ...body, id: row!.id! }) : addToken(body)), { invalidate: [tokenKeys.list] });
  };
  const tagRules = [{ validator: (_: unknown, v?: string) => (!v || TAG_RULE.test(v.trim()) ? Promise.resolve() : Promise.reject(new Error(t('token.idTagRule')))) }];
  return (
    <FormDrawer<Values> open={row !== null} title={t(editing ? 'token.edit' : 'token.add')} initialValues={initial} onClose={onClose} onSubmit={submit} testId="token-form">
      {!editing && (
        <Form.Item name="customerId" label={t('token.customer')} rules={[{ required: true, message: t('token.pickCustomer') }]}>
          <Select
            data-testid="token-customer"
            showSearch
            optionFilterProp="label"
            loading={customers.isLoading}
            options={(customers.data ?? []).map((c) => ({ value: c.id, label: c.name }))}
          />
        </Form.Item>
      )}
      <Form.Item name="idTag" label={t('token.idTag')} rules={[{ required: true, message: t('com_value_required') }, ...tagRules]}>
        <Input maxLength={MAX_ID_TAG} data-testid="token-idtag" />
      </Form.Item>
      <Form.Item name="name" label={t('token.name')} rules={[{ max: 64 }]}>
        <Input data-testid="token-name" />
      </Form.Item>
      <Form.Item name="parentIdTag" label={t('token.parent')} rules={tagRules}>
        <Input maxLength={MAX_ID_TAG} />
      </Form.Item>
      <Form.Item name="status" label={t('token.status')}>
        <Select options={[0, 1].map((s) => ({ value: s, label: t(`token.status.${s}`) }))} data-testid="token-status" />
      </Form.Item>
      <Form.Item name="expiresAt" label={t('token.expiry')}>
        <DatePicker showTime style={{ width: '100%' }} placeholder={t('token.never')} />
      </Form.Item>
      <Form.Item name="priority" label={t('token.priority')} tooltip={t('token.priorityHelp')}>
        <InputNumber min={-10} max={10} precision={0} data-testid="token-priority" />
      </Form.Item>
      <Form.Item name="note" label={t('token.note')} rules={[{ max: 255 }]}>
        <Input.TextArea rows={3} />
      </Form.Item>
    </FormDrawer>
  );
}
