import { describe, expect, it } from 'vitest';
import { fieldOfMessage, formatA, formatKw, messageText } from './power';

describe('power service helpers', () => {
  it('formats W as kW with up to two decimals', () => {
    expect(formatKw(7400, 'en-US')).toBe('7.4 kW');
    expect(formatKw(22_000, 'en-US')).toBe('22 kW');
    expect(formatKw(1_234_567, 'en-US')).toBe('1,234.57 kW');
    expect(formatKw(0, 'en-US')).toBe('0 kW');
    expect(formatKw(undefined)).toBe('-');
    expect(formatKw(NaN)).toBe('-');
  });

  it('formats amperes with one decimal', () => {
    expect(formatA(16, 'en-US')).toBe('16 A');
    expect(formatA(10.66, 'en-US')).toBe('10.7 A');
    expect(formatA(null)).toBe('-');
  });

  it('translates a message key the console knows, keeps other text', () => {
    const t = (k: string) => `T(${k})`;
    const exists = (k: string) => k === 'err.sc_rejected';
    expect(messageText('err.sc_rejected', t, exists)).toBe('T(err.sc_rejected)');
    expect(messageText('err.unknown_key', t, exists)).toBe('err.unknown_key');
    expect(messageText('Rejected by charger.', t, exists)).toBe('Rejected by charger.');
    expect(messageText('', t, exists)).toBe('');
  });

  it('finds the field a 10001 message names by its label or raw name', () => {
    const fields = [
      { name: 'minA', raw: ['minA'], label: 'Minimum current' },
      { name: 'limit', raw: ['limitKw'], label: 'Limit (kW)' },
      { name: 'limit', label: 'Limit (A per phase)' },
      { name: ['schedule', '[]', 'from'], raw: ['schedule[].from'] },
      { name: 'validFrom', raw: ['params.profile.validFrom'], label: 'Valid from' },
    ];
    expect(fieldOfMessage('Minimum current is invalid or in the wrong format', fields)).toBe('minA');
    expect(fieldOfMessage('Limit (A per phase) is invalid or in the wrong format', fields)).toBe('limit');
    expect(fieldOfMessage('schedule[2].from is invalid or in the wrong format', fields)).toEqual(['schedule', 2, 'from']);
    expect(fieldOfMessage('params.profile.validFrom is invalid', fields)).toBe('validFrom');
    expect(fieldOfMessage('最小电流 无效或格式错误', [{ name: 'minA', label: '最小电流' }])).toBe('minA');
    expect(fieldOfMessage('Something else', fields)).toBeNull();
  });
});
