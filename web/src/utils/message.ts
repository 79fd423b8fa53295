/**
 * Pure logic of the messages screens (docs/messages.md): the list's filters as the request of
 * POST message/list, the reception setting between the API and its form, and the unread feed
 * of the header's badge (server push, falling back to 15 s polling while the stream is down;
 * docs/messages.md#the-notification-centre-as-a-triage-list-issue-30). Tested in message.test.ts.
 */
import type { MessageListInput, MessageSetting } from '../services/message';

// ---------------------------------------------------------------- list filters

/** Filters of the message list kept in the URL (useListState). */
export const MESSAGE_FILTER_SPEC = { kind: 'number', read: 'number', processed: 'number', recovered: 'number' } as const;
/** The yes/no filters and the state each value names (i18n keys `message.<name>.<0|1>`). */
export const FLAG_FILTERS = ['read', 'processed', 'recovered'] as const;
const KIND_COUNT = 4;

const flag = (v: unknown): 0 | 1 | undefined => (v === 0 || v === 1 ? v : v === '0' ? 0 : v === '1' ? 1 : undefined);

/** The list's sortable columns (server sort names); the default is the latest repeat, newest first. */
export const MESSAGE_SORTS = ['lastAt', 'startedAt'] as const;
export const MESSAGE_DEFAULT_SORT = '-lastAt';

/**
 * The request body of POST message/list for a list query (paging plus URL filters): kind 0-3,
 * read/processed/recovered 0 or 1, a sort "field" or "-field" (descending) of MESSAGE_SORTS;
 * anything else (another sort, a hand-edited URL) is left out.
 */
export function messageQuery(q: Record<string, unknown>): MessageListInput {
  const out: MessageListInput = {
    page: typeof q.page === 'number' && q.page > 0 ? q.page : 1,
    pageSize: typeof q.pageSize === 'number' && q.pageSize > 0 ? q.pageSize : 20,
  };
  if (typeof q.sort === 'string') {
    const field = q.sort.replace(/^-/, '');
    if ((MESSAGE_SORTS as readonly string[]).includes(field)) {
      out.sort = field;
      out.order = q.sort.startsWith('-') ? 'desc' : 'asc';
    }
  }
  const kind = typeof q.kind === 'string' ? Number(q.kind) : q.kind;
  if (typeof kind === 'number' && Number.isInteger(kind) && kind >= 0 && kind < KIND_COUNT) out.kind = kind;
  for (const name of FLAG_FILTERS) {
    const v = flag(q[name]);
    if (v !== undefined) out[name] = v;
  }
  return out;
}

// ---------------------------------------------------------------- reception setting

export const DEFAULT_DELAY_MINUTES = 30;

/** The setting form's values. */
export interface SettingForm {
  kinds: number[];
  levels: number[];
  allSites: boolean;
  siteIds: number[];
  console: boolean;
  mail: boolean;
  frequency: 'immediate' | 'delayed';
  delayMinutes: number;
}

/** Form values of a stored setting. */
export function settingToForm(s: MessageSetting): SettingForm {
  return {
    kinds: [...s.kinds].sort((a, b) => a - b),
    levels: [...s.levels].sort((a, b) => a - b),
    allSites: s.allSites,
    siteIds: s.allSites ? [] : [...s.siteIds],
    console: s.console,
    mail: s.mail,
    frequency: s.frequency === 'delayed' ? 'delayed' : 'immediate',
    delayMinutes: s.delayMinutes > 0 ? s.delayMinutes : DEFAULT_DELAY_MINUTES,
  };
}

/** The save request of form values: no sites when all are chosen; a delay always in range. */
export function formToSetting(f: SettingForm): MessageSetting {
  return {
    kinds: [...new Set(f.kinds)].sort((a, b) => a - b),
    levels: [...new Set(f.levels)].sort((a, b) => a - b),
    allSites: f.allSites,
    siteIds: f.allSites ? [] : [...new Set(f.siteIds)],
    console: f.console,
    mail: f.mail,
    frequency: f.frequency,
    delayMinutes: Number.isFinite(f.delayMinutes) && f.delayMinutes > 0 ? Math.round(f.delayMinutes) : DEFAULT_DELAY_MINUTES,
  };
}

// ---------------------------------------------------------------- unread feed

/** Polling period while the stream is down (docs/messages.md#the-notification-centre-as-a-triage-list-issue-30). */
export const UNREAD_POLL_MS = 15_000;
/** A stream the server closed (e.g. an error answer) is opened again after this. */
export const UNREAD_RETRY_MS = 15_000;
/** How long the "new message" notification stays (docs/messages.md#the-notification-centre-as-a-triage-list-issue-30). */
export const NOTICE_SECONDS = 5;

/** The count of an `event: unread` data line, or null when it is not one. */
export function parseUnread(data: string): number | null {
  try {
    const v = JSON.parse(data) as { count?: unknown };
    return typeof v?.count === 'number' && Number.isInteger(v.count) && v.count >= 0 ? v.count : null;
  } catch {
    return null;
  }
}

export interface StreamHandlers {
  open(): void;
  count(n: number): void;
  /** closed: the browser gave up (it retries by itself otherwise). */
  error(closed: boolean): void;
}

export interface UnreadDeps {
  /** Opens the push stream; returns its close, or null when the browser has no EventSource. */
  connect(h: StreamHandlers): (() => void) | null;
  /** Reads the count once (GET message/unread). */
  fetch(): Promise<number>;
  setTimer(f: () => void, ms: number): unknown;
  clearTimer(t: unknown): void;
}

export interface UnreadState {
  /** null until the first answer. */
  count: number | null;
  streamUp: boolean;
}

