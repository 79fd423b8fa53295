/**
 * Pure logic of the remote-link panel (tested in linkState.test.ts): which state a link is in,
 * the remaining time counted down locally from the server's `remainingSec`, its display, and
 * which buttons the status answer allows (docs/remote-access.md).
 */
import { LINK_STATUS, type LinkStatus, type LinkView } from '../../../services/remote';

export type LinkState = 'none' | 'opening' | 'open' | 'closed';

/** The panel's state: an open request still under way counts as opening. */
export function linkState(link: LinkView | null | undefined, pending = false): LinkState {
  if (pending) return 'opening';
  if (!link) return 'none';
  if (link.status === LINK_STATUS.opening) return 'opening';
  if (link.status === LINK_STATUS.open) return 'open';
  return 'closed';
}

/**
 * Seconds left at `now` of a link the server said had `remainingSec` left when its answer
 * arrived at `receivedAt` (both browser clock, ms). Counting from the answer, not from
 * `expiresAt`, keeps a browser whose clock is off from showing a wrong time.
 */
export function remainingAt(remainingSec: number, receivedAt: number, now: number): number {
  const elapsed = Math.floor(Math.max(0, now - receivedAt) / 1000);
  return Math.max(0, Math.floor(remainingSec) - elapsed);
}

const two = (n: number) => String(n).padStart(2, '0');

/** 0 → "00:00", 75 → "01:15", 3725 → "1:02:05" (hours only when there are any). */
export function formatRemaining(sec: number): string {
  const s = Math.max(0, Math.floor(Number.isFinite(sec) ? sec : 0));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h > 0 ? `${h}:${two(m)}:${two(s % 60)}` : `${two(m)}:${two(s % 60)}`;
}

/** What the panel may offer, from the status answer (the server checks each call again). */
export interface LinkAbilities {
  /** Kinds the user may open on this device (model support and role access). */
  kinds: ('web' | 'ssh')[];
  /** The model supports neither WEB nor SSH: "not support VPN". */
  unsupported: boolean;
  /** The model supports a kind but the role opens none. */
  denied: boolean;
  /** The open link's web page may be opened. */
  web: boolean;
  /** The open link's terminal may be opened. */
  terminal: boolean;
}

export function linkAbilities(s: LinkStatus | undefined, editor: boolean): LinkAbilities {
  const webOk = !!s && s.webSupported && s.canWeb;
  const sshOk = !!s && s.sshSupported && s.canSsh;
  const kinds: ('web' | 'ssh')[] = [];
  if (editor && webOk) kinds.push('web');
  if (editor && sshOk) kinds.push('ssh');
  const unsupported = !!s && !s.webSupported && !s.sshSupported;
  const open = s?.link?.status === LINK_STATUS.open;
  const kind = s?.link?.kind;
  return {
    kinds,
    unsupported,
    denied: !!s && !unsupported && !webOk && !sshOk,
    // an SSH link also carries the web page for roles that may use SSH (root account)
    web: editor && open && webOk && (kind === 'web' || sshOk),
    terminal: editor && open && kind === 'ssh' && sshOk,
  };
}

/** How often the status is read again: often while a link is opening or open. */
export function statusPollMs(state: LinkState): number {
  return state === 'opening' || state === 'open' ? 5_000 : 30_000;
}
