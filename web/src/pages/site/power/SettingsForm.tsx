/**
 * A site's grid limit and load management setting (POST site/power): on or off, the limit in kW
 * or in A per phase, each session's minimum share, the edit level, and lower limits for times of
 * day. Read-only without auth_site_power_edit. A refusal naming a field (10001) is shown on it;
 * others as a message.
 */
import { useEffect, useState } from 'react';
import { App, Button, Card, Form, InputNumber, Radio, Select, Space, Switch, TimePicker, Typography } from 'antd';
import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import dayjs, { type Dayjs } from 'dayjs';
import { fieldOfMessage, POWER_LIMITS, powerKeys, refusalOf, setSitePower, type SitePowerSetting } from '../../../services/power';
import { formatTime } from '../../../utils/time';
import { formToSetting, settingToForm, type SettingValues } from './sitePower';

const DAYS = [1, 2, 3, 4, 5, 6, 7];

/** "HH:mm" as a picker value (today at that time). */
function toTime(s: string): Dayjs | null {
  const m = /^(\d{1,2}):(\d{2})$/.exec(s);
  return m ? dayjs().hour(Number(m[1])).minute(Number(m[2])).second(0).millisecond(0) : null;
}

export default function SettingsForm({ power, editable }: { power: SitePowerSetting; editable: boolean }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [form] = Form.useForm<SettingValues>();
  const [saving, setSaving] = useState(false);
  const mode = Form.useWatch('limitMode', form);
  const enabled = Form.useWatch('enabled', form);

  // the server's setting, again after each save (updatedAt changes)
  useEffect(() => {
    const v = settingToForm(power);
    form.setFieldsValue({ ...v, schedule: v.schedule.map((w) => ({ ...w, from: toTime(w.from), to: toTime(w.to) })) });
  }, [power, form]);

  const save = async (v: SettingValues) => {
    setSaving(true);
    try {
      await setSitePower(formToSetting(v, power));
      void message.success(t('power.saved'));
      await qc.invalidateQueries({ queryKey: powerKeys.site(power.siteId) });
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

  const fields = [
    { name: 'limit', raw: ['limitKw', 'limitA'], label: mode === 'a' ? t('power.limitA') : t('power.limitKw') },
    { name: 'limit', label: t('power.limitKw') },
    { name: 'limit', label: t('power.limitA') },
    { name: 'minA', raw: ['minA'], label: t('power.minA') },
    { name: 'editLevel', raw: ['editLevel'], label: t('power.editLevel') },
    { name: ['schedule', '[]', 'from'], raw: ['schedule[].from'] },
    { name: ['schedule', '[]', 'to'], raw: ['schedule[].to'] },
    { name: ['schedule', '[]', 'days'], raw: ['schedule[].days'] },
    { name: ['schedule', '[]', 'limitKw'], raw: ['schedule[].limitKw'] },
    { name: 'schedule', raw: ['schedule'], label: t('power.schedule') },
  ];

  const limitRule = {
    validator: (_: unknown, v?: number | null) => (enabled && !(typeof v === 'number' && v > 0) ? Promise.reject(new Error(t('power.limitRequired'))) : Promise.resolve()),
  };

  return (
    <Card title={t('power.settings')} style={{ marginBottom: 16 }}>
      {!editable && <Typography.Paragraph type="secondary">{t('power.readOnly')}</Typography.Paragraph>}
      <Form<SettingValues> form={form} layout="vertical" onFinish={(v) => void save(v)} disabled={!editable} data-testid="site-power-form" style={{ maxWidth: 880 }}>
        <Space wrap size="large" align="start">
          <Form.Item name="enabled" label={t('power.enabled')} valuePropName="checked">
            <Switch data-testid="site-power-enabled" />
          </Form.Item>
          <Form.Item name="limitMode" label={t('power.limitMode')}>
            <Radio.Group
              data-testid="site-power-mode"
              onChange={() => form.setFields([{ name: 'limit', errors: [] }])}
              options={[
                { value: 'kw', label: t('power.limitMode.kw') },
                { value: 'a', label: t('power.limitMode.a') },
              ]}
            />
          </Form.Item>
          <Form.Item name="limit" label={mode === 'a' ? t('power.limitA') : t('power.limitKw')} rules={[limitRule]} dependencies={['enabled']}>
            <InputNumber
              min={0}
              max={mode === 'a' ? POWER_LIMITS.maxLimitA : POWER_LIMITS.maxLimitKw}
              step={mode === 'a' ? 1 : 0.1}
              addonAfter={mode === 'a' ? 'A' : 'kW'}
              style={{ width: 180 }}
              data-testid="site-power-limit"
            />
          </Form.Item>
          <Form.Item name="minA" label={t('power.minA')} tooltip={t('power.minAHint')}>
            <InputNumber min={0} max={POWER_LIMITS.maxSiteMinA} step={1} addonAfter="A" style={{ width: 140 }} data-testid="site-power-mina" />
          </Form.Item>
          <Form.Item name="editLevel" label={t('power.editLevel')} tooltip={t('power.editLevelHint')}>
            <Select style={{ width: 100 }} options={[0, 1, 2, 3, 4, 5].map((l) => ({ value: l, label: String(l) }))} data-testid="site-power-editlevel" />
          </Form.Item>
        </Space>
        <Form.Item label={t('power.schedule')} tooltip={t('power.scheduleHint')} style={{ marginBottom: 0 }} />
        <Form.List name="schedule">
          {(items, { add, remove }, { errors }) => (
            <div data-testid="site-power-windows">
              {items.map(({ key, name }) => (
                <Space key={key} wrap align="baseline" data-testid="site-power-window">
                  <Form.Item name={[name, 'from']} rules={[{ required: true, message: t('com_value_required') }]}>
                    <TimePicker format="HH:mm" minuteStep={5} placeholder={t('power.window.from')} data-testid="site-power-window-from" />
                  </Form.Item>
                  <Form.Item name={[name, 'to']} rules={[{ required: true, message: t('com_value_required') }]}>
                    <TimePicker format="HH:mm" minuteStep={5} placeholder={t('power.window.to')} data-testid="site-power-window-to" />
                  </Form.Item>
                  <Form.Item name={[name, 'days']}>
                    <Select
                      mode="multiple"
                      allowClear
                      style={{ minWidth: 220 }}
                      placeholder={t('power.window.everyDay')}
                      options={DAYS.map((d) => ({ value: d, label: t(`power.day.${d}`) }))}
                      data-testid="site-power-window-days"
                    />
                  </Form.Item>
                  <Form.Item name={[name, 'limitKw']} rules={[{ required: true, message: t('com_value_required') }]}>
                    <InputNumber min={0} max={POWER_LIMITS.maxLimitKw} step={0.1} addonAfter="kW" placeholder={t('power.window.limitKw')} style={{ width: 160 }} data-testid="site-power-window-kw" />
                  </Form.Item>
                  {editable && (
                    <Button type="text" icon={<MinusCircleOutlined />} onClick={() => remove(name)} aria-label={t('power.window.remove')} data-testid="site-power-window-remove" />
                  )}
                </Space>
              ))}
              {editable && items.length < POWER_LIMITS.maxWindows && (
                <Form.Item>
                  <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({ from: null, to: null, days: [], limitKw: null })} data-testid="site-power-window-add">
                    {t('power.window.add')}
                  </Button>
                </Form.Item>
              )}
              <Form.ErrorList errors={errors} />
            </div>
          )}
        </Form.List>
        {power.updatedAt > 0 && (
          <Typography.Paragraph type="secondary">{t('power.updatedBy', { user: power.updatedBy || '-', time: formatTime(power.updatedAt) })}</Typography.Paragraph>
        )}
        {editable && (
          <Button type="primary" htmlType="submit" loading={saving} data-testid="site-power-save">
            {t('com_save')}
          </Button>
        )}
      </Form>
    </Card>
  );
}
