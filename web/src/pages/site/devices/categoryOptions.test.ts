import { describe, expect, it } from 'vitest';
import { categoryOptions } from './categoryOptions';

const rows = [
  { code: 1, label: 'EV charger', count: 8 },
  { code: 2, label: 'AC charger', count: 0 },
  { code: 4, label: 'Storage device', count: 2 },
  { code: 5, label: 'Home storage', count: 0 },
];

describe('site devices by category', () => {
  it('offers all with the total and each category the site has, with counts', () => {
    expect(categoryOptions(rows, 0, 'All')).toEqual([
      { value: 0, label: 'All (10)', count: 10 },
      { value: 1, label: 'EV charger (8)', count: 8 },
      { value: 4, label: 'Storage device (2)', count: 2 },
    ]);
  });
  it('keeps the chosen category even when it has none', () => {
    expect(categoryOptions(rows, 5, 'All').map((o) => o.value)).toEqual([0, 1, 4, 5]);
  });
  it('shows no numbers while the counts load', () => {
    const loading = rows.map((r) => ({ ...r, count: undefined }));
    expect(categoryOptions(loading, 0, 'All')).toEqual([{ value: 0, label: 'All', count: undefined }]);
  });
  it('formats the counts', () => {
    expect(categoryOptions([{ code: 1, label: 'EV', count: 12000 }], 0, 'All', (n) => n.toLocaleString('en-US'))[1].label).toBe('EV (12,000)');
  });
});
