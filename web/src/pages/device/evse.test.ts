import { describe, expect, it } from 'vitest';
import enNames from '../../locales/en-US/names';
import zhNames from '../../locales/zh-CN/names';
import { formatPlugs, isEvseMode, protocolSettingKey, statusColor } from './evse';

const nameOf = (texts: Record<string, string>) => (s: string) => texts[`ocpp.connector.${s}`] ?? s;

describe('EVSE mode', () => {
  it('is on for an OCPP 2.0.1 connection, even before any plug reported', () => {
    expect(isEvseMode('ocpp2.0.1', [])).toBe(true);
    expect(isEvseMode('ocpp2.0.1', [{ plugs: [] }])).toBe(true);
  });

  it('is on when a connector has plugs (an offline 2.0.1 charger)', () => {
    expect(isEvseMode('', [{ plugs: [] }, { plugs: [{ connectorId: 1, status: 'Available' }] }])).toBe(true);
  });

  it('is off for OCPP 1.6 and for a device that never connected', () => {
    expect(isEvseMode('ocpp1.6', [{ plugs: [] }, { plugs: [] }])).toBe(false);
    expect(isEvseMode('', [])).toBe(false);
    expect(isEvseMode(undefined, undefined)).toBe(false);
    expect(isEvseMode('ocpp1.6', [{}, { plugs: null }])).toBe(false);
  });
});

describe('plugs', () => {
  const plugs = [
    { connectorId: 2, status: 'Unavailable' },
    { connectorId: 1, status: 'Available' },
  ];

  it('lists them in connector order with their status named in the language', () => {
    expect(formatPlugs(plugs, nameOf(enNames)).map((p) => p.text)).toEqual(['1: Available', '2: Unavailable']);
    expect(formatPlugs(plugs, nameOf(zhNames)).map((p) => p.text)).toEqual(['1: 空闲', '2: 不可用']);
    expect(formatPlugs(plugs, nameOf(enNames)).map((p) => p.key)).toEqual([1, 2]);
    expect(plugs[0].connectorId).toBe(2); // the input is not reordered
  });

  it('names every OCPP 2.0.1 connector status in both languages', () => {
    for (const s of ['Available', 'Occupied', 'Reserved', 'Unavailable', 'Faulted']) {
      const k = `ocpp.connector.${s}` as keyof typeof enNames;
      expect(enNames[k], s).toBeTruthy();
      expect(zhNames[k as keyof typeof zhNames], s).toMatch(/\p{Script=Han}/u);
    }
  });

  it('keeps a status it does not know as sent, and has none for no plugs', () => {
    expect(formatPlugs([{ connectorId: 1, status: 'Blocked' }], nameOf(enNames))[0].text).toBe('1: Blocked');
    expect(formatPlugs(undefined, nameOf(enNames))).toEqual([]);
    expect(formatPlugs([], nameOf(enNames))).toEqual([]);
  });

  it('colours faults red and free plugs green', () => {
    expect(statusColor('Faulted')).toBe('red');
    expect(statusColor('Available')).toBe('green');
    expect(statusColor('Occupied')).toBe('blue');
  });
});

describe('protocol setting', () => {
  it('names auto, 1.6 and 2.0.1; anything else reads as auto', () => {
    expect(protocolSettingKey('')).toBe('ocpp201.protocol.auto');
    expect(protocolSettingKey('ocpp1.6')).toBe('ocpp201.protocol.16');
    expect(protocolSettingKey('ocpp2.0.1')).toBe('ocpp201.protocol.201');
    expect(protocolSettingKey(undefined)).toBe('ocpp201.protocol.auto');
  });
});
