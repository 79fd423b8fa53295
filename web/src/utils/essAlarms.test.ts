import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ESS_ALARMS, essAlarm, essAlarmName } from './essAlarms';
import { eventLabel, eventName } from './eventNames';

const t = (k: string) => `t:${k}`;
const none = () => false;

describe('storage alarm names', () => {
  it('mirror internal/ess/alarms.go: code, names, level and fault', () => {
    const src = readFileSync(join(__dirname, '../../../internal/ess/alarms.go'), 'utf8');
    const levels: Record<string, number> = { LevelOA: 0, LevelMA: 1, LevelCA: 2 };
    const rows = [...src.matchAll(/\{"((?:BMS|PCS)\.\w+)", "([^"]+)", "([^"]+)", (Level\w+), (true|false)\}/g)].map((m) => ({
      code: m[1],
      name: m[2],
      nameZh: m[3],
      level: levels[m[4]],
      fault: m[5] === 'true',
    }));
    expect(rows.length).toBeGreaterThan(10);
    expect(ESS_ALARMS).toEqual(rows);
  });

  it('names a code in the UI language, nothing for other codes', () => {
    expect(essAlarmName('BMS.CellOverTemperature', 'zh-CN')).toBe('电芯过温');
    expect(essAlarmName('BMS.CellOverTemperature', 'en-US')).toBe('Cell over-temperature');
    expect(essAlarmName('PCS.FanFault', undefined)).toBe('Fan fault');
    expect(essAlarmName('BMS.Vendor42', 'zh-CN')).toBeUndefined();
    expect(essAlarmName('GroundFailure', 'zh-CN')).toBeUndefined();
    expect(essAlarm('PCS.GroundFault')).toMatchObject({ level: 2, fault: true });
  });

  it('is how every event list names a storage alarm, the code kept beside', () => {
    expect(eventName('BMS.CellOverTemperature', 'Cell over-temperature', t, none, 'zh-CN')).toBe('电芯过温');
    expect(eventName('BMS.CellOverTemperature', 'Cell over-temperature', t, none, 'en-US')).toBe('Cell over-temperature');
    // a code newer than the console: the server's name (the code itself)
    expect(eventName('BMS.NewThing', 'BMS.NewThing', t, none, 'zh-CN')).toBe('BMS.NewThing');
    expect(eventLabel('PCS.FanFault', 'Fan fault', '', t, none, 'zh-CN')).toEqual({ name: '风扇故障', code: 'PCS.FanFault' });
    // OCPP codes still come first
    expect(eventName('GroundFailure', 'x', t, (k) => k === 'ocpp.error.GroundFailure', 'zh-CN')).toBe('t:ocpp.error.GroundFailure');
  });
});
