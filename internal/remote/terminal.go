package remote

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/gorilla/websocket"
	"golang.org/x/crypto/ssh"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/i18n"
)

// The terminal (docs/remote-access.md, "Terminal"): a WebSocket from the console; its first
// frame names the SSH account, password and port, then chargeops runs an SSH client over a
// tunnel stream to that port of the charger, with a pty.
//
//	client → {type:"auth", username, password, port, cols, rows}, {type:"input", data},
//	         {type:"resize", cols, rows}
//	server → {type:"ready"}, {type:"output", data} (UTF-8), then {type:"closed", message} or
//	         {type:"error", message} and the close.

// Frame is one terminal message either way.
type Frame struct {
	Type     string `json:"type"`
	Data     string `json:"data,omitempty"`
	Message  string `json:"message,omitempty"`
	Username string `json:"username,omitempty"`
	Password string `json:"password,omitempty"`
	Port     int    `json:"port,omitempty"`
	Cols     int    `json:"cols,omitempty"`
	Rows     int    `json:"rows,omitempty"`
}

// Terminal message keys (spec messages: connection closed, connection failed, parameter error).
const (
	msgClosed = "term.connection_closed"
	msgFailed = "term.connection_failed"
	msgParam  = "term.parameter_error"
	// the causes of a failed SSH connection (issue 30 item 12: not one "Connection failed")
	msgAuth        = "term.auth_failed"
	msgUnreachable = "term.unreachable"
	msgTimeout     = "term.timeout"
)

// sshFailure is the message key naming why an SSH connection to the charger failed: the
// charger refused the user name and password, nothing answered on the port (the charger
// closed or refused the stream), or it did not answer in time; anything else stays
// "Connection failed".
func sshFailure(err error) string {
	var ne net.Error
	switch {
	case err == nil:
		return msgFailed
	case strings.Contains(err.Error(), "unable to authenticate"):
		return msgAuth
	case errors.Is(err, os.ErrDeadlineExceeded), errors.Is(err, context.DeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		return msgTimeout
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.ECONNRESET),
		strings.Contains(err.Error(), "connection refused"), strings.Contains(err.Error(), "connection reset"):
		return msgUnreachable
	}
	return msgFailed
}

// TerminalTarget is a device whose open SSH link p may use for a terminal.
type TerminalTarget struct {
	link LinkView
	dev  target
}

// CheckTerminal decides, before the WebSocket upgrade, whether p may open a terminal on the
// device: in scope, not a read-only customer's user, a model that supports SSH, an open SSH
// link, and the Only Root WEB/SSH access (or root) at the level of the link's control item.
func (s *Service) CheckTerminal(ctx context.Context, p *access.Principal, deviceID int64) (TerminalTarget, error) {
	if deviceID <= 0 {
		return TerminalTarget{}, apperr.InvalidField("deviceId", "err.required")
	}
	t, err := s.device(ctx, p, deviceID)
	if err != nil {
		return TerminalTarget{}, err
	}
	if p.ReadOnly {
		return TerminalTarget{}, apperr.ErrNoPermission
	}
	if err := s.allowed(ctx, p, t, KindSSH); err != nil {
		return TerminalTarget{}, err
	}
	l, err := s.active(ctx, t.id)
	if err != nil {
		return TerminalTarget{}, err
	}
	if l == nil || l.Status != StatusOpen || l.Kind != KindSSH {
		return TerminalTarget{}, ErrNoLink
	}
	return TerminalTarget{link: *l, dev: t}, nil
}

// TerminalSession is one terminal's WebSocket and what is known of its user.
type TerminalSession struct {
	WS     *websocket.Conn
	P      *access.Principal
	Locale string
	IP     string
	Ended  <-chan struct{} // the console session ended (sign-out, forced re-login)
}

