/**
 * OCPP 2.0.1 chargers on the device page (docs/ocpp201.md): the protocol a device is admitted
 * with (Security tab) and its EVSEs with their connectors (runtime card). Registered by those
 * sections (registerTexts), not with the entry.
 */
import type { DomainTexts } from './index';

export const ocpp201Texts: DomainTexts = {
  'en-US': {
    'ocpp201.protocol': 'OCPP protocol',
    'ocpp201.protocol.auto': 'Auto (the newest both speak)',
    'ocpp201.protocol.16': 'OCPP 1.6',
    'ocpp201.protocol.201': 'OCPP 2.0.1',
    'ocpp201.protocol.help':
      "The OCPP version the charger is admitted with. Auto admits the newest the charger and ChargeOps both speak (OCPP 2.0.1 when the charger offers both); a fixed version refuses a charger that does not offer it. It applies from the charger's next connection; a live connection is not dropped.",
    'ocpp201.protocol.save': 'Change protocol',
    'ocpp201.protocol.confirm': 'Admit {{sn}} with {{protocol}}?',
    'ocpp201.protocol.saved': 'Protocol setting saved: it applies from the next connection',
    'ocpp201.evse': 'EVSE',
    'ocpp201.evses': 'EVSEs',
    'ocpp201.evseStatus': 'EVSE status',
    'ocpp201.plugs': 'Connectors',
  },
  'zh-CN': {
    'ocpp201.protocol': 'OCPP 协议',
    'ocpp201.protocol.auto': '自动（双方都支持的最新版本）',
    'ocpp201.protocol.16': 'OCPP 1.6',
    'ocpp201.protocol.201': 'OCPP 2.0.1',
    'ocpp201.protocol.help':
      '充电桩接入时使用的 OCPP 版本。自动：使用充电桩与 ChargeOps 都支持的最新版本（充电桩两者都支持时为 OCPP 2.0.1）；指定版本：不支持该版本的充电桩将被拒绝接入。下次连接时生效，当前连接不会断开。',
    'ocpp201.protocol.save': '修改协议',
    'ocpp201.protocol.confirm': '将 {{sn}} 的接入协议设为 {{protocol}}？',
    'ocpp201.protocol.saved': '协议设置已保存，下次连接时生效',
    'ocpp201.evse': '充电单元(EVSE)',
    'ocpp201.evses': '充电单元(EVSE)',
    'ocpp201.evseStatus': '充电单元状态',
    'ocpp201.plugs': '充电枪',
  },
};
