/**
 * message/setting — reception management (docs/messages.md#api): which event kinds and
 * alarm levels the user receives, for all sites of their scope or chosen ones (the site
 * options are scoped by the server), in the console and by mail, immediately or as a digest
 * every N minutes (5-1440).
 */
import { useEffect, useState } from 'react';
import { App, Button, Card, Checkbox, Form, InputNumber, Radio, Select, Switch, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { FormButtons } from '../../components/FormDrawer';
import { useSiteOptions } from '../../hooks/useOptions';
import { EVENT_KINDS, EVENT_LEVELS } from '../../services/fleet';
import { DELAY_MAX, DELAY_MIN, FREQUENCIES, getMessageSetting, saveMessageSetting, messageKeys } from '../../services/message';
import { formToSetting, settingToForm, type SettingForm } from '../../utils/message';

export default function MessageSetting() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [form] = Form.useForm<SettingForm>();
  const [busy, setBusy] = useState(false);
  const setting = useQuery({ queryKey: messageKeys.setting, queryFn: getMessageSetting });
  const allSites = Form.useWatch('allSites', form);
  const frequency = Form.useWatch('frequency', form);
  const sites = useSiteOptions(undefined, allSites === false);

  useEffect(() => {
    if (setting.data) form.setFieldsValue(settingToForm(setting.data));
  }, [setting.data, form]);

  const save = async (v: SettingForm) => {
    setBusy(true);
    try {
      await saveMessageSetting(formToSetting({ ...form.getFieldsValue(true), ...v } as SettingForm));
      void message.success(t('com_msg_save_success'));
      await qc.invalidateQueries({ queryKey: messageKeys.setting });
    } catch {
      /* toast shown by the request layer */
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card loading={setting.isPending} title={t('menu.message.setting')} data-testid="message-setting">
      <Typography.Paragraph type="secondary">{t('message.setting.hint')}</Typography.Paragraph>
      <Form<SettingForm> form={form} layout="vertical" onFinish={(v) => void save(v)} style={{ maxWidth: 640 }}>
        <Form.Item name="kinds" label={t('message.setting.kinds')} rules={[{ required: true, type: 'array', min: 1, message: t('message.setting.pickOne') }]}>
          <Checkbox.Group options={EVENT_KINDS.map((v) => ({ value: v, label: <span data-testid={`setting-kind-${v}`}>{t(`event.kind.${v}`)}</span> }))} />
        </Form.Item>
        <Form.Item
          name="levels"
          label={t('message.setting.levels')}
          extra={t('message.setting.levelsHint')}
          rules={[{ required: true, type: 'array', min: 1, message: t('message.setting.pickOne') }]}
        >
          <Checkbox.Group options={EVENT_LEVELS.map((v) => ({ value: v, label: <span data-testid={`setting-level-${v}`}>{t(`event.level.${v}`)}</span> }))} />
        </Form.Item>
        <Form.Item name="allSites" label={t('message.setting.sites')}>
          <Radio.Group data-testid="setting-all-sites">
            <Radio value={true} data-testid="setting-all-sites-yes">
              {t('message.setting.allSites')}
            </Radio>
            <Radio value={false} data-testid="setting-all-sites-no">
              {t('message.setting.chosenSites')}
            </Radio>
          </Radio.Group>
        </Form.Item>
        {allSites === false && (
          <Form.Item name="siteIds" rules={[{ required: true, type: 'array', min: 1, message: t('message.setting.pickSite') }]}>
            <Select mode="multiple" allowClear showSearch optionFilterProp="label" options={sites} placeholder={t('message.setting.pickSite')} data-testid="setting-sites" />
          </Form.Item>
        )}
        <Form.Item name="console" label={t('message.setting.console')} valuePropName="checked">
          <Switch data-testid="setting-console" />
        </Form.Item>
        <Form.Item name="mail" label={t('message.setting.mail')} valuePropName="checked" extra={t('message.setting.mailHint')}>
          <Switch data-testid="setting-mail" />
        </Form.Item>
        <Form.Item name="frequency" label={t('message.setting.frequency')}>
          <Radio.Group>
            {FREQUENCIES.map((f) => (
              <Radio key={f} value={f} data-testid={`setting-frequency-${f}`}>
                {t(`message.setting.frequency.${f}`)}
              </Radio>
            ))}
          </Radio.Group>
        </Form.Item>
        {frequency === 'delayed' && (
          <Form.Item
            name="delayMinutes"
            label={t('message.setting.delay')}
            extra={t('message.setting.delayHint', { min: DELAY_MIN, max: DELAY_MAX })}
            rules={[{ required: true, type: 'integer', min: DELAY_MIN, max: DELAY_MAX, message: t('message.setting.delayHint', { min: DELAY_MIN, max: DELAY_MAX }) }]}
          >
            <InputNumber min={DELAY_MIN} max={DELAY_MAX} precision={0} addonAfter={t('message.setting.minutes')} data-testid="setting-delay" />
          </Form.Item>
        )}
        <FormButtons>
          <Button type="primary" htmlType="submit" loading={busy} data-testid="setting-save">
            {t('com_save')}
          </Button>
        </FormButtons>
      </Form>
    </Card>
  );
}
