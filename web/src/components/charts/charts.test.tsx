import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import '../../i18n';

const chart = { setOption: vi.fn(), on: vi.fn(), off: vi.fn(), resize: vi.fn(), dispose: vi.fn(), getZr: () => ({ on: vi.fn(), off: vi.fn() }) };
vi.mock('echarts/core', () => ({ use: vi.fn(), init: vi.fn(() => chart) }));

const { PieChart, BarChart } = await import('./index');

describe('PieChart', () => {
  it('lists every slice with its value and selects on click', async () => {
    const onSelect = vi.fn();
    render(
      <PieChart
        testId="pie"
        slices={[
          { key: 'a', name: 'A', value: 3 },
          { key: 'b', name: 'B', value: 0 },
        ]}
        inner={[{ key: 'c', name: 'C', value: 3 }]}
        onSelect={onSelect}
      />,
    );
    expect(screen.getByTestId('pie-a').getAttribute('data-value')).toBe('3');
    expect(screen.getByTestId('pie-b').getAttribute('data-value')).toBe('0');
    fireEvent.click(screen.getByTestId('pie-c'));
    expect(onSelect).toHaveBeenCalledWith('c', 'inner');
    fireEvent.click(screen.getByTestId('pie-a'));
    expect(onSelect).toHaveBeenCalledWith('a', 'outer');
    // the canvas comes with the ECharts chunk, after the legend
    await waitFor(() => expect(chart.setOption).toHaveBeenCalled());
    expect(document.querySelector('[data-chart="ready"]')).toBeTruthy();
    expect(screen.getByTestId('pie').getAttribute('data-empty')).toBe('0');
  });

  it('shows Empty when every value is zero, and a skeleton while loading', () => {
    const { unmount } = render(<PieChart testId="pie" slices={[{ key: 'a', name: 'A', value: 0 }]} />);
    expect(screen.getByTestId('pie').getAttribute('data-empty')).toBe('1');
    expect(screen.getAllByText('No data').length).toBeGreaterThan(0);
    unmount();
    render(<PieChart testId="pie" slices={[]} loading />);
    expect(document.querySelector('.ant-skeleton')).toBeTruthy();
  });
});

describe('the ECharts canvas', () => {
  it('holds the place while its chunk loads, then draws and redraws on new figures', async () => {
    chart.setOption.mockClear();
    const { rerender } = render(<PieChart testId="pie" height={180} slices={[{ key: 'a', name: 'A', value: 1 }]} />);
    await waitFor(() => expect(chart.setOption).toHaveBeenCalledTimes(1));
    const box = document.querySelector<HTMLElement>('[data-testid="pie"] [data-chart]')!;
    expect(box.style.height).toBe('180px');
    rerender(<PieChart testId="pie" height={180} slices={[{ key: 'a', name: 'A', value: 2 }]} />);
    await waitFor(() => expect(chart.setOption).toHaveBeenCalledTimes(2));
    const last = chart.setOption.mock.calls[1][0] as { series: { data: { value: number }[] }[] };
    expect(last.series[0].data[0].value).toBe(2);
  });
});

describe('BarChart', () => {
  it('repeats the buckets in a hidden list that selects a bucket', () => {
    const onSelect = vi.fn();
    render(
      <BarChart
        testId="bars"
        step="day"
        tz="UTC"
        buckets={[
          { time: Date.UTC(2025, 10, 1), offline: 1, alarm: 2 },
          { time: Date.UTC(2025, 10, 2), offline: 0, alarm: 0 },
        ]}
        series={[
          { key: 'offline', name: 'Offline', stack: 's' },
          { key: 'alarm', name: 'Alarm', stack: 's' },
        ]}
        onSelect={onSelect}
      />,
    );
    const b = screen.getByTestId('bars-bucket-0');
    expect(b.getAttribute('data-alarm')).toBe('2');
    expect(b.textContent).toContain('11-01');
    fireEvent.click(b);
    expect(onSelect).toHaveBeenCalledWith(Date.UTC(2025, 10, 1));
  });

  it('shows Empty without figures', () => {
    render(<BarChart testId="bars" step="day" tz="UTC" buckets={[{ time: 0, a: 0 }]} series={[{ key: 'a', name: 'A' }]} />);
    expect(screen.getByTestId('bars').getAttribute('data-empty')).toBe('1');
  });
});
