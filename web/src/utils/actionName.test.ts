import { describe, expect, test } from 'vitest';
import { actionLabel } from './actionName';

const texts: Record<string, string> = { 'control.type.1': 'Soft reboot', 'control.type.5': '固件升级' };
const t = (k: string) => texts[k] ?? k;
const exists = (k: string) => k in texts;

describe('actionLabel', () => {
  test('the route name, never the raw path when there is one', () => {
    expect(actionLabel({ action: 'POST /api/auth/sys/customer/add', actionName: 'Add a customer', data: '{}' }, t, exists)).toBe('Add a customer');
  });
  test('a remote operation names the operation it sent', () => {
    const row = { action: 'POST /api/auth/sys/dev/control/send', actionName: 'Send a remote operation to one or more devices', data: '{"deviceIds":[3],"controlType":1}' };
    expect(actionLabel(row, t, exists)).toBe('Send a remote operation to one or more devices: Soft reboot');
    expect(actionLabel({ ...row, actionName: '下发远程操作', data: '{"controlType":5}' }, t, exists)).toBe('下发远程操作: 固件升级');
  });
  test('unknown or cut bodies keep the route name; no route keeps the path', () => {
    const row = { action: 'POST /api/auth/sys/dev/control/send', actionName: 'Send', data: '{"controlType":99}' };
    expect(actionLabel(row, t, exists)).toBe('Send');
    expect(actionLabel({ ...row, data: '{"deviceIds":[1,2' }, t, exists)).toBe('Send');
    expect(actionLabel({ action: 'POST /api/old/route', actionName: '', data: '' }, t, exists)).toBe('POST /api/old/route');
  });
});
