/**
 * The unit's commands (control types 29-32, issue 26): the power setpoint in kW (sent in W, +
 * discharge, - charge; the unit switches to manual mode), the operating mode, start and stop,
 * fault reset. Start, stop and fault reset are confirmed first; each is followed to its result
 * like every operation (useCommands, CommandResults) and the values are read again after it.
 * They need auth_device_edit (control/send) and auth_device_storage, and each its control item
 * at the user's level as the server checks it (utils/fleet controlAllowed): a command the user
 * may not send is not shown.
 */
import { useEffect, useState } from 'react';
import { App, Button, Card, Form, InputNumber, Select, Space, Typography, type ButtonProps } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../../components/access';
import { CommandResults } from '../../../components/fleet';
import { useCommands } from '../../../hooks/useCommands';
import { useControlLevels } from '../../../hooks/useControlLevels';
import { listItems, modelKeys } from '../../../services/deviceModel';
import { ESS_MODES, modeParams, powerParams, runParams, type EssMode } from '../../../services/ess';
import { CTL, fleetKeys, RESULT, STORAGE_CONTROL_TYPES, type ControlParams } from '../../../services/fleet';
import { controlAllowed } from '../../../utils/fleet';
import { formatKw1, knownMode, setpointLimitKw, setpointW, type StorageSnapshot } from './storage';

interface Target {
  id: number;
  sn: string;
  modelId: number;
}

export default function CommandsCard({ device, s }: { device: Target; s: StorageSnapshot }) {
  const { t, i18n } = useTranslation();
  const { modal } = App.useApp();
  const qc = useQueryClient();
  const can = useCan();
  const cmds = useCommands();
  const levelOf = useControlLevels();
  const keys = can(['auth_device_edit', 'auth_device_storage'], 'all');
  const items = useQuery({ queryKey: modelKeys.items(device.modelId, 'control'), queryFn: () => listItems(device.modelId, 'control'), enabled: keys });
  // without the model's items (not allowed to read them) the server alone decides
  const allowed = (type: number) => keys && (items.isError || (!!items.data && controlAllowed(items.data, levelOf, type)));
  const [kw, setKw] = useState<number | null>(null);
  const [mode, setMode] = useState<EssMode | undefined>(undefined);
  const current = knownMode(s.mode);
  useEffect(() => {
    if (mode === undefined && current) setMode(current);
  }, [current, mode]);

  const send = (type: number, params: ControlParams) =>
    void cmds.send([device], type, params).then((r) => {
      if (r?.some((c) => c.result === RESULT.success)) void qc.invalidateQueries({ queryKey: fleetKeys.runtime(device.id) });
    });
  const confirm = (type: number, params: ControlParams, title: string, danger = false) =>
    modal.confirm({
      title,
      okText: t('com_ok'),
      cancelText: t('com_cancel'),
      okButtonProps: { danger, 'data-testid': 'confirm-ok' } as ButtonProps,
      onOk: () => send(type, params),
    });

  const limit = setpointLimitKw(s.ratedW);
  const watts = setpointW(kw);
  const any = STORAGE_CONTROL_TYPES.some(allowed);

  return (
    <Card title={t('ess.commands')} style={{ marginBottom: 16 }} loading={keys && items.isPending} data-testid="storage-commands">
      {!keys ? (
        <Typography.Paragraph type="secondary" data-testid="storage-commands-not-allowed">
          {t('ess.cmd.notAllowed')}
        </Typography.Paragraph>
      ) : !any ? (
        <Typography.Paragraph type="secondary" data-testid="storage-commands-none">
          {t('ess.cmd.noneAllowed')}
        </Typography.Paragraph>
      ) : (
        <Space direction="vertical" size="middle" style={{ width: '100%' }}>
          {allowed(CTL.storagePower) && (
            <Form layout="vertical" onFinish={() => watts !== null && send(CTL.storagePower, powerParams(watts))}>
              <Form.Item label={t('ess.cmd.setpoint')} extra={t('ess.cmd.setpointHint', { max: limit })} style={{ marginBottom: 0 }}>
                <Space wrap>
                  <InputNumber<number>
                    value={kw}
                    onChange={(v) => setKw(typeof v === 'number' ? v : null)}
                    min={-limit}
                    max={limit}
                    step={0.1}
                    precision={1}
                    suffix="kW"
                    style={{ width: 180 }}
                    placeholder={s.setpointW !== undefined ? formatKw1(s.setpointW, i18n.language) : undefined}
                    data-testid="storage-setpoint-input"
                  />
                  <Button type="primary" htmlType="submit" disabled={watts === null || cmds.sending} data-testid="storage-setpoint-send" data-watts={watts ?? ''}>
                    {t('ess.cmd.send')}
                  </Button>
                  {watts !== null && (
                    <Typography.Text type="secondary" data-testid="storage-setpoint-meaning">
                      {watts > 0 ? t('ess.cmd.willDischarge', { kw: formatKw1(watts, i18n.language) }) : watts < 0 ? t('ess.cmd.willCharge', { kw: formatKw1(-watts, i18n.language) }) : t('ess.cmd.willIdle')}
                    </Typography.Text>
                  )}
                </Space>
              </Form.Item>
            </Form>
          )}
          {allowed(CTL.storageMode) && (
            <Space wrap>
              <Typography.Text>{t('ess.mode')}</Typography.Text>
              <Select<EssMode>
                value={mode}
                onChange={setMode}
                style={{ width: 200 }}
                options={ESS_MODES.map((m) => ({ value: m, label: t(`ess.mode.${m}`) }))}
                data-testid="storage-mode-select"
              />
              <Button disabled={!mode || cmds.sending} onClick={() => mode && send(CTL.storageMode, modeParams(mode))} data-testid="storage-mode-send">
                {t('ess.cmd.setMode')}
              </Button>
            </Space>
          )}
          <Space wrap>
            {allowed(CTL.storageRun) && (
              <>
                <Button disabled={cmds.sending} onClick={() => confirm(CTL.storageRun, runParams(true), t('ess.cmd.startConfirm', { sn: device.sn }))} data-testid="storage-start">
                  {t('ess.cmd.start')}
                </Button>
                <Button danger disabled={cmds.sending} onClick={() => confirm(CTL.storageRun, runParams(false), t('ess.cmd.stopConfirm', { sn: device.sn }), true)} data-testid="storage-stop">
                  {t('ess.cmd.stop')}
                </Button>
              </>
            )}
            {allowed(CTL.storageFaultReset) && (
              <Button disabled={cmds.sending} onClick={() => confirm(CTL.storageFaultReset, {}, t('ess.cmd.resetConfirm', { sn: device.sn }))} data-testid="storage-fault-reset">
                {t('ess.cmd.faultReset')}
              </Button>
            )}
          </Space>
          <CommandResults states={cmds.states} sending={cmds.sending} />
        </Space>
      )}
    </Card>
  );
}
