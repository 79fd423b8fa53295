import { describe, expect, it } from 'vitest';
import i18n from '../i18n';
import { localised, locationName, measurandLabel, ocppName, ocppUnit } from './names';

const t = (k: string) => i18n.t(k, { lng: 'zh-CN' });
const tEn = (k: string) => i18n.t(k, { lng: 'en-US' });
const exists = (k: string) => i18n.exists(k);

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
