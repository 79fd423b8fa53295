/**
 * The ChangeConfiguration dialog: one field per chosen key, each value checked against the
 * data type and range of the model's config and param items listing the key (the same check
 * the server makes, internal/fleet checkItem), the allowed values shown under the field.
 */
import { Form, Input, Modal } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { listItems, modelKeys } from '../../services/deviceModel';
import type { ConfigValue } from '../../services/fleet';
import { brokenRule, rulesByKey, valueRule } from '../../utils/dataRange';
import { displayItemName } from '../../utils/names';

/** The model's config and param items by lower-case protocol key. */
function useValueRules(modelId: number) {
  const q = useQuery({
    queryKey: modelKeys.items(modelId, 'config+param'),
    queryFn: async () => [...(await listItems(modelId, 'config')), ...(await listItems(modelId, 'param'))],
    enabled: modelId > 0,
    staleTime: 60_000,
  });
  return { rules: rulesByKey(q.data ?? []), loading: q.isPending && modelId > 0 };
}

export default function ConfigEditModal({
  modelId,
  items,
  proposed,
  onClose,
  onSubmit,
}: {
  modelId: number;
  items: ConfigValue[] | null;
  /** Values to start from instead of the current ones (an imported parameter file). */
  proposed?: Record<string, string>;
  onClose(): void;
  onSubmit(edits: { key: string; value: string }[]): boolean;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Record<string, string>>();
  const { rules, loading } = useValueRules(modelId);
  const allowed = (key: string) =>
    (rules.get(key.toLowerCase()) ?? []).map((r) => {
      const rule = valueRule(r.dataType, r.dataRange);
      return t(rule.key, rule.values);
    });
  return (
    <Modal
      open={!!items}
      title={t('config.setTitle')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('com_ok')}
      cancelText={t('com_cancel')}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'config-edit-ok', disabled: loading } as { disabled: boolean }}
    >
      <Form
        form={form}
        layout="vertical"
        preserve={false}
        initialValues={Object.fromEntries((items ?? []).map((i) => [i.key, proposed?.[i.key] ?? i.value]))}
        onFinish={(v) => onSubmit((items ?? []).map((i) => ({ key: i.key, value: v[i.key] ?? '' })))}
      >
        {(items ?? []).map((i) => {
          const rule = allowed(i.key);
          return (
            <Form.Item
              key={i.key}
              name={i.key}
              label={i.name ? `${displayItemName(i.name, t)} (${i.key})` : i.key}
              extra={
                <span data-testid={`config-rule-${i.key}`}>
                  {t('config.current', { value: i.value })}
                  {rule.length > 0 && ` · ${t('config.allowed', { rule: rule.join('; ') })}`}
                </span>
              }
              rules={[
                { max: 500 },
                {
                  validator: (_r, value: string | undefined) => {
                    const broken = brokenRule(rules, i.key, value ?? '');
                    return broken ? Promise.reject(new Error(t('config.outOfRange', { rule: t(broken.key, broken.values) }))) : Promise.resolve();
                  },
                },
              ]}
            >
              <Input data-testid={`config-value-${i.key}`} />
            </Form.Item>
          );
        })}
      </Form>
    </Modal>
  );
}
