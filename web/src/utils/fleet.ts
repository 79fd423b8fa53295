/**
 * Pure logic of the live-fleet screens (tested in fleet.test.ts): merging pushed status
 * changes into fetched lists, following a command until it is no longer waiting, filtering a
 * model's control items by the user's level, chart steps and bucket labels, protocol frames.
 */
import dayjs from 'dayjs';
import { getTimeZone } from './time';
import type { DeviceCountFilter } from '../services/typings';

// ---------------------------------------------------------------- status: push + polling merge

export interface StatusChange {
  deviceId: number;
  status: number;
  alarmStatus: number;
}
interface StatusRow {
  id: number;
  status: number;
  alarmStatus: number;
}

/**
 * The status changes pushed by the server, stamped with the browser's clock when they arrived.
 * A list fetched at (local) time T is answered from the database as of T or later, so only
 * changes received after T may be newer than its rows: `overlay` lays those over the rows,
 * which makes a slow poll or refetch that started before a push unable to undo it.
 */
export class StatusBook {
  private changes = new Map<number, { change: StatusChange; at: number }>();
  constructor(private readonly keepMs = 60_000) {}

  record(change: StatusChange, at = Date.now()): void {
    this.changes.set(change.deviceId, { change, at });
    for (const [id, c] of this.changes) if (c.at < at - this.keepMs) this.changes.delete(id);
  }

  /** Rows with every change received at or after `fetchedAt` applied; the same array when none applies. */
  overlay<R extends StatusRow>(rows: R[], fetchedAt: number): R[] {
    let out: R[] | null = null;
    rows.forEach((r, i) => {
      const c = this.changes.get(r.id);
      if (!c || c.at < fetchedAt) return;
      const next = patchRow(r, c.change);
      if (next !== r) (out ??= rows.slice())[i] = next;
    });
    return out ?? rows;
  }

  clear(): void {
    this.changes.clear();
  }
}

/** The row with the change's status and alarm status (the same object when they are equal). */
export function patchRow<R extends StatusRow>(row: R, c: StatusChange): R {
  if (row.id !== c.deviceId || (row.status === c.status && row.alarmStatus === c.alarmStatus)) return row;
  return { ...row, status: c.status, alarmStatus: c.alarmStatus };
}

/** A cached list answer `{list}` with the change applied to its row (same object when untouched). */
export function patchPage<P extends { list: StatusRow[] }>(page: P | undefined, c: StatusChange): P | undefined {
  if (!page) return page;
  const i = page.list.findIndex((r) => r.id === c.deviceId);
  if (i < 0) return page;
  const row = patchRow(page.list[i], c);
  if (row === page.list[i]) return page;
  const list = page.list.slice();
  list[i] = row;
  return { ...page, list };
}

/** Parses the data of an `event: status` message; null when it is not a status change. */
export function parseStatusEvent(data: string): StatusChange | null {
  try {
    const v = JSON.parse(data) as Partial<StatusChange>;
    if (typeof v.deviceId !== 'number' || typeof v.status !== 'number') return null;
    return { deviceId: v.deviceId, status: v.status, alarmStatus: typeof v.alarmStatus === 'number' ? v.alarmStatus : 0 };
  } catch {
    return null;
  }
}

/** How often lists refetch: never while the push stream is up, every 30 s (docs/dashboards.md#live) while it is down. */
export const FALLBACK_POLL_MS = 30_000;
export function pollInterval(streamUp: boolean): number | false {
  return streamUp ? false : FALLBACK_POLL_MS;
}

// ---------------------------------------------------------------- status counts

/** The device list's window: a filtered count above it means "more" (internal/device MaxListWindow). */
export const LIST_WINDOW = 10_000;

/**
 * The status-count query of the list's filters: every filter but status (the badges choose it)
 * and paging, empty values left out, the keyword trimmed as the server trims it.
 */
export function statusCountFilter(filters: Record<string, unknown>): DeviceCountFilter {
  const out: DeviceCountFilter = {};
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
  const alarm = num(filters.alarmStatus);
  if (alarm !== undefined) out.alarmStatus = alarm;
  for (const k of ['customerId', 'siteId', 'modelId', 'offlineFor', 'category'] as const) {
    const v = num(filters[k]);
    if (v) out[k] = v;
  }
  const kw = typeof filters.keyword === 'string' ? filters.keyword.trim() : '';
  if (kw) out.keyword = kw;
  if (typeof filters.protocol === 'string' && filters.protocol) out.protocol = filters.protocol;
  // the URL's restarting=1|0 (home dashboard links) is the server's boolean
  if (filters.restarting === 1 || filters.restarting === 0) (out as { restarting?: boolean }).restarting = filters.restarting === 1;
  return out;
}

