/**
 * "Set profile" (control type 26): connector (0 = the whole charger), purpose, id (the next
 * free operator id), stack level, kind (recurrency when recurring, start when absolute or
 * recurring), unit, minimum rate, the periods, validity, and for a running-session profile the
 * session (the connector's open one). The form checks what the server checks
 * (internal/smartcharging/profile.go) before sending; a refusal naming a field (10001) is shown
 * on it. Closes once the charger accepted; otherwise the result stays in the dialog.
 */
import { useEffect, useMemo, useState } from 'react';
import { Button, DatePicker, Form, InputNumber, Modal, Radio, Select, Space, Typography, type ButtonProps } from 'antd';
import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import dayjs, { type Dayjs } from 'dayjs';
import { CommandResults } from '../../../components/fleet';
import type { useCommands } from '../../../hooks/useCommands';
import { RESULT } from '../../../services/fleet';
import { getConnectorOps, opsKeys } from '../../../services/ops';
import { fieldOfMessage, KINDS, POWER_LIMITS, PURPOSES, RECURRENCIES, scParams, type ProfileRow, type ServerField } from '../../../services/power';
import { fromPicker, toPicker } from '../../../utils/time';
import { formToProfile, nextProfileId, profileFormError, SC_CTL, type ProfileFormValues } from './profile';

type Values = Omit<ProfileFormValues, 'start' | 'validFrom' | 'validTo'> & { start?: Dayjs | null; validFrom?: Dayjs | null; validTo?: Dayjs | null };

const ms = (d: Dayjs | null | undefined) => (d ? fromPicker(d) : null);