/**
 * The live unread count: the stream's pushes while it is up; a reading at start, and every
 * UNREAD_POLL_MS while the stream is down; a closed stream is opened again after
 * UNREAD_RETRY_MS. `onRise` hears every rise after the first reading (not the first reading).
 */
export class UnreadFeed {
  private state: UnreadState = { count: null, streamUp: false };
  private listeners = new Set<() => void>();
  private riseListeners = new Set<(count: number, before: number) => void>();
  private closeStream: (() => void) | null = null;
  private pollTimer: unknown = undefined;
  private retryTimer: unknown = undefined;
  private running = false;
  /** Bumped on stop, so an answer of an old run is dropped. */
  private generation = 0;

  constructor(private deps: UnreadDeps) {}

  get snapshot(): UnreadState {
    return this.state;
  }

  subscribe(l: () => void): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }

  onRise(l: (count: number, before: number) => void): () => void {
    this.riseListeners.add(l);
    return () => this.riseListeners.delete(l);
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.openStream();
    void this.poll();
  }

  stop(): void {
    if (!this.running) return;
    this.running = false;
    this.generation++;
    this.closeStream?.();
    this.closeStream = null;
    this.deps.clearTimer(this.pollTimer);
    this.deps.clearTimer(this.retryTimer);
    this.pollTimer = this.retryTimer = undefined;
    this.state = { count: null, streamUp: false };
    this.emit();
  }

  /** Reads the count now (after this tab marked messages read, say). */
  refresh(): Promise<void> {
    return this.running ? this.read() : Promise.resolve();
  }

  /** Sets the count (a pushed or read value). */
  setCount(n: number): void {
    const before = this.state.count;
    if (before === n) return;
    this.state = { ...this.state, count: n };
    this.emit();
    if (before !== null && n > before) this.riseListeners.forEach((l) => l(n, before));
  }

  private setUp(up: boolean) {
    if (this.state.streamUp === up) return;
    this.state = { ...this.state, streamUp: up };
    this.emit();
  }

  private emit() {
    this.listeners.forEach((l) => l());
  }

  private openStream() {
    const gen = this.generation;
    const close = this.deps.connect({
      open: () => {
        if (gen !== this.generation) return;
        this.setUp(true);
        this.deps.clearTimer(this.pollTimer);
        this.pollTimer = undefined;
      },
      count: (n) => {
        if (gen === this.generation) this.setCount(n);
      },
      error: (closed) => {
        if (gen !== this.generation) return;
        const wasUp = this.state.streamUp;
        this.setUp(false);
        if (closed) {
          this.closeStream?.();
          this.closeStream = null;
          this.deps.clearTimer(this.retryTimer);
          this.retryTimer = this.deps.setTimer(() => {
            this.retryTimer = undefined;
            if (this.running && gen === this.generation) this.openStream();
          }, UNREAD_RETRY_MS);
        }
        // a stream that was up may have missed changes: read now, then poll
        if (wasUp) void this.poll();
        else this.schedulePoll();
      },
    });
    this.closeStream = close;
  }

  private async read(): Promise<void> {
    const gen = this.generation;
    try {
      const n = await this.deps.fetch();
      if (gen === this.generation && this.running) this.setCount(n);
    } catch {
      /* the next poll or push tries again */
    }
  }

  /** One reading, then the next one in UNREAD_POLL_MS unless the stream is up by then. */
  private async poll(): Promise<void> {
    this.deps.clearTimer(this.pollTimer);
    this.pollTimer = undefined;
    await this.read();
    this.schedulePoll();
  }

  private schedulePoll() {
    if (!this.running || this.state.streamUp || this.pollTimer !== undefined) return;
    const gen = this.generation;
    this.pollTimer = this.deps.setTimer(() => {
      this.pollTimer = undefined;
      if (this.running && gen === this.generation && !this.state.streamUp) void this.poll();
    }, UNREAD_POLL_MS);
  }
}

// ---------------------------------------------------------------- live notice

/** Rises of the unread count closer together than this are one burst: one notice (issue 30). */
export const NOTICE_BURST_MS = 10_000;

/**
 * Lets one notice through per burst: a rise shows a notice only after NOTICE_BURST_MS without
 * rises, so a storm of new messages (or a charger flapping every few seconds) is one notice.
 */
export class NoticeGate {
  private last = -Infinity;

  /** Whether a rise at `now` (ms) opens a notice; every rise extends the burst. */
  pass(now: number): boolean {
    const open = now - this.last >= NOTICE_BURST_MS;
    this.last = now;
    return open;
  }
}

/** The parts of a message a notice names. */
export interface NoticeMessage {
  sn: string;
  deviceName: string;
  siteName: string;
  code: string;
  name: string;
  kind: number;
  level: number;
}

/** Kinds whose events carry a level (alarm, fault). */
const LEVELLED_KINDS = new Set([1, 2]);

/**
 * What a notice says: the charger (SN, else name), its site and the event's name with its
 * level's code for alarms and faults, e.g. "HK-KB-01-08 at Kowloon Bay: Over-temperature (CA)",
 * plus how many other new messages came with it. `name` localises an event's code,
 * `levelCode` a level's short code, `t` the i18n keys `message.notice.*`.
 */
export function noticeText(
  m: NoticeMessage,
  others: number,
  t: (key: string, opts?: Record<string, unknown>) => string,
  name: (code: string, name: string) => string,
  levelCode: (level: number) => string,
): string {
  const alarm = name(m.code, m.name);
  const what = LEVELLED_KINDS.has(m.kind) ? t('message.notice.levelled', { alarm, level: levelCode(m.level) }) : alarm;
  const device = m.sn || m.deviceName;
  const text = m.siteName ? t('message.notice.what', { device, site: m.siteName, what }) : t('message.notice.whatNoSite', { device, what });
  return others > 0 ? t('message.notice.more', { text, count: others }) : text;
}
