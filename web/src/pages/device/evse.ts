/**
 * OCPP 2.0.1 EVSEs on the device page (docs/ocpp201.md): the core's connector of a 2.0.1
 * charger is the EVSE, and each EVSE's own connectors (plugs) have their status beside it. An
 * OCPP 1.6 device's connectors have no plugs, and its table is left as it was.
 */

/** The runtime protocol of an OCPP 2.0.1 connection. */
export const OCPP201 = 'ocpp2.0.1';

/** The device protocol settings (device.ocpp_protocol), '' = auto, and their text keys. */
export const PROTOCOL_SETTINGS = [
  { value: '', label: 'ocpp201.protocol.auto' },
  { value: 'ocpp1.6', label: 'ocpp201.protocol.16' },
  { value: 'ocpp2.0.1', label: 'ocpp201.protocol.201' },
] as const;

/** The text key of a protocol setting ('' and unknown values read as auto). */
export function protocolSettingKey(value: string | null | undefined): string {
  return (PROTOCOL_SETTINGS.find((p) => p.value === value) ?? PROTOCOL_SETTINGS[0]).label;
}

export interface Plug {
  connectorId: number;
  status: string;
}

/**
 * Whether a device's connectors are EVSEs: its connection speaks OCPP 2.0.1, or (offline, or
 * before its protocol is known) one of its connectors has plugs of its own.
 */
export function isEvseMode(protocol: string | null | undefined, connectors: readonly { plugs?: readonly Plug[] | null }[] | null | undefined): boolean {
  if (protocol === OCPP201) return true;
  return (connectors ?? []).some((c) => (c.plugs?.length ?? 0) > 0);
}

export interface PlugLabel {
  key: number;
  status: string;
  text: string;
}

/** An EVSE's plugs in connector order, each as "1: Available" with the status named by `name`. */
export function formatPlugs(plugs: readonly Plug[] | null | undefined, name: (status: string) => string): PlugLabel[] {
  return [...(plugs ?? [])]
    .sort((a, b) => a.connectorId - b.connectorId)
    .map((p) => ({ key: p.connectorId, status: p.status, text: `${p.connectorId}: ${name(p.status)}` }));
}

/** The tag colour of a connector status (OCPP 1.6 or 2.0.1). */
export function statusColor(status: string): string {
  if (status === 'Faulted') return 'red';
  if (status === 'Available') return 'green';
  if (status === 'Unavailable') return 'default';
  return 'blue';
}
