/**
 * The energy-flow diagram's arrows (pure, tested in flow.test.ts): the site bus in the middle,
 * the grid, the battery and the load around it, each arrow pointing the way power flows with
 * its kW (one decimal). Signs as internal/ess/ess.go: grid power + import (grid → bus), battery
 * power + discharge (battery → bus), load power + consumption (bus → load). Below IDLE_W an arrow
 * is idle (no direction); an unreported value is unknown.
 */
import { IDLE_W } from './storage';

export type FlowNode = 'grid' | 'bus' | 'battery' | 'load' | 'other';

export interface FlowEdge {
  /** The outer node of the edge (the other end is the bus). */
  node: Exclude<FlowNode, 'bus'>;
  from: FlowNode;
  to: FlowNode;
  /** 'in': power flows into the bus from the node; 'out': from the bus to the node. */
  dir: 'in' | 'out' | 'idle' | 'unknown';
  /** The flow's size in kW, one decimal (0 when idle, null when unknown). */
  kw: number | null;
}

/** kW with one decimal of a W value, without its sign. */
export const kw1 = (w: number) => {
  const v = Math.round(Math.abs(w) / 100) / 10;
  return v === 0 ? 0 : v;
};

/**
 * One edge from a signed value: positive flows into the bus from the node when `positiveIn`
 * (grid import, battery discharge), out of it to the node otherwise (load).
 */
export function flowEdge(node: FlowEdge['node'], w: number | null | undefined, positiveIn: boolean): FlowEdge {
  if (typeof w !== 'number' || !Number.isFinite(w)) return { node, from: node, to: 'bus', dir: 'unknown', kw: null };
  if (Math.abs(w) < IDLE_W) return { node, from: node, to: 'bus', dir: 'idle', kw: 0 };
  const inward = w > 0 === positiveIn;
  return inward ? { node, from: node, to: 'bus', dir: 'in', kw: kw1(w) } : { node, from: 'bus', to: node, dir: 'out', kw: kw1(w) };
}

/**
 * The arrows of the diagram: grid, battery, load, and what the bus's balance leaves over
 * ("other": solar or another source when positive, another consumer when negative), derived as
 * load − grid − battery when all three are reported (a storage unit does not report its site's
 * PV; without the fourth arrow the diagram would not add up).
 */
export function flowEdges(v: { gridW?: number; batteryW?: number; loadW?: number }): {
  grid: FlowEdge;
  battery: FlowEdge;
  load: FlowEdge;
  other: FlowEdge;
} {
  const known = (w?: number): w is number => typeof w === 'number' && Number.isFinite(w);
  const otherW = known(v.loadW) && known(v.gridW) && known(v.batteryW) ? v.loadW - v.gridW - v.batteryW : undefined;
  return {
    grid: flowEdge('grid', v.gridW, true),
    battery: flowEdge('battery', v.batteryW, true),
    load: flowEdge('load', v.loadW, false),
    other: flowEdge('other', otherW, true),
  };
}

/** A node's position in the diagram's 400 × 240 box, and the two ends of the line to the bus. */
export const NODES: Record<FlowNode, { x: number; y: number }> = {
  grid: { x: 60, y: 70 },
  bus: { x: 200, y: 70 },
  battery: { x: 340, y: 70 },
  load: { x: 200, y: 200 },
  other: { x: 60, y: 200 },
};
export const NODE_R = 32;

/** The line of an edge from its `from` node to its `to` node, shortened by the nodes' radius (plus a gap for the arrowhead). */
export function edgeLine(e: Pick<FlowEdge, 'from' | 'to'>, r = NODE_R, gap = 6): { x1: number; y1: number; x2: number; y2: number } {
  const a = NODES[e.from];
  const b = NODES[e.to];
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const len = Math.hypot(dx, dy) || 1;
  const ux = dx / len;
  const uy = dy / len;
  const round = (n: number) => Math.round(n * 10) / 10;
  return { x1: round(a.x + ux * r), y1: round(a.y + uy * r), x2: round(b.x - ux * (r + gap)), y2: round(b.y - uy * (r + gap)) };
}
