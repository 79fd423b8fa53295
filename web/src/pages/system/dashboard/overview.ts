/**
 * Pure logic of the system dashboard's overview (docs/dashboards.md, system/overview), tested
 * in overview.test.ts: models by device type, the ingest queue, the recent-events query.
 */
import { formatCount } from '../../../utils/format';

/** Device types of the spec: 1 charging pile, 2 AC pile, 3 energy pile, 4 power, 5 home energy, 6 V2G. */
export const DEVICE_TYPES = [1, 2, 3, 4, 5, 6];

/** The recent system events: the 20 newest of kinds 0 offline, 1 alarm, 2 fault, 3 unavailable (event.kind.N, the one naming). */
export const SYSTEM_EVENTS = { limit: 20, kinds: [0, 1, 2, 3] };

/** Refresh of the overview: every 30 s, and after status changes (at most once a second). */
export const OVERVIEW_REFRESH_MS = 30_000;

/** Models by type with at least one model: the spec's types in order, then unknown types in code order. */
export function modelTypeCounts(byType: { type: number; count: number }[] | null | undefined): { type: number; count: number }[] {
  const sum = new Map<number, number>();
  for (const b of byType ?? []) if (b.count > 0) sum.set(b.type, (sum.get(b.type) ?? 0) + b.count);
  const known = DEVICE_TYPES.filter((t) => sum.has(t));
  const other = [...sum.keys()].filter((t) => !DEVICE_TYPES.includes(t)).sort((a, b) => a - b);
  return [...known, ...other].map((type) => ({ type, count: sum.get(type)! }));
}

/** The ingest queue: "3 / 10,000" and its use 0..100 (for a progress bar). */
export function queueUse(depth: number, capacity: number, locale?: string): { text: string; percent: number } {
  const percent = capacity > 0 ? Math.min(100, Math.round((depth / capacity) * 1000) / 10) : 0;
  return { text: `${formatCount(depth, locale)} / ${formatCount(capacity, locale)}`, percent };
}

/** The customer figures besides the total that the answer holds, in this order (docs/dashboards.md names enabled/disabled; customers have no status on the server, which answers platform/readOnly). */
export const CUSTOMER_FIGURES = ['enabled', 'disabled', 'platform', 'readOnly'] as const;
export type CustomerFigure = (typeof CUSTOMER_FIGURES)[number];

export function customerFigures(c: object | null | undefined): { key: CustomerFigure; value: number }[] {
  const rec = (c ?? {}) as Record<string, unknown>;
  return CUSTOMER_FIGURES.filter((k) => typeof rec[k] === 'number').map((k) => ({ key: k, value: rec[k] as number }));
}
