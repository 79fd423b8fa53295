import { describe, expect, it } from 'vitest';
import { authFrame, decodeFrame, encodeFrame, inputFrame, isPasteKey, loginProblem, readableInput, resizeFrame } from './protocol';
import { terminalUrl } from '../../../services/remote';

describe('terminal frames, browser → server', () => {
  it('auth carries the login and the size', () => {
    expect(JSON.parse(authFrame({ username: 'root', password: 'p"w', port: 22 }, 80, 24))).toEqual({
      type: 'auth',
      username: 'root',
      password: 'p"w',
      port: 22,
      cols: 80,
      rows: 24,
    });
  });
  it('input keeps control characters and UTF-8 as they are', () => {
    const data = 'ls -l\r\x03\x1b[A 你好';
    expect(JSON.parse(inputFrame(data))).toEqual({ type: 'input', data });
  });
  it('resize', () => {
    expect(JSON.parse(resizeFrame(120, 40))).toEqual({ type: 'resize', cols: 120, rows: 40 });
    expect(encodeFrame({ type: 'resize', cols: 1, rows: 2 })).toBe('{"type":"resize","cols":1,"rows":2}');
  });
});

describe('terminal frames, server → browser', () => {
  it('decodes each type', () => {
    expect(decodeFrame('{"type":"output","data":"hello\\r\\n"}')).toEqual({ type: 'output', data: 'hello\r\n' });
    expect(decodeFrame('{"type":"ready"}')).toEqual({ type: 'ready' });
    expect(decodeFrame('{"type":"closed","message":"Connection closed"}')).toEqual({ type: 'closed', message: 'Connection closed' });
    expect(decodeFrame('{"type":"error","message":"参数错误"}')).toEqual({ type: 'error', message: '参数错误' });
  });
  it('gives closed and error an empty message when the server sent none', () => {
    expect(decodeFrame('{"type":"closed"}')).toEqual({ type: 'closed', message: '' });
    expect(decodeFrame('{"type":"error","message":5}')).toEqual({ type: 'error', message: '' });
  });
  it.each([
    ['not JSON', 'hello'],
    ['an unknown type', '{"type":"bell"}'],
    ['output without data', '{"type":"output"}'],
    ['output with non-text data', '{"type":"output","data":[1]}'],
    ['a JSON scalar', '42'],
    ['null', 'null'],
  ])('ignores %s', (_name, raw) => expect(decodeFrame(raw)).toBeNull());
  it('ignores binary frames', () => {
    expect(decodeFrame(new ArrayBuffer(2))).toBeNull();
  });
});

describe('loginProblem', () => {
  it.each([
    [{ username: 'root', password: 'x', port: 22 }, null],
    [{ username: ' ', password: 'x', port: 22 }, 'username'],
    [{ password: 'x', port: 22 }, 'username'],
    [{ username: 'root', password: '', port: 22 }, 'password'],
    [{ username: 'root', password: 'x', port: 0 }, 'port'],
    [{ username: 'root', password: 'x', port: 65536 }, 'port'],
    [{ username: 'root', password: 'x', port: 22.5 }, 'port'],
    [{ username: 'root', password: 'x', port: 65535 }, null],
  ])('%j → %s', (login, problem) => expect(loginProblem(login)).toBe(problem));
});

describe('isPasteKey', () => {
  const key = (o: Partial<KeyboardEvent>) => ({ type: 'keydown', ctrlKey: false, shiftKey: false, altKey: false, metaKey: false, key: 'v', code: 'KeyV', ...o });
  it('is Ctrl+Shift+V on key down only', () => {
    expect(isPasteKey(key({ ctrlKey: true, shiftKey: true, key: 'V' }))).toBe(true);
    expect(isPasteKey(key({ ctrlKey: true, shiftKey: true, type: 'keyup' }))).toBe(false);
    expect(isPasteKey(key({ ctrlKey: true }))).toBe(false);
    expect(isPasteKey(key({ ctrlKey: true, shiftKey: true, altKey: true }))).toBe(false);
    expect(isPasteKey(key({ ctrlKey: true, shiftKey: true, key: 'C', code: 'KeyC' }))).toBe(false);
  });
});

describe('readableInput', () => {
  it('shows keys an auditor can read', () => {
    expect(readableInput('hostname\r')).toBe('hostname\n');
    expect(readableInput('lss\x7f -a\r\n')).toBe('lss[BS] -a\n');
    expect(readableInput('\x1b[A\x1b[B\x03')).toBe('[Up][Down]^C');
    expect(readableInput('\x1bOP\tx')).toBe('^[OP\tx');
    expect(readableInput('a\x1b[3~\x1b[H')).toBe('a[Del][Home]');
    expect(readableInput('')).toBe('');
  });
});

describe('terminalUrl', () => {
  it('uses ws on http and wss on https, on the console origin', () => {
    expect(terminalUrl(7, { protocol: 'http:', host: '127.0.0.1:8080' })).toBe('ws://127.0.0.1:8080/api/auth/sys/dev/link/terminal?deviceId=7');
    expect(terminalUrl(7, { protocol: 'https:', host: 'ops.example.com' })).toBe('wss://ops.example.com/api/auth/sys/dev/link/terminal?deviceId=7');
  });
});
