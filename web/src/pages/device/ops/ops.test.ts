import { describe, expect, it } from 'vitest';
import { reserveExpiryError, validIdTag } from '../../../services/ops';
import { batchTypes, paramsOf } from '../BatchModal';
import { transferAnswer } from './DataTransferCard';

describe('charging operations', () => {
  it('refuses a reservation expiry that fails the 30-minute time check or leaves the 7 days', () => {
    const now = Date.UTC(2026, 10, 26, 12, 0, 0);
    expect(reserveExpiryError(now - 60_000, now)).toBe('ops.expirySoon');
    expect(reserveExpiryError(now + 10 * 60_000, now)).toBe('ops.expirySoon');
    expect(reserveExpiryError(now + 30 * 60_000, now)).toBe('ops.expirySoon');
    expect(reserveExpiryError(now + 31 * 60_000, now)).toBeNull();
    expect(reserveExpiryError(now + 6 * 86_400_000, now)).toBeNull();
    expect(reserveExpiryError(now + 7 * 86_400_000, now)).toBe('ops.expiryRule');
    expect(reserveExpiryError(undefined, now)).toBe('ops.expiryRule');
  });

  it('takes the idTags the server takes: 1-20 printable characters', () => {
    expect(validIdTag('TAG-0001')).toBe(true);
    expect(validIdTag('x'.repeat(20))).toBe(true);
    expect(validIdTag('x'.repeat(21))).toBe(false);
    expect(validIdTag('')).toBe(false);
    expect(validIdTag('卡号')).toBe(false);
    expect(validIdTag('a\tb')).toBe(false);
  });

  it('reads the status and data of a DataTransfer answer', () => {
    expect(transferAnswer('{"status":"Accepted","data":"pong"}')).toEqual({ status: 'Accepted', data: 'pong' });
    expect(transferAnswer('{"status":"Accepted","data":{"n":1}}')).toEqual({ status: 'Accepted', data: '{"n":1}' });
    expect(transferAnswer('{"status":"UnknownVendorId"}')).toEqual({ status: 'UnknownVendorId', data: '' });
    expect(transferAnswer('')).toBeNull();
    expect(transferAnswer('not json')).toBeNull();
  });

  it('offers in a batch only the actions that make sense on many devices, unlock with its key', () => {
    expect(batchTypes(true)).toEqual(expect.arrayContaining([10, 14, 15]));
    for (const one of [12, 13, 16, 17, 18]) expect(batchTypes(true)).not.toContain(one);
    expect(batchTypes(false)).not.toContain(14);
    expect(paramsOf({ controlType: 14, connectorId: 2 })).toEqual({ connectorId: 2 });
  });
});
