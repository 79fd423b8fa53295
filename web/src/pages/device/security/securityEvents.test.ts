import { describe, expect, it } from 'vitest';
import { alarmState, canAcknowledge, SECURITY_EVENT_TYPES, securityEventBody, typeLabel, typeLabelKey } from './securityEvents';
import { securityEventTexts } from '../../../locales/domains/securityEvents';

describe('security events', () => {
  it("holds the whitepaper's 18 types, 7 of them critical", () => {
    expect(SECURITY_EVENT_TYPES).toHaveLength(18);
    expect(SECURITY_EVENT_TYPES.filter((x) => x.critical).map((x) => x.type)).toEqual([
      'FirmwareUpdated',
      'SettingSystemTime',
      'StartupOfTheDevice',
      'ResetOrReboot',
      'SecurityLogWasCleared',
      'MemoryExhaustion',
      'TamperDetectionActivated',
    ]);
  });

  it('names every known type in both languages; a vendor type is shown as sent', () => {
    for (const { type } of SECURITY_EVENT_TYPES) {
      const key = typeLabelKey(type);
      expect(key && securityEventTexts['en-US'][key], type).toBeTruthy();
      expect(key && securityEventTexts['zh-CN'][key], type).toBeTruthy();
    }
    const t = (k: string) => securityEventTexts['en-US'][k] ?? k;
    expect(typeLabel('TamperDetectionActivated', t)).toBe('Tamper detection activated');
    expect(typeLabelKey('AcmeDoorAjar')).toBeNull();
    expect(typeLabel('AcmeDoorAjar', t)).toBe('AcmeDoorAjar');
  });

  it('builds the list body from the filters: critical only, a trimmed type, the time range', () => {
    expect(securityEventBody(7, { type: ' InvalidMessages ', critical: 1, startTime: 10, endTime: 20, page: 2, pageSize: 50 })).toEqual({
      deviceId: 7,
      type: 'InvalidMessages',
      critical: true,
      startTime: 10,
      endTime: 20,
      page: 2,
      pageSize: 50,
    });
    expect(securityEventBody(7, { type: '', critical: undefined, page: 2 }, false)).toEqual({ deviceId: 7 });
  });

  it('acknowledges only an open alarm, and only with auth_device_edit', () => {
    expect(alarmState({ alarmId: 3, alarmOpen: true })).toBe('open');
    expect(alarmState({ alarmId: 3, alarmOpen: false })).toBe('ended');
    expect(alarmState({ alarmId: 0, alarmOpen: false })).toBe('none');
    // a reboot after the console's Reset: no alarm, the command named
    expect(alarmState({ alarmId: 0, alarmOpen: false, commandId: 42 })).toBe('explained');
    expect(canAcknowledge({ alarmId: 0, alarmOpen: false, commandId: 42 } as never, true)).toBe(false);
    expect(canAcknowledge({ alarmId: 3, alarmOpen: true }, true)).toBe(true);
    expect(canAcknowledge({ alarmId: 3, alarmOpen: true }, false)).toBe(false);
    expect(canAcknowledge({ alarmId: 3, alarmOpen: false }, true)).toBe(false);
  });
});
