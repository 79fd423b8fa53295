/** Add/edit drawer of one menu: key, parent, names, sort, URL and whether the sidebar hides it. */
import { Alert, Checkbox, Form, Input, InputNumber, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import type { QueryKey } from '@tanstack/react-query';
import FormDrawer from '../../../../components/FormDrawer';
import { useActions } from '../../../../hooks/useActions';
import { addMenu, updateMenu, type MenuInput } from '../../../../services/menu';
import type { MenuNode } from '../../../../services/typings';
import { SESSION_KEY } from '../../../../models/session';

export type MenuRow = Partial<MenuNode> & { isNew?: boolean };

export default function MenuForm({
  row,
  options,
  invalidate,
  onClose,
}: {
  row: MenuRow | null;
  options: { value: string; label: string }[];
  invalidate: readonly QueryKey[];
  onClose(): void;
}) {
  const { t } = useTranslation();
  const { run } = useActions();
  // built-in menus keep their place and link (the console's route table); see utils/menu.ts
  const builtIn = !!row?.builtIn && !row.isNew;
  return (
    <FormDrawer<MenuInput>
      open={row !== null}
      testId="menu-form"
      title={row?.isNew ? t('menuMgmt.add') : t('menuMgmt.edit')}
      initialValues={row ?? undefined}
      onClose={onClose}
      onSubmit={(v) => {
        const body: MenuInput = { ...v, parentKey: v.parentKey ?? '', url: v.url ?? '', sort: v.sort ?? 0, nameZh: v.nameZh ?? '', hidden: !!v.hidden };
        // the session carries the sidebar's menus: refreshed, the change shows at once
        return run(() => (row?.isNew ? addMenu(body) : updateMenu(body)), { invalidate: [...invalidate, SESSION_KEY] });
      }}
    >
      {builtIn && <Alert type="info" showIcon style={{ marginBottom: 16 }} message={t('menuMgmt.builtInPlace')} />}
      <Form.Item name="key" label={t('menuMgmt.key')} rules={[{ required: true, message: t('com_value_required') }, { pattern: /^[A-Za-z0-9_]+$/, message: t('menuMgmt.keyRule') }]}>
        <Input disabled={!row?.isNew} />
      </Form.Item>
      <Form.Item name="parentKey" label={t('menuMgmt.parent')}>
        <Select allowClear showSearch optionFilterProp="label" options={options} disabled={builtIn} />
      </Form.Item>
      <Form.Item name="nameEn" label={t('menuMgmt.nameEn')} rules={[{ required: true, whitespace: true, message: t('com_value_required') }, { max: 64 }]}>
        <Input data-testid="menu-form-name-en" />
      </Form.Item>
      <Form.Item name="nameZh" label={t('menuMgmt.nameZh')} rules={[{ required: true, whitespace: true, message: t('com_value_required') }, { max: 64 }]}>
        <Input data-testid="menu-form-name-zh" />
      </Form.Item>
      <Form.Item name="sort" label={t('menuMgmt.sort')}>
        <InputNumber precision={0} min={0} max={9999} data-testid="menu-form-sort" />
      </Form.Item>
      <Form.Item name="url" label={t('menuMgmt.url')} rules={[{ max: 255 }]}>
        <Input disabled={builtIn} />
      </Form.Item>
      <Form.Item name="hidden" valuePropName="checked" extra={t('menuMgmt.hiddenHint')}>
        <Checkbox data-testid="menu-form-hidden">{t('menuMgmt.hidden')}</Checkbox>
      </Form.Item>
    </FormDrawer>
  );
}
