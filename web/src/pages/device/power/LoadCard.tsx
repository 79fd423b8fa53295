/**
 * The charger's part in its site's plan (GET/POST dev/power): wired on three phases or on one
 * (L1-L3), the current it may get (min/max A per phase) and its priority. Saved with
 * auth_site_power_edit; a refusal naming a field (10001) is shown on it.
 */
import { useEffect, useState } from 'react';
import { App, Button, Card, Form, InputNumber, Radio, Select, Space, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { fieldOfMessage, getDevicePower, POWER_LIMITS, powerKeys, refusalOf, setDevicePower, type DevicePower, type ServerField } from '../../../services/power';

type Values = Omit<DevicePower, 'deviceId'>;

export default function LoadCard({ deviceId, editable }: { deviceId: number; editable: boolean }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const q = useQuery({ queryKey: powerKeys.device(deviceId), queryFn: () => getDevicePower(deviceId) });
  const phases = Form.useWatch('phases', form);
  useEffect(() => {
    if (q.data) form.setFieldsValue(q.data);
  }, [q.data, form]);

  const fields: ServerField[] = (['phases', 'phase', 'minA', 'maxA', 'priority'] as const).map((f) => ({ name: f, raw: [f], label: t(`sc.f.${f}`) }));

  const save = async (v: Values) => {
    setSaving(true);
    try {
      await setDevicePower({ ...v, phase: v.phases === 1 ? v.phase : (q.data?.phase ?? 1), deviceId });
      void message.success(t('sc.loadSaved'));
      await qc.invalidateQueries({ queryKey: powerKeys.device(deviceId) });
    } catch (e) {
      const r = refusalOf(e);
      if (!r) return;
      const name = r.code === 10001 ? fieldOfMessage(r.message, fields) : null;
      if (name) form.setFields([{ name: name as never, errors: [r.message] }]);
      else void message.error(r.message);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card title={t('sc.load')} style={{ marginBottom: 16 }} loading={q.isPending} data-testid="sc-load-card">
      <Typography.Paragraph type="secondary">{t('sc.loadHint')}</Typography.Paragraph>
      {!editable && <Typography.Paragraph type="secondary">{t('sc.loadReadOnly')}</Typography.Paragraph>}
      <Form<Values> form={form} layout="vertical" disabled={!editable} onFinish={(v) => void save(v)} data-testid="sc-load-form">
        <Space wrap align="start" size="large">
          <Form.Item name="phases" label={t('sc.f.phases')}>
            <Radio.Group
              optionType="button"
              options={[
                { value: 3, label: t('sc.phases.3') },
                { value: 1, label: t('sc.phases.1') },
              ]}
              data-testid="sc-load-phases"
            />
          </Form.Item>
          {phases === 1 && (
            <Form.Item name="phase" label={t('sc.f.phase')}>
              <Select style={{ width: 100 }} options={[1, 2, 3].map((p) => ({ value: p, label: `L${p}` }))} data-testid="sc-load-phase" />
            </Form.Item>
          )}
          <Form.Item name="minA" label={t('sc.f.minA')} rules={[{ required: true, message: t('com_value_required') }]}>
            <InputNumber min={0} max={POWER_LIMITS.maxDeviceA} addonAfter="A" style={{ width: 140 }} data-testid="sc-load-mina" />
          </Form.Item>
          <Form.Item
            name="maxA"
            label={t('sc.f.maxA')}
            dependencies={['minA']}
            rules={[
              { required: true, message: t('com_value_required') },
              ({ getFieldValue }) => ({
                validator: (_, v?: number) => (typeof v === 'number' && v < (getFieldValue('minA') ?? 0) ? Promise.reject(new Error(t('sc.maxBelowMin'))) : Promise.resolve()),
              }),
            ]}
          >
            <InputNumber min={0} max={POWER_LIMITS.maxDeviceA} addonAfter="A" style={{ width: 140 }} data-testid="sc-load-maxa" />
          </Form.Item>
          <Form.Item name="priority" label={t('sc.f.priority')} tooltip={t('sc.priorityHint')} rules={[{ required: true, message: t('com_value_required') }]}>
            <InputNumber min={-POWER_LIMITS.maxPriority} max={POWER_LIMITS.maxPriority} precision={0} style={{ width: 100 }} data-testid="sc-load-priority" />
          </Form.Item>
        </Space>
        {editable && (
          <Button type="primary" htmlType="submit" loading={saving} data-testid="sc-load-save">
            {t('com_save')}
          </Button>
        )}
      </Form>
    </Card>
  );
}
