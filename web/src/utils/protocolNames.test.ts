import { describe, expect, test } from 'vitest';
import enUS from '../locales/en-US/protocol';
import zhCN from '../locales/zh-CN/protocol';
import { frameLabel, messageLabel } from './protocolNames';
import { TRIGGER_MESSAGES } from '../services/fleet';

const dict = (d: Record<string, string>) => ({ t: (k: string) => d[k] ?? k, exists: (k: string) => k in d });

describe('messageLabel', () => {
  test('a plain name first, the OCPP name beside', () => {
    const en = dict(enUS);
    expect(messageLabel('MeterValues', en.t, en.exists)).toEqual({ name: 'Meter readings', code: 'MeterValues' });
    const zh = dict(zhCN);
    expect(messageLabel('StatusNotification', zh.t, zh.exists)).toEqual({ name: '充电枪状态', code: 'StatusNotification' });
  });
  test('a message without a plain name is its OCPP name, never twice', () => {
    const en = dict(enUS);
    expect(messageLabel('SetChargingProfile', en.t, en.exists)).toEqual({ name: 'SetChargingProfile', code: '' });
    expect(messageLabel('', en.t, en.exists)).toEqual({ name: '-', code: '' });
  });
  test('every message an operator can trigger has a plain name in both languages', () => {
    for (const m of TRIGGER_MESSAGES) {
      expect(enUS, m).toHaveProperty(`ocpp.msg.${m}`);
      expect(zhCN, m).toHaveProperty(`ocpp.msg.${m}`);
    }
  });
});

describe('frameLabel', () => {
  const en = dict(enUS);
  test('calls by their message, answers and errors by their kind', () => {
    expect(frameLabel('[2,"1","MeterValues",{}]', en.t, en.exists)).toEqual({ name: 'Meter readings', code: 'CALL MeterValues' });
    expect(frameLabel('[3,"1",{}]', en.t, en.exists)).toEqual({ name: 'Answer', code: 'CALLRESULT' });
    expect(frameLabel('[4,"1","NotImplemented","",{}]', en.t, en.exists)).toEqual({ name: 'Error answer: NotImplemented', code: 'CALLERROR NotImplemented' });
    const zh = dict(zhCN);
    expect(frameLabel('[2,"9","BootNotification",{}]', zh.t, zh.exists).name).toBe('启动上报');
  });
  test('not OCPP-J: nothing', () => {
    expect(frameLabel('', en.t, en.exists)).toEqual({ name: '', code: '' });
    expect(frameLabel('{"a":1}', en.t, en.exists)).toEqual({ name: '', code: '' });
  });
});
