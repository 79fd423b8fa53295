import { describe, expect, it } from 'vitest';
import { edgeLine, flowEdge, flowEdges, kw1, NODE_R } from './flow';

describe('energy flow arrows', () => {
  it('points the grid arrow into the site while importing, out while exporting', () => {
    expect(flowEdge('grid', 3240, true)).toEqual({ node: 'grid', from: 'grid', to: 'bus', dir: 'in', kw: 3.2 });
    expect(flowEdge('grid', -1560, true)).toEqual({ node: 'grid', from: 'bus', to: 'grid', dir: 'out', kw: 1.6 });
  });

  it('points the battery arrow into the site while discharging (+), into the battery while charging (-)', () => {
    const e = flowEdges({ gridW: 0, batteryW: 5000, loadW: 5000 });
    expect(e.battery).toMatchObject({ from: 'battery', to: 'bus', dir: 'in', kw: 5 });
    expect(flowEdges({ batteryW: -2750 }).battery).toMatchObject({ from: 'bus', to: 'battery', dir: 'out', kw: 2.8 });
  });

  it('points the load arrow from the site to the load', () => {
    expect(flowEdges({ loadW: 1249 }).load).toMatchObject({ from: 'bus', to: 'load', dir: 'out', kw: 1.2 });
    // a load that feeds the site (a generator behind the meter) points the other way
    expect(flowEdges({ loadW: -800 }).load).toMatchObject({ from: 'load', to: 'bus', dir: 'in', kw: 0.8 });
  });

  it('is idle below 50 W either way (0.0 kW) and unknown when not reported', () => {
    expect(flowEdge('grid', 49, true)).toMatchObject({ dir: 'idle', kw: 0 });
    expect(flowEdge('grid', -49.9, true)).toMatchObject({ dir: 'idle', kw: 0 });
    expect(flowEdge('grid', 50, true)).toMatchObject({ dir: 'in', kw: 0.1 });
    expect(flowEdges({}).grid).toMatchObject({ dir: 'unknown', kw: null });
    expect(flowEdge('battery', Number.NaN, true)).toMatchObject({ dir: 'unknown', kw: null });
  });

  it('rounds to one decimal of a kW, without the sign', () => {
    expect(kw1(1234)).toBe(1.2);
    expect(kw1(-1250)).toBe(1.3);
    expect(kw1(10_049)).toBe(10);
    expect(Object.is(kw1(-10), 0)).toBe(true);
  });

  it('draws a line from the source node to the target, clear of both circles', () => {
    const inward = edgeLine({ from: 'grid', to: 'bus' }, NODE_R, 6);
    expect(inward).toEqual({ x1: 60 + NODE_R, y1: 70, x2: 200 - NODE_R - 6, y2: 70 });
    const outward = edgeLine({ from: 'bus', to: 'grid' }, NODE_R, 6);
    expect(outward).toEqual({ x1: 200 - NODE_R, y1: 70, x2: 60 + NODE_R + 6, y2: 70 });
    expect(edgeLine({ from: 'bus', to: 'load' }, NODE_R, 0)).toEqual({ x1: 200, y1: 70 + NODE_R, x2: 200, y2: 200 - NODE_R });
  });
});

describe('the fourth arrow: what the balance leaves over', () => {
  it('is solar or another source when the load is more than grid and battery give', () => {
    // noon: 20 kW load, 5 kW from the grid, the battery charging at 10 kW: 25 kW from the sun
    const e = flowEdges({ gridW: 5000, batteryW: -10000, loadW: 20000 });
    expect(e.other).toMatchObject({ dir: 'in', kw: 25 });
  });
  it('is another consumer when grid and battery give more than the load takes', () => {
    expect(flowEdges({ gridW: 8000, batteryW: 0, loadW: 5000 }).other).toMatchObject({ dir: 'out', kw: 3 });
  });
  it('is idle when the site balances, unknown when a value is missing', () => {
    expect(flowEdges({ gridW: 20000, batteryW: 2000, loadW: 22000 }).other.dir).toBe('idle');
    expect(flowEdges({ gridW: 20000, loadW: 22000 }).other.dir).toBe('unknown');
  });
});
