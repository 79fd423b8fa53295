import { describe, expect, it, vi } from 'vitest';
import { render, waitFor } from '@testing-library/react';
import '../../i18n';

const charts: Record<string, unknown>[] = [];
const connect = vi.fn();
vi.mock('echarts/core', () => ({
  use: vi.fn(),
  connect: (g: string) => connect(g),
  init: vi.fn(() => {
    const c = { setOption: vi.fn(), on: vi.fn(), off: vi.fn(), resize: vi.fn(), dispose: vi.fn(), getZr: () => ({ on: vi.fn(), off: vi.fn() }) };
    charts.push(c);
    return c;
  }),
}));

const { BarChart } = await import('./index');

interface Option {
  grid: { left: number; right: number; containLabel: boolean };
  series: { type: string; smooth?: unknown; data: (number | null)[] }[];
}

describe('stacked bar and line charts', () => {
  it('draws the buckets after now as nothing, lines straight, on the given grid, in a linked group', async () => {
    const buckets = [
      { time: 1, sessions: 3, energyKWh: 10 },
      { time: 2, sessions: 0, energyKWh: 0 },
      { time: 3, sessions: null, energyKWh: null },
    ];
    render(
      <BarChart
        testId="traffic"
        buckets={buckets}
        series={[
          { key: 'sessions', name: 'Sessions', axis: 0 },
          { key: 'energyKWh', name: 'Energy', axis: 1 },
        ]}
        step="day"
        tz="UTC"
        align={{ left: 64, right: 88 }}
        group="site-1"
      />,
    );
    await waitFor(() => expect(charts.some((c) => (c.setOption as ReturnType<typeof vi.fn>).mock.calls.length > 0)).toBe(true));
    const chart = charts.find((c) => (c.setOption as ReturnType<typeof vi.fn>).mock.calls.length > 0)!;
    const option = (chart.setOption as ReturnType<typeof vi.fn>).mock.calls.at(-1)![0] as Option;
    expect(option.series[0].data).toEqual([3, 0, null]);
    expect(option.series[1]).toMatchObject({ type: 'line', smooth: false, data: [10, 0, null] });
    expect(option.grid).toMatchObject({ left: 64, right: 88, containLabel: false });
    expect(chart.group).toBe('site-1');
    expect(connect).toHaveBeenCalledWith('site-1');
    // the hidden list says the bucket after now has no figure
    const b2 = document.querySelector('[data-testid="traffic-bucket-2"]')!;
    expect(b2.getAttribute('data-sessions')).toBe('');
    expect(document.querySelector('[data-testid="traffic-bucket-1"]')!.getAttribute('data-sessions')).toBe('0');
  });
});
