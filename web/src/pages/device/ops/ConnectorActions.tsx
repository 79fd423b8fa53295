/**
 * Charging operations of a device (control types 12-15, 17, 18): each connector with its status
 * (Reserved shown with its reservation), the session charging on it and its actions: start,
 * stop, unlock, reserve, cancel the reservation; a start on the charger's choice of connector
 * and clearing the authorization cache. Each action shows only with its permission key
 * (api/permissions.json) and when the model's control items allow it; each is followed to its
 * result 1-5 like the other operations.
 */
import { useState } from 'react';
import { App, Button, Card, Space, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../../components/access';
import { CommandResults, useOcppName } from '../../../components/fleet';
import { useCommands } from '../../../hooks/useCommands';
import { registerTexts } from '../../../locales/domains';
import { opsTexts } from '../../../locales/domains/ops';
import { CTL, type ControlParams, fleetKeys } from '../../../services/fleet';
import { getConnectorOps, OPS_KEYS, opsKeys, type ConnectorOps } from '../../../services/ops';
import { formatTime } from '../../../utils/time';
import { ReserveModal, StartModal } from './dialogs';
import QueryTable from '../../../components/QueryTable';

registerTexts(opsTexts);

/** How often the connectors are read while the page is open (a remote start takes a few seconds to show). */
const CONNECTORS_POLL_MS = 5000;

export interface OpsProps {
  device: { id: number; sn: string };
  /** Control types the model and the caller's level allow. */
  offered: Pick<ReadonlySet<number>, 'has'>;
}

/** The operator actions a caller may use: the control item and the action's own key. */
export function useOpsAllowed(offered: Pick<ReadonlySet<number>, 'has'>) {
  const can = useCan();
  return {
    start: offered.has(CTL.remoteStart) && can(OPS_KEYS.remoteStart),
    stop: offered.has(CTL.remoteStop) && can(OPS_KEYS.remoteStart),
    unlock: offered.has(CTL.unlockConnector) && can(OPS_KEYS.unlock),
    clearCache: offered.has(CTL.clearCache),
    dataTransfer: offered.has(CTL.dataTransfer),
    reserve: offered.has(CTL.reserveNow) && can(OPS_KEYS.reserve),
    cancel: offered.has(CTL.cancelReservation) && can(OPS_KEYS.reserve),
  };
}

export default function ConnectorActions({ device, offered }: OpsProps) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const qc = useQueryClient();
  const ocpp = useOcppName();
  const cmds = useCommands();
  const allowed = useOpsAllowed(offered);
  const [starting, setStarting] = useState<number | null>(null);
  const [reserving, setReserving] = useState<number | null>(null);
  const any = allowed.start || allowed.stop || allowed.unlock || allowed.clearCache || allowed.reserve || allowed.cancel;
  const connectors = useQuery({
    queryKey: opsKeys.connectors(device.id),
    queryFn: () => getConnectorOps(device.id),
    refetchInterval: CONNECTORS_POLL_MS,
    enabled: any,
  });

  const refresh = () => {
    void qc.invalidateQueries({ queryKey: opsKeys.connectors(device.id) });
    void qc.invalidateQueries({ queryKey: opsKeys.reservations(device.id) });
    void qc.invalidateQueries({ queryKey: fleetKeys.runtime(device.id) });
  };
  const send = (type: number, params: ControlParams) => void cmds.send([device], type, params).then(refresh);
  const confirm = (title: string, type: number, params: ControlParams, danger = false) =>
    modal.confirm({
      title,
      okText: t('com_ok'),
      cancelText: t('com_cancel'),
      okButtonProps: { danger, 'data-testid': 'confirm-ok' } as { danger?: boolean },
      onOk: () => send(type, params),
    });

  const columns: ColumnsType<ConnectorOps> = [
    { title: t('ops.connector'), dataIndex: 'connectorId', key: 'connectorId', width: 90 },
    {
      title: t('ops.status'),
      dataIndex: 'status',
      key: 'status',
      render: (v: string) => (
        <Tag color={v === 'Reserved' ? 'purple' : undefined} title={v} data-testid="ops-connector-status">
          {ocpp('connector', v)}
        </Tag>
      ),
    },
    {
      title: t('ops.session'),
      key: 'session',
      render: (_: unknown, c) => (c.transactionId ? t('ops.sessionOf', { idTag: c.sessionIdTag, time: formatTime(c.startedAt) }) : t('ops.none')),
    },
    {
      title: t('ops.reservation'),
      key: 'reservation',
      render: (_: unknown, c) =>
        c.reservationId ? (
          <span data-testid="ops-reservation">{t('ops.reservedFor', { idTag: c.reservationIdTag, time: formatTime(c.reservationExpiresAt) })}</span>
        ) : (
          t('ops.none')
        ),
    },
    {
      title: t('com_actions'),
      key: 'actions',
      render: (_: unknown, c) => {
        const id = c.connectorId;
        return (
          <Space wrap size="small">
            {allowed.start && !c.transactionId && (
              <a onClick={() => setStarting(id)} data-testid={`ops-start-${id}`}>
                {t('ops.start')}
              </a>
            )}
            {allowed.stop && c.transactionId > 0 && (
              <a
                onClick={() => confirm(t('ops.confirmStop', { idTag: c.sessionIdTag, id, sn: device.sn }), CTL.remoteStop, { transactionId: c.transactionId }, true)}
                data-testid={`ops-stop-${id}`}
              >
                {t('ops.stop')}
              </a>
            )}
            {allowed.unlock && (
              <a onClick={() => confirm(t('ops.confirmUnlock', { id, sn: device.sn }), CTL.unlockConnector, { connectorId: id })} data-testid={`ops-unlock-${id}`}>
                {t('ops.unlock')}
              </a>
            )}
            {allowed.reserve && !c.reservationId && !c.transactionId && (
              <a onClick={() => setReserving(id)} data-testid={`ops-reserve-${id}`}>
                {t('ops.reserve')}
              </a>
            )}
            {allowed.cancel && c.reservationId > 0 && (
              <a
                onClick={() => confirm(t('ops.confirmCancel', { idTag: c.reservationIdTag, id, sn: device.sn }), CTL.cancelReservation, { reservationId: c.reservationId })}
                data-testid={`ops-cancel-${id}`}
              >
                {t('ops.cancel')}
              </a>
            )}
          </Space>
        );
      },
    },
  ];

  if (!any) return null;
  return (
    <Card
      title={t('ops.title')}
      size="small"
      data-testid="ops-connectors"
      extra={
        <Space>
          {allowed.start && (
            <Button onClick={() => setStarting(0)} data-testid="ops-start-any">
              {t('ops.startAny')}
            </Button>
          )}
          {allowed.clearCache && (
            <Button onClick={() => confirm(t('ops.confirmClearCache', { sn: device.sn }), CTL.clearCache, {})} data-testid="ops-clear-cache">
              {t('ops.clearCache')}
            </Button>
          )}
        </Space>
      }
    >
      <QueryTable<ConnectorOps>
        query={connectors}
        rowKey="connectorId"
        size="small"
        pagination={false}
        columns={columns}
        dataSource={connectors.data ?? []}
        empty={<Typography.Text type="secondary">{t('ops.noConnectors')}</Typography.Text>}
      />
      <div style={{ marginTop: 12 }}>
        <CommandResults states={cmds.states} sending={cmds.sending} />
      </div>
      <StartModal
        sn={device.sn}
        connectorId={starting}
        onClose={() => setStarting(null)}
        onSubmit={(v) => {
          const connectorId = starting ?? 0;
          setStarting(null);
          send(CTL.remoteStart, connectorId ? { connectorId, idTag: v.idTag } : { idTag: v.idTag });
        }}
      />
      <ReserveModal
        sn={device.sn}
        connectorId={reserving}
        onClose={() => setReserving(null)}
        onSubmit={(v) => {
          const connectorId = reserving ?? 0;
          setReserving(null);
          send(CTL.reserveNow, { connectorId, idTag: v.idTag, parentIdTag: v.parentIdTag || undefined, expiryDate: v.expiry.valueOf() });
        }}
      />
    </Card>
  );
}