// Terminal runs a terminal session until the shell ends, the user leaves, the input stays idle
// for the idle timeout, the link closes or the console session ends; it records the session
// and its input (at most MaxInput bytes).
func (s *Service) Terminal(ctx context.Context, tt TerminalTarget, ts TerminalSession) {
	term := &terminal{s: s, ws: ts.WS, locale: ts.Locale}
	defer ts.WS.Close()
	ts.WS.SetReadLimit(64 << 10)
	_ = ts.WS.SetReadDeadline(time.Now().Add(30 * time.Second))
	var auth Frame
	if err := ts.WS.ReadJSON(&auth); err != nil || auth.Type != "auth" || !validAuth(&auth) {
		term.finish("error", msgParam)
		return
	}
	_ = ts.WS.SetReadDeadline(time.Time{})
	row := sessionRow{linkID: tt.link.ID, deviceID: tt.dev.id, sn: tt.dev.sn, kind: KindSSH, userID: ts.P.UserID, userName: ts.P.UserName, ip: ts.IP}
	var err error
	row.id, err = s.startSession(ctx, sessionStart{linkID: row.linkID, deviceID: row.deviceID, sn: row.sn, kind: KindSSH, userID: row.userID,
		userName: row.userName, ip: row.ip})
	if err != nil {
		term.finish("error", msgFailed)
		return
	}
	row.startedAt = db.NowMS()
	result := "closed"
	defer func() { s.endTerminal(context.WithoutCancel(ctx), row, term, result) }()

	client, sess, err := s.dialSSH(ctx, tt.link.ID, &auth)
	if err != nil {
		slog.Info("remote terminal failed", "link", tt.link.ID, "sn", tt.dev.sn, "err", err)
		result = "failed"
		term.finish("error", sshFailure(err))
		return
	}
	defer client.Close()
	term.sess = sess
	stdin, err1 := sess.StdinPipe()
	stdout, err2 := sess.StdoutPipe()
	stderr, err3 := sess.StderrPipe()
	if err := errors.Join(err1, err2, err3, sess.Shell()); err != nil {
		result = "failed"
		term.finish("error", msgFailed)
		return
	}
	term.send(Frame{Type: "ready"})
	var outWG sync.WaitGroup
	outWG.Add(2)
	go func() { defer outWG.Done(); term.pump(stdout) }()
	go func() { defer outWG.Done(); term.pump(stderr) }()
	shellDone := make(chan struct{})
	go func() {
		_ = sess.Wait()
		outWG.Wait()
		close(shellDone)
	}()
	idle := time.NewTimer(s.opt.IdleTimeout)
	defer idle.Stop()
	frames := make(chan Frame)
	readErr := make(chan struct{})
	go func() {
		defer close(readErr)
		for {
			var f Frame
			if err := ts.WS.ReadJSON(&f); err != nil {
				return
			}
			select {
			case frames <- f:
			case <-term.done():
				return
			}
		}
	}()
	for {
		select {
		case f := <-frames:
			switch f.Type {
			case "input":
				if _, err := io.WriteString(stdin, f.Data); err != nil {
					term.finish("closed", msgClosed)
					return
				}
				term.record(f.Data)
				idle.Reset(s.opt.IdleTimeout)
			case "resize":
				if f.Cols > 0 && f.Rows > 0 && f.Cols <= 1000 && f.Rows <= 1000 {
					_ = sess.WindowChange(f.Rows, f.Cols)
				}
			}
		case <-shellDone:
			term.finish("closed", msgClosed)
			return
		case <-idle.C:
			result = "idle"
			term.finish("closed", msgClosed)
			return
		case <-ts.Ended:
			term.finish("closed", msgClosed)
			return
		case <-readErr: // the user left
			term.finish("", "")
			return
		}
	}
}

// validAuth checks the first frame: an account name of 1-64 printable characters, a password of
// at most 256 bytes, a port 1-65535 (0: 22), a window of 1-1000 columns and rows (0: 80x24).
func validAuth(f *Frame) bool {
	if f.Port == 0 {
		f.Port = SSHPort
	}
	if f.Cols == 0 {
		f.Cols = 80
	}
	if f.Rows == 0 {
		f.Rows = 24
	}
	if f.Username == "" || len(f.Username) > 64 || len(f.Password) > 256 || f.Port < 1 || f.Port > 65535 ||
		f.Cols < 1 || f.Cols > 1000 || f.Rows < 1 || f.Rows > 1000 {
		return false
	}
	for _, r := range f.Username {
		if r < 0x21 || r == 0x7f {
			return false
		}
	}
	return true
}

// dialSSH opens an SSH session with a pty over a stream to the charger's port. The host key is
// not checked: the tunnel itself was authenticated by the link's one-time token.
func (s *Service) dialSSH(ctx context.Context, linkID int64, auth *Frame) (*ssh.Client, *ssh.Session, error) {
	st, err := s.Stream(ctx, linkID, auth.Port)
	if err != nil {
		return nil, nil, err
	}
	_ = st.SetDeadline(time.Now().Add(15 * time.Second))
	cfg := &ssh.ClientConfig{User: auth.Username, Auth: []ssh.AuthMethod{ssh.Password(auth.Password)},
		HostKeyCallback: ssh.InsecureIgnoreHostKey(), Timeout: 15 * time.Second}
	conn, chans, reqs, err := ssh.NewClientConn(st, "charger:"+strconv.Itoa(auth.Port), cfg)
	if err != nil {
		st.Close()
		return nil, nil, err
	}
	_ = st.SetDeadline(time.Time{})
	client := ssh.NewClient(conn, chans, reqs)
	sess, err := client.NewSession()
	if err != nil {
		client.Close()
		return nil, nil, err
	}
	modes := ssh.TerminalModes{ssh.ECHO: 1, ssh.TTY_OP_ISPEED: 38400, ssh.TTY_OP_OSPEED: 38400}
	if err := sess.RequestPty("xterm-256color", auth.Rows, auth.Cols, modes); err != nil {
		client.Close()
		return nil, nil, err
	}
	return client, sess, nil
}

