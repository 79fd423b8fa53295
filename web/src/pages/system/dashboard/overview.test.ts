import { describe, expect, it } from 'vitest';
import { customerFigures, modelTypeCounts, queueUse } from './overview';

describe('system overview', () => {
  it('lists the device types with models in type order, unknown types last', () => {
    expect(
      modelTypeCounts([
        { type: 3, count: 2 },
        { type: 1, count: 4 },
        { type: 9, count: 1 },
        { type: 2, count: 0 },
        { type: 1, count: 1 },
      ]),
    ).toEqual([
      { type: 1, count: 5 },
      { type: 3, count: 2 },
      { type: 9, count: 1 },
    ]);
    expect(modelTypeCounts(null)).toEqual([]);
  });

  it('shows the ingest queue as depth / capacity with its use', () => {
    expect(queueUse(3, 10_000, 'en-US')).toEqual({ text: '3 / 10,000', percent: 0 });
    expect(queueUse(2500, 10_000, 'en-US')).toEqual({ text: '2,500 / 10,000', percent: 25 });
    expect(queueUse(5, 0, 'en-US').percent).toBe(0);
    expect(queueUse(20, 10, 'en-US').percent).toBe(100);
  });

  it('lists the customer figures the answer holds', () => {
    expect(customerFigures({ total: 5, platform: 1, readOnly: 2 })).toEqual([
      { key: 'platform', value: 1 },
      { key: 'readOnly', value: 2 },
    ]);
    expect(customerFigures({ total: 5, enabled: 5, disabled: 0 })).toEqual([
      { key: 'enabled', value: 5 },
      { key: 'disabled', value: 0 },
    ]);
    expect(customerFigures(undefined)).toEqual([]);
  });
});
