/**
 * The device page's Storage tab (issue 26, internal/ess): what a storage unit (a BMS and a PCS
 * behind a site agent) reports, live: SoC, SoH, state, mode, battery power and direction, capacity
 * and rated power (SummaryCard); the energy flow between grid, site, battery and load (FlowCard);
 * cells, DC side and energy counters (CellsCard); its commands (CommandsCard, control types
 * 29-32); its open BMS/PCS alarms (AlarmsCard); SoC and power over time (StorageCharts). The
 * latest values (the runtime detail, connector 0) are read every 5 s while the tab is open and
 * the window visible. Shown for devices of category 4 and 5; loaded lazily by the device page.
 */
import { useMemo } from 'react';
import { Col, Row } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { registerTexts } from '../../../locales/domains';
import { essTexts } from '../../../locales/domains/ess';
import { fleetKeys, getRuntime } from '../../../services/fleet';
import type { Device } from '../../../services/typings';
import AlarmsCard from './AlarmsCard';
import CellsCard from './CellsCard';
import CommandsCard from './CommandsCard';
import FlowCard from './FlowCard';
import StorageCharts from './StorageCharts';
import SummaryCard from './SummaryCard';
import { readStorage } from './storage';

registerTexts(essTexts);

/** How often the latest values are read while the tab is open. */
const LIVE_MS = 5000;

export default function StorageTab({ device }: { device: Device }) {
  const runtime = useQuery({ queryKey: fleetKeys.runtime(device.id), queryFn: () => getRuntime(device.id), refetchInterval: LIVE_MS });
  const s = useMemo(() => readStorage(runtime.data?.values), [runtime.data]);
  return (
    <div data-testid="device-storage">
      <SummaryCard s={s} loading={runtime.isPending} />
      <Row gutter={16}>
        <Col xs={24} xl={12}>
          <FlowCard s={s} />
        </Col>
        <Col xs={24} xl={12}>
          <CellsCard s={s} />
        </Col>
      </Row>
      <CommandsCard device={device} s={s} />
      <AlarmsCard deviceId={device.id} />
      <StorageCharts deviceId={device.id} />
    </div>
  );
}
