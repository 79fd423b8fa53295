import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import i18n, { loadLocale } from '../i18n';
import { displayItemName, displayRange, localised, locationName, measurandLabel, ocppName, ocppUnit } from './names';

const t = (k: string) => i18n.t(k, { lng: 'zh-CN' });
const tEn = (k: string) => i18n.t(k, { lng: 'en-US' });
const exists = (k: string) => i18n.exists(k);

// The Chinese texts are a chunk of their own, loaded when the console is shown in Chinese.
beforeAll(() => loadLocale('zh-CN'));

describe('ocppName', () => {
  it('names OCPP error codes and statuses in the user language', () => {
    expect(ocppName('error', 'GroundFailure', t, exists)).toBe('接地故障');
    expect(ocppName('error', 'GroundFailure', tEn, exists)).toBe('Ground failure');
    expect(ocppName('connector', 'SuspendedEVSE', t, exists)).toBe('充电桩暂停');
    expect(ocppName('firmware', 'InstallationFailed', t, exists)).toBe('安装失败');
    expect(ocppName('diagnostics', 'Uploaded', t, exists)).toBe('已上传');
  });
  it('shows an unknown code as it is and nothing as "-"', () => {
    expect(ocppName('error', 'VendorSpecific42', t, exists)).toBe('VendorSpecific42');
    expect(ocppName('connector', '', t, exists)).toBe('-');
    expect(ocppName('firmware', undefined, t, exists)).toBe('-');
  });
});

describe('measurandLabel', () => {
  const temp = { name: 'Temperature', labelEn: 'Temperature', labelZh: '温度', unit: '°C' };
  it('uses the label of the locale with the unit', () => {
    expect(measurandLabel(temp, 'zh-CN')).toBe('温度 (°C)');
    expect(measurandLabel(temp, 'en-US')).toBe('Temperature (°C)');
    expect(measurandLabel(temp, 'zh-CN', false)).toBe('温度');
  });
  it('falls back to the other label, then to the reported name', () => {
    expect(measurandLabel({ name: 'X.Y', labelEn: 'Ex', labelZh: '' }, 'zh-CN')).toBe('Ex');
    expect(measurandLabel({ name: 'X.Y', labelZh: '叉' }, 'en-US')).toBe('叉');
    expect(measurandLabel({ name: 'Cabinet.Humidity', unit: '%' }, 'zh-CN')).toBe('Cabinet.Humidity (%)');
  });
});

describe('localised and locationName', () => {
  it('picks the Chinese text in zh-CN when there is one', () => {
    expect(localised('Charging', '充电', 'zh-CN')).toBe('充电');
    expect(localised('Charging', '', 'zh-CN')).toBe('Charging');
    expect(localised('Charging', '充电', 'en-US')).toBe('Charging');
  });
  it('names localhost and LAN, keeps regions', () => {
    expect(locationName('localhost', t, exists)).toBe('本机');
    expect(locationName('LAN', tEn, exists)).toBe('Local network');
    expect(locationName('Hong Kong', t, exists)).toBe('Hong Kong');
    expect(locationName('', t, exists)).toBe('-');
  });
});

describe('ocppUnit', () => {
  it('shows OCPP units as symbols', () => {
    expect(ocppUnit('Celsius')).toBe('°C');
    expect(ocppUnit('Percent')).toBe('%');
    expect(ocppUnit('kWh')).toBe('kWh');
    expect(ocppUnit(undefined)).toBe('');
  });
});