// endTerminal records the end of a terminal session: its row (end, input) and its action-log
// row.
func (s *Service) endTerminal(ctx context.Context, row sessionRow, term *terminal, result string) {
	ended := db.NowMS()
	input, truncated := term.input()
	if _, err := s.db.Exec(ctx, `UPDATE remote_session SET ended_at = ?, last_seen_at = ?, input = ?, input_truncated = ? WHERE id = ?`,
		ended, ended, input, db.BoolInt(truncated), row.id); err != nil {
		slog.Warn("remote terminal session not ended", "session", row.id, "err", err)
	}
	code := 0
	if result == "failed" {
		code = apperr.RemoteFailed
	}
	s.audit(ctx, row, ended, code, map[string]any{"result": result, "inputBytes": len(input)})
}

// terminal is the console side of one session.
type terminal struct {
	s      *Service
	ws     *websocket.Conn
	locale string
	sess   *ssh.Session
	wmu    sync.Mutex
	once   sync.Once
	closed chan struct{}
	imu    sync.Mutex
	in     strings.Builder
	trunc  bool
}

func (t *terminal) done() <-chan struct{} {
	t.wmu.Lock()
	defer t.wmu.Unlock()
	if t.closed == nil {
		t.closed = make(chan struct{})
	}
	return t.closed
}

// send writes one frame (one writer at a time).
func (t *terminal) send(f Frame) {
	t.wmu.Lock()
	defer t.wmu.Unlock()
	_ = t.ws.SetWriteDeadline(time.Now().Add(10 * time.Second))
	_ = t.ws.WriteJSON(f)
}

// finish sends the last frame (typ "closed" or "error" with a message key; "" sends none) and
// closes the WebSocket, once.
func (t *terminal) finish(typ, key string) {
	t.once.Do(func() {
		if typ != "" {
			t.send(Frame{Type: typ, Message: i18n.T(t.locale, key, nil)})
		}
		t.wmu.Lock()
		if t.closed == nil {
			t.closed = make(chan struct{})
		}
		close(t.closed)
		_ = t.ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""), time.Now().Add(time.Second))
		t.wmu.Unlock()
		_ = t.ws.Close()
	})
}

// pump sends the shell's output as UTF-8 text frames; a character split across reads waits
// for its remaining bytes, invalid bytes become U+FFFD.
func (t *terminal) pump(r io.Reader) {
	buf := make([]byte, 32<<10)
	var pending []byte
	for {
		n, err := r.Read(buf)
		if n > 0 {
			data := append(pending, buf[:n]...)
			cut := completeUTF8(data)
			pending = append([]byte(nil), data[cut:]...)
			if cut > 0 {
				t.send(Frame{Type: "output", Data: strings.ToValidUTF8(string(data[:cut]), "\uFFFD")})
			}
		}
		if err != nil {
			if len(pending) > 0 {
				t.send(Frame{Type: "output", Data: strings.ToValidUTF8(string(pending), "\uFFFD")})
			}
			return
		}
	}
}

// completeUTF8 is the length of b's prefix that ends on a whole character (an incomplete
// sequence of up to 3 bytes at the end waits).
func completeUTF8(b []byte) int {
	for i := len(b) - 1; i >= 0 && i >= len(b)-3; i-- {
		if utf8.RuneStart(b[i]) {
			if utf8.FullRune(b[i:]) {
				return len(b)
			}
			return i
		}
	}
	return len(b)
}

// record keeps the input for the audit, at most MaxInput bytes (NUL bytes dropped, CR as LF).
func (t *terminal) record(s string) {
	t.imu.Lock()
	defer t.imu.Unlock()
	s = strings.NewReplacer("\x00", "", "\r\n", "\n", "\r", "\n").Replace(s)
	if room := MaxInput - t.in.Len(); len(s) > room {
		s, t.trunc = s[:max(room, 0)], true
	}
	t.in.WriteString(s)
}

func (t *terminal) input() (string, bool) {
	t.imu.Lock()
	defer t.imu.Unlock()
	return strings.ToValidUTF8(t.in.String(), "\uFFFD"), t.trunc
}
