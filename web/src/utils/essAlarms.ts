/**
 * The BMS and PCS alarm codes of a storage unit (issue 26), mirroring internal/ess/alarms.go:
 * code, English name (as the server names the event), Chinese name, level (0 OA, 1 MA, 2 CA) and
 * whether it is a fault (the unit stopped). The server stores an alarm with its English name; the
 * console shows the Chinese one when the UI is in Chinese. Kept with the event names (on every
 * screen that lists events), tested in essAlarms.test.ts against the Go table.
 */

export interface EssAlarm {
  code: string;
  name: string;
  nameZh: string;
  level: number;
  fault: boolean;
}

const OA = 0;
const MA = 1;
const CA = 2;

export const ESS_ALARMS: readonly EssAlarm[] = [
  { code: 'BMS.CellOverVoltage', name: 'Cell over-voltage', nameZh: '电芯过压', level: CA, fault: true },
  { code: 'BMS.CellUnderVoltage', name: 'Cell under-voltage', nameZh: '电芯欠压', level: MA, fault: false },
  { code: 'BMS.CellOverTemperature', name: 'Cell over-temperature', nameZh: '电芯过温', level: CA, fault: true },
  { code: 'BMS.CellUnderTemperature', name: 'Cell under-temperature', nameZh: '电芯低温', level: MA, fault: false },
  { code: 'BMS.CellImbalance', name: 'Cell imbalance', nameZh: '电芯不均衡', level: OA, fault: false },
  { code: 'BMS.ChargeOverCurrent', name: 'Charge over-current', nameZh: '充电过流', level: MA, fault: false },
  { code: 'BMS.DischargeOverCurrent', name: 'Discharge over-current', nameZh: '放电过流', level: MA, fault: false },
  { code: 'BMS.InsulationFault', name: 'Insulation fault', nameZh: '绝缘故障', level: CA, fault: true },
  { code: 'BMS.ContactorFault', name: 'Contactor fault', nameZh: '接触器故障', level: CA, fault: true },
  { code: 'BMS.CommunicationLost', name: 'BMS communication lost', nameZh: 'BMS 通信中断', level: MA, fault: false },
  { code: 'PCS.GridOverVoltage', name: 'Grid over-voltage', nameZh: '电网过压', level: MA, fault: false },
  { code: 'PCS.GridUnderVoltage', name: 'Grid under-voltage', nameZh: '电网欠压', level: MA, fault: false },
  { code: 'PCS.GridOverFrequency', name: 'Grid over-frequency', nameZh: '电网过频', level: MA, fault: false },
  { code: 'PCS.GridUnderFrequency', name: 'Grid under-frequency', nameZh: '电网欠频', level: MA, fault: false },
  { code: 'PCS.DCOverVoltage', name: 'DC over-voltage', nameZh: '直流过压', level: CA, fault: true },
  { code: 'PCS.OverTemperature', name: 'Converter over-temperature', nameZh: '变流器过温', level: MA, fault: false },
  { code: 'PCS.GroundFault', name: 'Ground fault', nameZh: '接地故障', level: CA, fault: true },
  { code: 'PCS.IslandingDetected', name: 'Islanding detected', nameZh: '检测到孤岛', level: MA, fault: false },
  { code: 'PCS.FanFault', name: 'Fan fault', nameZh: '风扇故障', level: OA, fault: false },
  { code: 'PCS.HardwareFault', name: 'Converter hardware fault', nameZh: '变流器硬件故障', level: CA, fault: true },
];

const BY_CODE = new Map(ESS_ALARMS.map((a) => [a.code, a]));

/** The alarm of a code in the table; undefined for any other code (a vendor's own, an OCPP one). */
export const essAlarm = (code: string | null | undefined): EssAlarm | undefined => (code ? BY_CODE.get(code) : undefined);

/** A storage alarm's name in the UI language (Chinese in zh-*, else English); undefined when the code is not in the table. */
export function essAlarmName(code: string | null | undefined, locale: string | undefined): string | undefined {
  const a = essAlarm(code);
  if (!a) return undefined;
  return locale?.startsWith('zh') ? a.nameZh : a.name;
}