export default function SetProfileModal({
  device,
  rows,
  cmds,
  onClose,
  onSent,
}: {
  device: { id: number; sn: string };
  rows: ProfileRow[];
  cmds: ReturnType<typeof useCommands>;
  onClose(): void;
  onSent(): void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const [sending, setSending] = useState(false);
  const connectors = useQuery({ queryKey: opsKeys.connectors(device.id), queryFn: () => getConnectorOps(device.id) });
  const purpose = Form.useWatch('purpose', form);
  const kind = Form.useWatch('kind', form);
  const unit = Form.useWatch('unit', form) ?? 'A';
  const connectorId = Form.useWatch('connectorId', form);
  const session = useMemo(() => connectors.data?.find((c) => c.connectorId === connectorId)?.transactionId || 0, [connectors.data, connectorId]);
  const initial = useMemo<Partial<Values>>(
    () => ({
      connectorId: 0,
      purpose: 'TxDefault',
      id: nextProfileId(rows),
      stackLevel: 1, // 0 of TxDefault on connector 0 is the load manager's fallback
      kind: 'Relative',
      recurrency: 'Daily',
      unit: 'A',
      periods: [{ start: 0, limit: 16 }],
      start: toPicker(dayjs().startOf('day').valueOf()),
    }),
    // the defaults once, when the dialog opens
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [],
  );

  // the results shown are this dialog's
  useEffect(() => {
    cmds.clear();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // a running-session profile is for the connector's open session
  useEffect(() => {
    if (purpose === 'Tx' && session) form.setFieldsValue({ transactionId: session });
  }, [purpose, session, form]);

  const fields: ServerField[] = [
    { name: 'connectorId', raw: ['params.connectorId'], label: t('sc.f.connectorId') },
    { name: 'id', raw: ['params.profile.id'], label: t('sc.f.id') },
    { name: 'stackLevel', raw: ['params.profile.stackLevel'], label: t('sc.f.stackLevel') },
    { name: 'purpose', raw: ['params.profile.purpose'], label: t('sc.f.purpose') },
    { name: 'kind', raw: ['params.profile.kind'], label: t('sc.f.kind') },
    { name: 'recurrency', raw: ['params.profile.recurrency'], label: t('sc.f.recurrency') },
    { name: 'validFrom', raw: ['params.profile.validFrom'], label: t('sc.f.validFrom') },
    { name: 'validTo', raw: ['params.profile.validTo'], label: t('sc.f.validTo') },
    { name: 'transactionId', raw: ['params.profile.transactionId'], label: t('sc.f.transactionId') },
    { name: 'unit', raw: ['params.profile.schedule.unit'], label: t('sc.f.unit') },
    { name: 'start', raw: ['params.profile.schedule.start'], label: t('sc.f.start') },
    { name: 'duration', raw: ['params.profile.schedule.duration'], label: t('sc.f.duration') },
    { name: 'minRate', raw: ['params.profile.schedule.minRate'], label: t('sc.f.minRate') },
    { name: 'periods', raw: ['params.profile.schedule.periods', 'params.profile.schedule.periods.limit', 'params.profile.schedule.periods.phases'], label: t('sc.f.periods') },
  ];

  const toForm = (v: Values): ProfileFormValues => ({ ...v, start: ms(v.start), validFrom: ms(v.validFrom), validTo: ms(v.validTo) });

  const submit = async () => {
    const v = await form.validateFields();
    const fv = toForm(v);
    const err = profileFormError(fv);
    if (err) {
      form.setFields([{ name: err.field as never, errors: [t(err.key, err.values)] }]);
      return;
    }
    setSending(true);
    try {
      const states = await cmds.send([device], SC_CTL.setProfile, scParams({ connectorId: fv.connectorId, profile: formToProfile(fv) }));
      const s = states?.[0];
      if (s && s.id && s.result === RESULT.success) onSent();
      else if (s && !s.id && s.code === 10001 && s.message) {
        const name = fieldOfMessage(s.message, fields);
        if (name) form.setFields([{ name: name as never, errors: [s.message] }]);
      }
    } finally {
      setSending(false);
    }
  };

  const connectorOptions = [0, ...(connectors.data ?? []).map((c) => c.connectorId).filter((c) => c > 0)].map((c) => ({
    value: c,
    label: c === 0 ? t('sc.connector.0') : String(c),
  }));
  const maxLimit = unit === 'W' ? POWER_LIMITS.maxPeriodW : POWER_LIMITS.maxPeriodA;

  return (
    <Modal
      open
      title={t('sc.setTitle', { sn: device.sn })}
      okText={t('sc.send')}
      cancelText={t('com_cancel')}
      onOk={() => void submit().catch(() => undefined)}
      onCancel={onClose}
      confirmLoading={sending}
      okButtonProps={{ 'data-testid': 'sc-set-send' } as ButtonProps}
      width={760}
      destroyOnHidden
    >
      <div data-testid="sc-set-modal">
        <Form<Values> form={form} layout="vertical" initialValues={initial} onValuesChange={(ch) => Object.keys(ch).forEach((k) => form.setFields([{ name: k as never, errors: [] }]))}>
          <Space wrap align="start" size="middle">
            <Form.Item name="connectorId" label={t('sc.f.connectorId')} rules={[{ required: true }]}>
              <Select style={{ width: 140 }} options={connectorOptions} data-testid="sc-set-connector" />
            </Form.Item>
            <Form.Item name="purpose" label={t('sc.f.purpose')} rules={[{ required: true }]}>
              <Select style={{ width: 180 }} options={PURPOSES.map((p) => ({ value: p, label: t(`sc.purpose.${p}`) }))} data-testid="sc-set-purpose" />
            </Form.Item>
            <Form.Item name="id" label={t('sc.f.id')} tooltip={t('sc.idHint')} rules={[{ required: true, message: t('com_value_required') }]}>
              <InputNumber min={1} max={POWER_LIMITS.maxOperatorId} precision={0} style={{ width: 140 }} data-testid="sc-set-id" />
            </Form.Item>
            <Form.Item name="stackLevel" label={t('sc.f.stackLevel')} rules={[{ required: true, message: t('com_value_required') }]}>
              <InputNumber min={0} max={POWER_LIMITS.maxStackLevel} precision={0} style={{ width: 110 }} data-testid="sc-set-stack" />
            </Form.Item>
          </Space>
          {purpose === 'Tx' && (
            <Form.Item
              name="transactionId"
              label={t('sc.f.transactionId')}
              extra={session ? t('sc.sessionHint') : t('sc.noSession')}
              rules={[{ required: true, message: t('com_value_required') }]}
            >
              <InputNumber min={1} precision={0} style={{ width: 200 }} data-testid="sc-set-session" />
            </Form.Item>
          )}
          <Space wrap align="start" size="middle">
            <Form.Item name="kind" label={t('sc.f.kind')} rules={[{ required: true }]}>
              <Radio.Group options={KINDS.map((k) => ({ value: k, label: t(`sc.kind.${k}`) }))} data-testid="sc-set-kind" />
            </Form.Item>
            {kind === 'Recurring' && (
              <Form.Item name="recurrency" label={t('sc.f.recurrency')} rules={[{ required: true }]}>
                <Select style={{ width: 120 }} options={RECURRENCIES.map((r) => ({ value: r, label: t(`sc.recurrency.${r}`) }))} data-testid="sc-set-recurrency" />
              </Form.Item>
            )}
            {kind && kind !== 'Relative' && (
              <Form.Item name="start" label={t('sc.f.start')} rules={[{ required: true, message: t('sc.startRequired') }]}>
                <DatePicker showTime data-testid="sc-set-start" />
              </Form.Item>
            )}
          </Space>
          <Space wrap align="start" size="middle">
            <Form.Item name="unit" label={t('sc.f.unit')} rules={[{ required: true }]}>
              <Radio.Group optionType="button" options={['A', 'W'].map((u) => ({ value: u, label: u }))} data-testid="sc-set-unit" />
            </Form.Item>
            <Form.Item name="minRate" label={t('sc.f.minRate')}>
              <InputNumber min={0} max={maxLimit} addonAfter={unit} style={{ width: 160 }} data-testid="sc-set-minrate" />
            </Form.Item>
            <Form.Item name="duration" label={t('sc.f.duration')} tooltip={t('sc.durationHint')}>
              <InputNumber min={1} precision={0} addonAfter="s" style={{ width: 160 }} data-testid="sc-set-duration" />
            </Form.Item>
          </Space>
          <Form.Item label={t('sc.f.periods')} required style={{ marginBottom: 0 }} />
          <Form.List name="periods">
            {(items, { add, remove }, { errors }) => (
              <div data-testid="sc-set-periods">
                {items.map(({ key, name }, i) => (
                  <Space key={key} align="baseline" wrap data-testid="sc-set-period">
                    <Form.Item name={[name, 'start']} rules={[{ required: true, message: t('com_value_required') }]}>
                      <InputNumber min={0} precision={0} addonBefore={t('sc.period.start')} disabled={i === 0} style={{ width: 200 }} data-testid="sc-set-period-start" />
                    </Form.Item>
                    <Form.Item name={[name, 'limit']} rules={[{ required: true, message: t('com_value_required') }]}>
                      <InputNumber min={0} max={maxLimit} addonBefore={t('sc.period.limit')} addonAfter={unit} style={{ width: 220 }} data-testid="sc-set-period-limit" />
                    </Form.Item>
                    <Form.Item name={[name, 'phases']}>
                      <Select
                        allowClear
                        placeholder={t('sc.period.phases')}
                        style={{ width: 110 }}
                        options={[1, 3].map((p) => ({ value: p, label: String(p) }))}
                        data-testid="sc-set-period-phases"
                      />
                    </Form.Item>
                    {i > 0 && <Button type="text" icon={<MinusCircleOutlined />} onClick={() => remove(name)} aria-label={t('sc.period.remove')} />}
                  </Space>
                ))}
                {items.length < POWER_LIMITS.maxPeriods && (
                  <Form.Item>
                    <Button
                      type="dashed"
                      icon={<PlusOutlined />}
                      onClick={() => {
                        const list = (form.getFieldValue('periods') as Values['periods'] | undefined) ?? [];
                        const last = list[list.length - 1];
                        add({ start: (last?.start ?? 0) + 3600, limit: last?.limit ?? 16 });
                      }}
                      data-testid="sc-set-period-add"
                    >
                      {t('sc.period.add')}
                    </Button>
                  </Form.Item>
                )}
                <Form.ErrorList errors={errors} />
              </div>
            )}
          </Form.List>
          <Space wrap align="start" size="middle">
            <Form.Item name="validFrom" label={t('sc.f.validFrom')}>
              <DatePicker showTime data-testid="sc-set-valid-from" />
            </Form.Item>
            <Form.Item name="validTo" label={t('sc.f.validTo')}>
              <DatePicker showTime data-testid="sc-set-valid-to" />
            </Form.Item>
          </Space>
        </Form>
        <Typography.Paragraph type="secondary">{t('sc.idHint')}</Typography.Paragraph>
        <CommandResults states={cmds.states} sending={cmds.sending} />
      </div>
    </Modal>
  );
}
