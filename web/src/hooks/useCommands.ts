/**
 * Sends a remote operation to one or more devices and follows each command live: the answer
 * of control/send gives a command per device (or its refusal), then control/detail is read
 * every second until the result is no longer 1 (waiting). Refusals (offline 30001, busy 30002,
 * some busy 30003, equal value 30005, not supported 30006, disabled 30007, ...) are shown per
 * device, with the server's localised message.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { App } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { DEVICE_CODES, getCommand, sendControl, type ControlParams, type SendResult, fleetKeys } from '../services/fleet';
import { isCancelled, RequestError } from '../services/request';
import { pollCommand, RESULT_WAITING } from '../utils/fleet';

export interface CommandState {
  deviceId: number;
  sn: string;
  controlType: number;
  /** Command id; 0 when the device refused before a command was recorded. */
  id: number;
  /** 1-5 once recorded; undefined for a refusal. */
  result?: number;
  code?: number;
  message?: string;
}

/** The per-device states of a send answer (also the data of a 30003 "some devices busy"). */
export function statesOf(res: Pick<SendResult, 'commands'>, controlType: number): CommandState[] {
  return (res.commands ?? []).map((c) => ({
    deviceId: c.deviceId,
    sn: c.sn,
    controlType,
    id: c.id,
    result: c.id ? c.result : undefined,
    code: c.code || undefined,
    message: c.message || undefined,
  }));
}

export function useCommands() {
  const { message } = App.useApp();
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [states, setStates] = useState<CommandState[]>([]);
  const [sending, setSending] = useState(false);
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);

  const update = (id: number, patch: Partial<CommandState>) => setStates((prev) => prev.map((s) => (s.id === id ? { ...s, ...patch } : s)));

  /** Resolves with the final states (after polling), or null when nothing was sent. */
  const send = useCallback(
    async (devices: { id: number; sn: string }[], controlType: number, params: ControlParams = {}): Promise<CommandState[] | null> => {
      abort.current?.abort();
      const ctl = new AbortController();
      abort.current = ctl;
      setSending(true);
      let first: CommandState[];
      try {
        first = statesOf(await sendControl({ deviceIds: devices.map((d) => d.id), controlType, params }, { silent: true }), controlType);
        if (devices.length > 1) void message.info(t('command.sent', { count: first.filter((s) => s.id).length }));
      } catch (e) {
        setSending(false);
        if (isCancelled(e)) return null;
        const err = e instanceof RequestError ? e : null;
        const data = err?.data as SendResult | undefined;
        if (err?.code === DEVICE_CODES.someBusy && data?.commands) {
          first = statesOf(data, controlType);
          void message.warning(err.message);
        } else {
          const msg = err?.message ?? String(e);
          void message.error(msg);
          // one device refused (busy, disabled, equal value, ...): show it as that device's state
          const refused = devices.map((d) => ({ deviceId: d.id, sn: d.sn, controlType, id: 0, code: err?.code, message: msg }));
          setStates(refused);
          return refused;
        }
      }
      setSending(false);
      setStates(first);
      const final = await Promise.all(
        first.map(async (s) => {
          if (!s.id || s.result !== RESULT_WAITING) return s;
          const c = await pollCommand(() => getCommand(s.id), { signal: ctl.signal, onUpdate: (c) => update(s.id, { result: c.result, message: c.message || undefined }) });
          return c ? { ...s, result: c.result, message: c.message || undefined } : s;
        }),
      );
      if (!ctl.signal.aborted) {
        for (const d of devices) void qc.invalidateQueries({ queryKey: fleetKeys.commands(d.id) });
      }
      return final;
    },
    [message, qc, t],
  );

  return { states, sending, send, clear: () => setStates([]) };
}