describe('displayItemName', () => {
  it('shows a standard OCPP name in the user language', () => {
    expect(displayItemName('Heartbeat interval (s)', t)).toBe('心跳间隔（秒）');
    expect(displayItemName('Heartbeat interval (s)', tEn)).toBe('Heartbeat interval (s)');
    expect(displayItemName('Core', t)).toBe('基本参数');
    expect(displayItemName(' Key ', t)).toBe('参数键');
    expect(displayItemName('Soft reboot', t)).toBe('软重启');
  });
  it('shows the Chinese seeded name in English in en-US', () => {
    expect(displayItemName('心跳间隔（秒）', tEn)).toBe('Heartbeat interval (s)');
    expect(displayItemName('基本参数', tEn)).toBe('Core');
    expect(displayItemName('充电枪', tEn)).toBe('Connector');
    expect(displayItemName('软重启', tEn)).toBe('Soft reboot');
    expect(displayItemName('心跳间隔（秒）', t)).toBe('心跳间隔（秒）');
  });
  it('shows the storage control types 29-32 (issue 26) in the user language, like the other control names', () => {
    expect(displayItemName('Storage power setpoint', t)).toBe('储能功率设定');
    expect(displayItemName('储能故障复位', tEn)).toBe('Storage fault reset');
    for (const n of [29, 30, 31, 32]) {
      expect(tEn(`control.type.${n}`)).not.toBe(`control.type.${n}`);
      expect(displayItemName(tEn(`control.type.${n}`), t)).toBe(t(`control.type.${n}`));
    }
  });

  it('keeps a name the admin typed as it is, in both languages', () => {
    for (const text of ['Heartbeat interval', 'Timing', '心跳周期', 'heartbeat interval (s)', 'Core settings']) {
      expect(displayItemName(text, t)).toBe(text);
      expect(displayItemName(text, tEn)).toBe(text);
    }
    expect(displayItemName('', t)).toBe('');
    expect(displayItemName(null, tEn)).toBe('');
  });
});

describe('displayRange', () => {
  const yesNo = 'Yes|true|boolean\nNo|false|boolean';
  it("shows an enumeration's standard labels in the user language", () => {
    expect(displayRange('enum', yesNo, t)).toBe('是|true|boolean\n否|false|boolean');
    expect(displayRange('enum', '是|true|boolean\n否|false|boolean', tEn)).toBe(yesNo);
    expect(displayRange('enum', yesNo, tEn)).toBe(yesNo);
  });
  it("shows a storage unit's mode labels in the user language (issue 26)", () => {
    const modes = 'Self-consumption|0\nPeak shaving|1\nBackup|2\nManual|3';
    expect(displayRange('enum', modes, t)).toBe('自发自用|0\n削峰|1\n备电|2\n手动|3');
    expect(displayRange('enum', '自发自用|0\n削峰|1\n备电|2\n手动|3', tEn)).toBe(modes);
    expect(displayItemName('Peak limit (W)', t)).toBe('削峰限值 (W)');
  });

  it('keeps other labels and ranges as they are', () => {
    expect(displayRange('enum', 'Fast|1|number\nYes|2|number', t)).toBe('Fast|1|number\n是|2|number');
    expect(displayRange('int', '10~3600', t)).toBe('10~3600');
    expect(displayRange('string', 'Yes|true', t)).toBe('Yes|true');
    expect(displayRange('enum', '', t)).toBe('');
  });
});

describe('the demo names (internal/demo/names.go zhNames)', () => {
  const src = readFileSync(join(__dirname, '../../../internal/demo/names.go'), 'utf8');
  const body = src.slice(src.indexOf('var zhNames'), src.indexOf('\n}', src.indexOf('var zhNames')));
  const pairs = [...body.matchAll(/^\s*"((?:[^"\\]|\\.)*)":\s*"((?:[^"\\]|\\.)*)",/gm)].map((m) => [m[1], m[2]].map((s) => s.replace(/\\n/g, '\n')));
  it('are all standard: each shows in the user language, whichever language it was seeded in', () => {
    expect(pairs.length).toBeGreaterThan(20);
    for (const [en, zh] of pairs) {
      const show = en.includes('|') ? (s: string, tr: typeof t) => displayRange('enum', s, tr) : displayItemName;
      expect(show(en, t), en).toBe(zh);
      expect(show(zh, tEn), zh).toBe(en);
      expect(show(en, tEn), en).toBe(en);
      expect(show(zh, t), zh).toBe(zh);
    }
  });
});
