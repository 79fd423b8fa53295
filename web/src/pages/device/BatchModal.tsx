/**
 * Batch operation over the selected devices: one control type with its parameters, confirmed,
 * then a command per device followed live, with a progress bar; devices that refused (busy —
 * the answer is then 30003 "some devices busy" —, disabled, offline, ...) are listed as such.
 */
import { App, Button, Form, Input, InputNumber, Modal, Radio, Select, Space, Typography } from 'antd';
import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { CommandResults, useControlName } from '../../components/fleet';
import { messageOptions } from '../../components/OcppMessage';
import { useCommands } from '../../hooks/useCommands';
import { CTL, listFirmware, TRIGGER_MESSAGES, type ControlParams, fleetKeys } from '../../services/fleet';
import { CONTROL_TYPES } from '../../services/deviceModel';
import { OPS_KEYS } from '../../services/ops';
import { useCan } from '../../components/access';

/**
 * The operator actions that name one device's token, session, reservation or vendor message
 * (remote start and stop, DataTransfer, reserve, cancel) are the device page's, not a batch's;
 * local lists (19, 20) are sent from the device page and the tokens' sweep (docs/tokens.md).
 */
const ONE_DEVICE_ONLY: readonly number[] = [CTL.remoteStart, CTL.remoteStop, CTL.dataTransfer, CTL.reserveNow, CTL.cancelReservation, CTL.sendLocalList, CTL.getLocalListVersion];

/** The control types a batch offers the caller (unlock with its own key). */
export function batchTypes(canUnlock: boolean): number[] {
  return CONTROL_TYPES.filter((c) => !ONE_DEVICE_ONLY.includes(c) && (c !== CTL.unlockConnector || canUnlock));
}

interface Values {
  controlType: number;
  enable?: boolean;
  connectorId?: number;
  firmwareId?: number;
  message?: string;
  items?: { key: string; value: string }[];
}

/** The control/send params of the form's values. */
export function paramsOf(v: Values): ControlParams {
  switch (v.controlType) {
    case CTL.availability:
      return { enable: !!v.enable };
    case CTL.connectorAvailability:
      return { connectorId: v.connectorId, enable: !!v.enable };
    case CTL.unlockConnector:
      return { connectorId: v.connectorId };
    case CTL.updateFirmware:
      return { firmwareId: v.firmwareId };
    case CTL.triggerMessage:
      return { message: v.message };
    case CTL.changeConfiguration:
      return { items: (v.items ?? []).filter((i) => i?.key?.trim()).map((i) => ({ key: i.key.trim(), value: i.value ?? '' })) };
    default:
      return {};
  }
}

export default function BatchModal({ devices, open, onClose }: { devices: { id: number; sn: string }[]; open: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const controlName = useControlName();
  const can = useCan();
  const [form] = Form.useForm<Values>();
  const type = Form.useWatch('controlType', form);
  const cmds = useCommands();
  const firmware = useQuery({ queryKey: fleetKeys.firmware, queryFn: () => listFirmware({ page: 1, pageSize: 100 }), enabled: open && type === CTL.updateFirmware });
  const req = { required: true, message: t('com_value_required') };
  const close = () => {
    cmds.clear();
    form.resetFields();
    onClose();
  };
  const submit = (v: Values) =>
    modal.confirm({
      title: t('batch.confirm', { op: controlName(v.controlType), count: devices.length }),
      okText: t('com_ok'),
      cancelText: t('com_cancel'),
      okButtonProps: { 'data-testid': 'confirm-ok' } as Record<string, string>,
      onOk: () => void cmds.send(devices, v.controlType, paramsOf(v)),
    });
  return (
    <Modal
      open={open}
      title={t('batch.title', { count: devices.length })}
      onCancel={close}
      width={760}
      destroyOnHidden
      footer={
        <Space>
          <Button onClick={close}>{t('com_close')}</Button>
          <Button type="primary" loading={cmds.sending} onClick={() => form.submit()} data-testid="batch-run">
            {t('batch.run')}
          </Button>
        </Space>
      }
    >
      <div data-testid="batch-modal">
        <Typography.Paragraph type="secondary" ellipsis={{ rows: 2, tooltip: devices.map((d) => d.sn).join(', ') }}>
          {devices.map((d) => d.sn).join(', ')}
        </Typography.Paragraph>
        <Form<Values> form={form} layout="vertical" onFinish={submit} initialValues={{ enable: false, message: 'MeterValues', items: [{ key: '', value: '' }] }}>
          <Form.Item name="controlType" label={t('batch.operation')} rules={[req]}>
            <Select options={batchTypes(can(OPS_KEYS.unlock)).map((c) => ({ value: c, label: controlName(c) }))} data-testid="batch-type" />
          </Form.Item>
          {(type === CTL.availability || type === CTL.connectorAvailability) && (
            <Form.Item name="enable" label={t('batch.availability')}>
              <Radio.Group
                options={[
                  { value: false, label: t('com_disable') },
                  { value: true, label: t('com_enable') },
                ]}
              />
            </Form.Item>
          )}
          {(type === CTL.connectorAvailability || type === CTL.unlockConnector) && (
            <Form.Item name="connectorId" label={t('runtime.connector')} rules={[req]}>
              <InputNumber min={1} precision={0} />
            </Form.Item>
          )}
          {type === CTL.updateFirmware && (
            <Form.Item name="firmwareId" label={t('firmware.pick')} rules={[req]}>
              <Select options={(firmware.data?.list ?? []).filter((f) => f.complete).map((f) => ({ value: f.id, label: f.name }))} loading={firmware.isFetching} />
            </Form.Item>
          )}
          {type === CTL.triggerMessage && (
            <Form.Item name="message" label={t('batch.message')}>
              <Select options={messageOptions(TRIGGER_MESSAGES)} />
            </Form.Item>
          )}
          {type === CTL.changeConfiguration && (
            <>
              <Typography.Paragraph type="secondary">{t('batch.configHint')}</Typography.Paragraph>
              <Form.List name="items">
                {(fields, { add, remove }) => (
                  <>
                    {fields.map((f) => (
                      <Space key={f.key} align="baseline">
                        <Form.Item name={[f.name, 'key']} rules={[req, { max: 50 }]}>
                          <Input placeholder={t('config.key')} />
                        </Form.Item>
                        <Form.Item name={[f.name, 'value']} rules={[{ max: 500 }]}>
                          <Input placeholder={t('config.value')} />
                        </Form.Item>
                        {fields.length > 1 && <MinusCircleOutlined onClick={() => remove(f.name)} />}
                      </Space>
                    ))}
                    <Button type="dashed" onClick={() => add({ key: '', value: '' })} icon={<PlusOutlined />}>
                      {t('batch.addItem')}
                    </Button>
                  </>
                )}
              </Form.List>
            </>
          )}
        </Form>
        <CommandResults states={cmds.states} sending={cmds.sending} />
      </div>
    </Modal>
  );
}
