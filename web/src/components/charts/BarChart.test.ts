import { describe, expect, it } from 'vitest';
import { barsEmpty, bucketDatum, bucketValue, chartGrid } from './BarChart';

describe('bar chart values and grid', () => {
  it('draws a null value as nothing, a missing or bad one as zero', () => {
    const b = { time: 1, a: 3, n: null, s: 'x' } as unknown as { time: number };
    expect(bucketDatum(b, 'a')).toBe(3);
    expect(bucketDatum(b, 'n')).toBeNull();
    expect(bucketDatum(b, 'missing')).toBe(0);
    expect(bucketDatum(b, 's')).toBe(0);
    expect(bucketValue(b, 'n')).toBe(0);
  });

  it('counts buckets without figures as empty', () => {
    expect(barsEmpty([{ time: 1, a: null } as unknown as { time: number }], [{ key: 'a', name: 'A' }])).toBe(true);
  });

  it('uses a fixed grid without label containment when aligned, so stacked x axes line up', () => {
    const a = chartGrid({ left: 64, right: 88 });
    expect(a).toMatchObject({ left: 64, right: 88, containLabel: false });
    // two charts with different y axes get the same plot area left and right
    expect(chartGrid({ left: 64, right: 88 })).toEqual(a);
    expect(chartGrid()).toMatchObject({ containLabel: true });
  });
});
