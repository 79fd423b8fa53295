import { describe, expect, it } from 'vitest';
import type { LinkStatus, LinkView } from '../../../services/remote';
import { formatRemaining, linkAbilities, linkState, remainingAt, statusPollMs } from './linkState';

const link = (o: Partial<LinkView> = {}): LinkView => ({
  id: 1,
  deviceId: 7,
  sn: 'SN-1',
  kind: 'ssh',
  account: 'root',
  status: 2,
  minutes: 30,
  openedBy: 1,
  openedByName: 'root_admin',
  openedAt: 0,
  expiresAt: 1_800_000,
  remainingSec: 1800,
  closedAt: 0,
  closeReason: '',
  commandId: 0,
  node: '',
  webSupported: true,
  sshSupported: true,
  ...o,
});
const status = (o: Partial<LinkStatus> = {}): LinkStatus => ({ link: null, webSupported: true, sshSupported: true, canWeb: true, canSsh: true, ...o });

describe('formatRemaining', () => {
  it.each([
    [0, '00:00'],
    [9, '00:09'],
    [75, '01:15'],
    [3599, '59:59'],
    [3600, '1:00:00'],
    [3725, '1:02:05'],
    [14400, '4:00:00'],
    [59.9, '00:59'],
    [-5, '00:00'],
    [Number.NaN, '00:00'],
  ])('%s s → %s', (sec, text) => expect(formatRemaining(sec)).toBe(text));
});

describe('remainingAt', () => {
  it('counts down from the answer by whole seconds elapsed', () => {
    expect(remainingAt(120, 10_000, 10_000)).toBe(120);
    expect(remainingAt(120, 10_000, 10_999)).toBe(120);
    expect(remainingAt(120, 10_000, 11_000)).toBe(119);
    expect(remainingAt(120, 10_000, 70_500)).toBe(60);
  });
  it('stops at zero and ignores a clock that went back', () => {
    expect(remainingAt(5, 0, 60_000)).toBe(0);
    expect(remainingAt(5, 10_000, 0)).toBe(5);
  });
});

describe('linkState', () => {
  it('maps the server status and a pending open', () => {
    expect(linkState(null)).toBe('none');
    expect(linkState(undefined)).toBe('none');
    expect(linkState(link({ status: 1 }))).toBe('opening');
    expect(linkState(link({ status: 2 }))).toBe('open');
    expect(linkState(link({ status: 3 }))).toBe('closed');
    expect(linkState(null, true)).toBe('opening');
    expect(linkState(link({ status: 3 }), true)).toBe('opening');
  });
  it('polls often only while opening or open', () => {
    expect(statusPollMs('open')).toBe(5_000);
    expect(statusPollMs('opening')).toBe(5_000);
    expect(statusPollMs('none')).toBe(30_000);
    expect(statusPollMs('closed')).toBe(30_000);
  });
});

describe('linkAbilities', () => {
  it('offers the kinds the model supports and the role allows, to editors only', () => {
    expect(linkAbilities(status(), true).kinds).toEqual(['web', 'ssh']);
    expect(linkAbilities(status({ sshSupported: false }), true).kinds).toEqual(['web']);
    expect(linkAbilities(status({ canSsh: false }), true).kinds).toEqual(['web']);
    expect(linkAbilities(status(), false).kinds).toEqual([]);
    expect(linkAbilities(undefined, true).kinds).toEqual([]);
  });
  it('tells "not supported" from "not allowed"', () => {
    const none = linkAbilities(status({ webSupported: false, sshSupported: false }), true);
    expect([none.unsupported, none.denied]).toEqual([true, false]);
    const denied = linkAbilities(status({ canWeb: false, canSsh: false }), true);
    expect([denied.unsupported, denied.denied]).toEqual([false, true]);
    const ok = linkAbilities(status(), true);
    expect([ok.unsupported, ok.denied]).toEqual([false, false]);
  });
  it('offers the web page and the terminal only on an open link of the right kind', () => {
    const web = linkAbilities(status({ link: link({ kind: 'web' }), canSsh: false }), true);
    expect([web.web, web.terminal]).toEqual([true, false]);
    const ssh = linkAbilities(status({ link: link({ kind: 'ssh' }) }), true);
    expect([ssh.web, ssh.terminal]).toEqual([true, true]);
    const sshNoWeb = linkAbilities(status({ link: link({ kind: 'ssh' }), webSupported: false }), true);
    expect([sshNoWeb.web, sshNoWeb.terminal]).toEqual([false, true]);
    const opening = linkAbilities(status({ link: link({ status: 1 }) }), true);
    expect([opening.web, opening.terminal]).toEqual([false, false]);
    const closed = linkAbilities(status({ link: link({ status: 3 }) }), true);
    expect([closed.web, closed.terminal]).toEqual([false, false]);
    const reader = linkAbilities(status({ link: link() }), false);
    expect([reader.web, reader.terminal]).toEqual([false, false]);
  });
});
