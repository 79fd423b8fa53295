/**
 * The xterm.js terminal of a device's SSH link (loaded only when a terminal is opened, so xterm
 * stays out of the other chunks). It speaks the protocol of protocol.ts over the terminal
 * WebSocket, fits itself to its box whenever the box changes size and tells the server the new
 * size, copies a selection to the clipboard and pastes with Ctrl+Shift+V or a right click.
 */
import { useEffect, useRef } from 'react';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { Terminal } from '@xterm/xterm';
import { FitAddon } from '@xterm/addon-fit';
import '@xterm/xterm/css/xterm.css';
import { terminalUrl } from '../../../services/remote';
import { authFrame, decodeFrame, inputFrame, isPasteKey, resizeFrame, type TerminalLogin } from './protocol';

/** How a session ended: the server's closed/error message, or the socket closing without one. */
export type TerminalEnd = { kind: 'closed' | 'error' | 'failed'; message: string };

export interface TerminalViewProps {
  deviceId: number;
  login: TerminalLogin;
  onReady(): void;
  onEnd(end: TerminalEnd): void;
}

export default function TerminalView({ deviceId, login, onReady, onEnd }: TerminalViewProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const box = useRef<HTMLDivElement>(null);
  // the latest callbacks, so a parent's re-render does not reconnect
  const cb = useRef({ onReady, onEnd, t, message });
  cb.current = { onReady, onEnd, t, message };

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const term = new Terminal({ cursorBlink: true, fontSize: 14, scrollback: 5000, fontFamily: 'Menlo, Consolas, "DejaVu Sans Mono", monospace' });
    const fit = new FitAddon();
    term.loadAddon(fit);
    term.open(el);
    const refit = () => {
      try {
        fit.fit();
      } catch {
        /* not laid out yet */
      }
    };
    refit();

    const ws = new WebSocket(terminalUrl(deviceId));
    let ready = false;
    let ended = false;
    const end = (e: TerminalEnd) => {
      if (ended) return;
      ended = true;
      term.options.disableStdin = true;
      cb.current.onEnd(e);
    };
    const send = (frame: string) => {
      if (ws.readyState === WebSocket.OPEN && !ended) ws.send(frame);
    };
    ws.onopen = () => ws.send(authFrame(login, term.cols, term.rows));
    ws.onmessage = (ev) => {
      const f = decodeFrame(ev.data);
      if (!f) return;
      if (f.type === 'output') term.write(f.data);
      else if (f.type === 'ready') {
        ready = true;
        cb.current.onReady();
        term.focus();
      } else end({ kind: f.type, message: f.message || cb.current.t(f.type === 'closed' ? 'rlink.term.closed' : 'rlink.term.failed') });
    };
    ws.onclose = () =>
      end(ready ? { kind: 'closed', message: cb.current.t('rlink.term.closed') } : { kind: 'failed', message: cb.current.t('rlink.term.failed') });

    const subs = [
      term.onData((d) => send(inputFrame(d))),
      term.onResize(({ cols, rows }) => send(resizeFrame(cols, rows))),
      term.onSelectionChange(() => {
        const text = term.getSelection();
        if (!text) return;
        const { message: msg, t: tr } = cb.current;
        void navigator.clipboard?.writeText(text).then(
          () => void msg.success({ content: tr('com_msg_copy_success'), key: 'terminal-copy', duration: 1 }),
          () => void msg.error({ content: tr('com_msg_copy_fail'), key: 'terminal-copy' }),
        );
      }),
    ];
    // Ctrl+Shift+V is left to the browser, whose paste event xterm reads (no clipboard permission needed).
    term.attachCustomKeyEventHandler((e) => !isPasteKey(e));
    const onContextMenu = (e: MouseEvent) => {
      e.preventDefault();
      const read = navigator.clipboard?.readText?.bind(navigator.clipboard);
      if (!read) {
        void cb.current.message.info({ content: cb.current.t('rlink.term.pasteHint'), key: 'terminal-paste' });
        return;
      }
      read().then(
        (text) => text && term.paste(text),
        () => void cb.current.message.info({ content: cb.current.t('rlink.term.pasteHint'), key: 'terminal-paste' }),
      );
    };
    el.addEventListener('contextmenu', onContextMenu);
    const ro = new ResizeObserver(refit);
    ro.observe(el);

    return () => {
      ended = true;
      ro.disconnect();
      el.removeEventListener('contextmenu', onContextMenu);
      subs.forEach((s) => s.dispose());
      ws.onclose = null;
      ws.close();
      term.dispose();
    };
  }, [deviceId, login]);

  return <div ref={box} data-testid="terminal" style={{ width: '100%', height: '100%', background: '#000' }} />;
}