/**
 * Badge texts of the status counts: per status and "all". With filters the server counts each
 * status up to the list's window, so a count above it reads "10000+" and so does the sum.
 */
export function statusBadges(counts: Record<string, number>, statuses: number[], filtered: boolean): { all: string; by: Record<number, string> } {
  let sum = 0;
  let more = false;
  const by: Record<number, string> = {};
  for (const s of statuses) {
    const n = counts[s] ?? 0;
    const capped = filtered && n > LIST_WINDOW;
    more ||= capped;
    sum += capped ? LIST_WINDOW : n;
    by[s] = capped ? `${LIST_WINDOW}+` : String(n);
  }
  return { all: more ? `${sum}+` : String(sum), by };
}

// ---------------------------------------------------------------- commands

export const RESULT_WAITING = 1;

export interface PollOptions<C> {
  /** Delay between two reads (ms). */
  interval?: number;
  /** Give up (resolve with the last state) after this long (ms); the server times out at 30 s. */
  maxWait?: number;
  signal?: AbortSignal;
  onUpdate?: (c: C) => void;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

const realSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Reads a command until its result is no longer 1 (waiting), the wait is over or the signal
 * aborts; resolves with the last state read. A failed read is retried until maxWait.
 */
export async function pollCommand<C extends { result: number }>(read: () => Promise<C>, o: PollOptions<C> = {}): Promise<C | null> {
  const interval = o.interval ?? 1000;
  const maxWait = o.maxWait ?? 45_000;
  const sleep = o.sleep ?? realSleep;
  const now = o.now ?? Date.now;
  const until = now() + maxWait;
  let last: C | null = null;
  for (;;) {
    if (o.signal?.aborted) return last;
    try {
      last = await read();
      o.onUpdate?.(last);
      if (last.result !== RESULT_WAITING) return last;
    } catch {
      /* a lost read: try again */
    }
    if (now() >= until || o.signal?.aborted) return last;
    await sleep(interval);
  }
}

/** Progress of a batch: how many commands have ended, out of all. */
export function batchProgress(results: (number | undefined)[]): { done: number; total: number; percent: number } {
  const total = results.length;
  const done = results.filter((r) => r !== undefined && r !== RESULT_WAITING).length;
  return { done, total, percent: total ? Math.round((done / total) * 100) : 100 };
}

// ---------------------------------------------------------------- diagnostics uploads

/** How often the diagnostics list is re-read while an upload is awaited, and for how long at most. */
export const UPLOAD_POLL_MS = 3000;
export const UPLOAD_WAIT_MS = 5 * 60_000;

/** An awaited upload: the complete files known when GetDiagnostics was accepted, and when to give up. */
export interface UploadWatch {
  known: number[];
  until: number;
}

export function watchUploads(files: { id: number; complete: boolean }[], now: number): UploadWatch {
  return { known: files.filter((f) => f.complete).map((f) => f.id), until: now + UPLOAD_WAIT_MS };
}

/** Whether the wait is over: a complete file not known before is listed, or the time is up. */
export function uploadArrived(w: UploadWatch, files: { id: number; complete: boolean }[], now: number): boolean {
  return now >= w.until || files.some((f) => f.complete && !w.known.includes(f.id));
}

// ---------------------------------------------------------------- control items and levels

export interface ControlItem {
  id: number;
  kind: string;
  controlName: string;
  controlTypeCode: number;
  controlLevel: number;
  displayPriority: number;
}

export interface Levels {
  root: boolean;
  /** The role's level (0 highest): items at this level or numerically higher may be used. */
  level: number;
}

/** Level rule of docs/decisions.md#levels: root bypasses; a user at L may use items whose level ≥ L. */
export function levelAllows(l: Levels, itemLevel: number): boolean {
  return l.root || itemLevel >= l.level;
}

/** The default operations when a model lists no control items (the server then allows any; VPN needs the model). */
/** The highest control type (docs/gateway.md, "Commands"). */
export const MAX_CONTROL_TYPE = 32;
/** 25 (GetLog) sits beside 6 (GetDiagnostics) on the log-upload card. */
export const DEFAULT_CONTROL_TYPES = [1, 2, 3, 4, 5, 6, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 25];

/**
 * The control items a user may use on a model: control kind, allowed by the level the server
 * compares for that type (`internal/access/levels.go`: WEB/SSH for the remote link 7/8, config
 * download for 9, parameter for the others; `null`: never), one per control type, ordered by
 * display priority then type. `null` names come from the defaults (model without control items).
 */
export function usableControls(
  items: ControlItem[],
  levels: Levels | ((type: number) => Levels | null),
): { type: number; name: string | null; level: number }[] {
  const levelOf = typeof levels === 'function' ? levels : () => levels;
  const allows = (type: number, itemLevel: number) => {
    const l = levelOf(type);
    return l !== null && levelAllows(l, itemLevel);
  };
  const controls = items.filter((i) => i.kind === 'control' && i.controlTypeCode >= 1 && i.controlTypeCode <= MAX_CONTROL_TYPE);
  if (controls.length === 0) return DEFAULT_CONTROL_TYPES.filter((type) => allows(type, 5)).map((type) => ({ type, name: null, level: 0 }));
  const seen = new Set<number>();
  return controls
    .filter((i) => allows(i.controlTypeCode, i.controlLevel))
    .sort((a, b) => a.displayPriority - b.displayPriority || a.controlTypeCode - b.controlTypeCode)
    .filter((i) => !seen.has(i.controlTypeCode) && seen.add(i.controlTypeCode))
    .map((i) => ({ type: i.controlTypeCode, name: i.controlName || null, level: i.controlLevel }));
}

/**
 * Whether a user may send one control type to a device of a model, as the server decides
 * (internal/fleet checkControl): a model listing control items must list the type, and its item's
 * level must be allowed by the level compared for the type; a model listing none allows any type
 * at level 5. The storage commands 29-32 use it: they are not among the default operations.
 */
export function controlAllowed(items: readonly ControlItem[], levels: Levels | ((type: number) => Levels | null), type: number): boolean {
  const l = typeof levels === 'function' ? levels(type) : levels;
  if (l === null) return false;
  const controls = items.filter((i) => i.kind === 'control');
  if (controls.length === 0) return levelAllows(l, 5);
  const item = controls.find((i) => i.controlTypeCode === type);
  return !!item && levelAllows(l, item.controlLevel);
}

/**
 * The ChangeConfiguration items that really change something: trimmed keys, values differing
 * from the current ones. `same` lists the keys whose value equals the current value (refused).
 */
export function configChanges(
  edits: { key: string; value: string }[],
  current: Record<string, string | undefined>,
): { items: { key: string; value: string }[]; same: string[] } {
  const items: { key: string; value: string }[] = [];
  const same: string[] = [];
  for (const e of edits) {
    const key = e.key.trim();
    if (!key) continue;
    if (current[key] !== undefined && current[key] === e.value) same.push(key);
    else items.push({ key, value: e.value });
  }
  return { items, same };
}

// ---------------------------------------------------------------- chart steps and buckets

/** Step choices in minutes; 43200 (30 days) means calendar months (server side too). */
export const MONTH_STEP = 43200;
export const STEPS = [1, 5, 15, 60, 1440, MONTH_STEP];

/** i18n key and count of a step's label. */
export function stepLabel(step: number): { key: string; count: number } {
  if (step === MONTH_STEP) return { key: 'chart.step.month', count: 1 };
  if (step % 1440 === 0) return { key: 'chart.step.days', count: step / 1440 };
  if (step % 60 === 0) return { key: 'chart.step.hours', count: step / 60 };
  return { key: 'chart.step.minutes', count: step };
}

/** The label of a bucket starting at `time` (unix ms) for a step, in the configured zone. */
export function bucketLabel(time: number, step: number, tz: string = getTimeZone()): string {
  const d = dayjs(time).tz(tz);
  if (step === MONTH_STEP) return d.format('YYYY-MM');
  if (step >= 1440) return d.format('YYYY-MM-DD');
  return d.format('MM-DD HH:mm');
}

/** The step that keeps a range under `maxPoints` buckets (the server refuses more than 20,000). */
export function suggestStep(rangeMs: number, maxPoints = 500): number {
  for (const s of STEPS) if (rangeMs / (s * 60_000) <= maxPoints) return s;
  return MONTH_STEP;
}

/**
 * Aligns several series on the union of their bucket times: [labels, values per series]
 * (null where a series has no point), for a line chart.
 */
export function alignSeries(
  series: { name: string; points: { time: number; avg: number }[] }[],
  step: number,
  tz?: string,
): { times: number[]; labels: string[]; values: Record<string, (number | null)[]> } {
  const times = [...new Set(series.flatMap((s) => s.points.map((p) => p.time)))].sort((a, b) => a - b);
  const index = new Map(times.map((t, i) => [t, i]));
  const values: Record<string, (number | null)[]> = {};
  for (const s of series) {
    const v: (number | null)[] = times.map(() => null);
    for (const p of s.points) v[index.get(p.time)!] = Math.round(p.avg * 1000) / 1000;
    values[s.name] = v;
  }
  return { times, labels: times.map((t) => bucketLabel(t, step, tz)), values };
}

// ---------------------------------------------------------------- protocol frames

/** A frame as indented JSON when it is JSON, else as it is. */
export function prettyFrame(data: string): string {
  try {
    return JSON.stringify(JSON.parse(data), null, 2);
  } catch {
    return data;
  }
}
