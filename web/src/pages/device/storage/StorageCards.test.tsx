import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import { App } from 'antd';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import type { ReactNode } from 'react';
import i18n, { loadLocale } from '../../../i18n';
import { SESSION_KEY } from '../../../models/session';
import { registerTexts } from '../../../locales/domains';
import { essTexts } from '../../../locales/domains/ess';
import AlarmsCard from './AlarmsCard';
import CommandsCard from './CommandsCard';
import FlowCard from './FlowCard';
import { readStorage } from './storage';

const listEvents = vi.fn();
const listItems = vi.fn();
vi.mock('../../../services/fleet', async (actual) => ({ ...(await actual<object>()), listEvents: (q: unknown) => listEvents(q) }));
vi.mock('../../../services/deviceModel', async (actual) => ({ ...(await actual<object>()), listItems: (...a: unknown[]) => listItems(...a) }));

registerTexts(essTexts);

function show(node: ReactNode, session: { root: boolean; auth: string[]; paramLevel?: number } | null) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(SESSION_KEY, session && ({ user: { id: 1, root: session.root }, role: { auth: session.auth, paramLevel: session.paramLevel ?? 5 } } as never));
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <App>{node}</App>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const device = { id: 7, sn: 'ESS-7', modelId: 3 };
const snapshot = readStorage([{ connectorId: 0, name: 'PCS.RatedPower', value: '5000', unit: 'W' }]);

afterEach(async () => {
  await i18n.changeLanguage('en-US');
  vi.clearAllMocks();
});

describe('the Storage tab cards', () => {
  it("lists the unit's open alarms and faults with their Chinese names in zh-CN", async () => {
    await loadLocale('zh-CN');
    await i18n.changeLanguage('zh-CN');
    listEvents.mockResolvedValue({
      total: 2,
      list: [
        { id: 1, kind: 2, level: 2, code: 'BMS.CellOverTemperature', name: 'Cell over-temperature', vendorCode: '', info: '', status: 0, startedAt: 1, endedAt: 0, connectorId: 0 },
        { id: 2, kind: 1, level: 0, code: 'PCS.FanFault', name: 'Fan fault', vendorCode: '', info: '', status: 0, startedAt: 2, endedAt: 0, connectorId: 0 },
      ],
    });
    show(<AlarmsCard deviceId={7} />, null);
    await waitFor(() => expect(screen.getAllByTestId('storage-alarm')).toHaveLength(2));
    expect(listEvents).toHaveBeenCalledWith(expect.objectContaining({ deviceId: 7, kinds: [1, 2], status: 0 }));
    const names = screen.getAllByTestId('event-name').map((e) => e.textContent);
    expect(names[0]).toContain('电芯过温');
    expect(names[0]).toContain('BMS.CellOverTemperature');
    expect(names[1]).toContain('风扇故障');
    expect(screen.getByTestId('storage-alarm-count').getAttribute('data-value')).toBe('2');
  });

  it('offers no command without the storage permission', async () => {
    show(<CommandsCard device={device} s={snapshot} />, { root: false, auth: ['auth_device_edit'] });
    await waitFor(() => expect(screen.getByTestId('storage-commands-not-allowed')).toBeTruthy());
    expect(screen.queryByTestId('storage-start')).toBeNull();
    expect(listItems).not.toHaveBeenCalled();
  });

  it("offers the commands the model's items allow at the user's level", async () => {
    const item = (type: number, level: number) => ({ id: type, kind: 'control', controlName: '', controlTypeCode: type, controlLevel: level, displayPriority: 0 });
    listItems.mockResolvedValue([item(29, 2), item(30, 2), item(31, 2), item(32, 3)]);
    show(<CommandsCard device={device} s={snapshot} />, { root: false, auth: ['auth_device_edit', 'auth_device_storage'], paramLevel: 3 });
    await waitFor(() => expect(screen.getByTestId('storage-fault-reset')).toBeTruthy());
    expect(screen.queryByTestId('storage-setpoint-input')).toBeNull();
    expect(screen.queryByTestId('storage-start')).toBeNull();
    expect(screen.queryByTestId('storage-mode-select')).toBeNull();
  });

  it('offers every command to a user whose level allows them', async () => {
    listItems.mockResolvedValue([]);
    show(<CommandsCard device={device} s={snapshot} />, { root: false, auth: ['auth_device_edit', 'auth_device_storage'], paramLevel: 2 });
    await waitFor(() => expect(screen.getByTestId('storage-setpoint-input')).toBeTruthy());
    for (const id of ['storage-setpoint-send', 'storage-mode-select', 'storage-mode-send', 'storage-start', 'storage-stop', 'storage-fault-reset']) expect(screen.getByTestId(id)).toBeTruthy();
  });

  it('draws the flow arrows the way power flows', () => {
    const s = readStorage([
      { connectorId: 0, name: 'Grid.Power', value: '-1500', unit: 'W' },
      { connectorId: 0, name: 'Battery.Power', value: '4000', unit: 'W' },
      { connectorId: 0, name: 'Load.Power', value: '2500', unit: 'W' },
    ]);
    show(<FlowCard s={s} />, null);
    const edge = (n: string) => screen.getByTestId(`storage-flow-${n}`);
    expect([edge('grid').getAttribute('data-dir'), edge('grid').getAttribute('data-kw')]).toEqual(['out', '1.5']);
    expect([edge('battery').getAttribute('data-dir'), edge('battery').getAttribute('data-kw')]).toEqual(['in', '4']);
    expect([edge('load').getAttribute('data-dir'), edge('load').getAttribute('data-kw')]).toEqual(['out', '2.5']);
    expect(edge('battery').textContent).toBe('4.0 kW');
  });
});
