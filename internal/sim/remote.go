package sim

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"net"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"
	"github.com/hashicorp/yamux"
	"golang.org/x/crypto/ssh"

	"chargeops/internal/remote/wire"
)

// The charger side of remote access (docs/remote-access.md): on a VpnStart that carries a
// tunnel grant, the simulated charger dials the tunnel URL with its one-time token and serves
// the streams chargeops opens: a small web admin page on port 80 and an SSH server on port 22
// (password RemotePassword for the link's account: root, admin or engineer) whose shell answers
// echo, uname -a, hostname, whoami, stty size, help and exit. VpnStop closes the tunnel.

// RemotePassword is the SSH password of a simulated charger's link account.
const RemotePassword = "Charger#2024"

// vpnGrant is the DataTransfer data of a VpnStart (fleet.TunnelGrant with kind and account).
type vpnGrant struct {
	Link      string `json:"link"`
	Account   string `json:"account"`
	Token     string `json:"token"`
	URL       string `json:"url"`
	ExpiresAt int64  `json:"expiresAt"`
}

// vpn handles a VpnStart or VpnStop DataTransfer.
func (c *charger) vpn(ctx context.Context, msg, data string) {
	c.closeTunnel()
	if msg != "VpnStart" {
		return
	}
	var g vpnGrant
	if json.Unmarshal([]byte(data), &g) != nil || g.Token == "" || g.URL == "" {
		return // a VPN start without a grant (control/send): nothing to dial
	}
	if g.Account == "" {
		g.Account = "root"
	}
	go c.openTunnel(ctx, g)
}

func (c *charger) closeTunnel() {
	c.mu.Lock()
	t := c.tunnel
	c.tunnel = nil
	c.mu.Unlock()
	if t != nil {
		_ = t.Close()
	}
}

// openTunnel dials chargeops and serves its streams until the tunnel ends.
func (c *charger) openTunnel(ctx context.Context, g vpnGrant) {
	d := websocket.Dialer{HandshakeTimeout: 10 * time.Second}
	ws, resp, err := d.DialContext(ctx, g.URL, http.Header{"Authorization": {"Bearer " + g.Token}})
	if resp != nil && resp.Body != nil {
		resp.Body.Close()
	}
	if err != nil {
		c.o.Logger.Info("sim tunnel refused", "sn", c.sn, "err", err)
		return
	}
	sess, err := yamux.Server(wire.NewWSConn(ws), wire.Config())
	if err != nil {
		ws.Close()
		return
	}
	c.mu.Lock()
	c.tunnel = sess
	c.mu.Unlock()
	stop := context.AfterFunc(ctx, func() { _ = sess.Close() })
	defer stop()
	web := newStreamListener(ws.LocalAddr())
	srv := &http.Server{Handler: c.webAdmin(g.Account), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(web) }()
	defer srv.Close()
	for {
		st, err := sess.Accept()
		if err != nil {
			return
		}
		go func() {
			_ = st.SetReadDeadline(time.Now().Add(10 * time.Second))
			h, err := wire.ReadHeader(st)
			if err != nil {
				st.Close()
				return
			}
			_ = st.SetReadDeadline(time.Time{})
			switch h.Port {
			case 80:
				web.push(st)
			case 22:
				c.serveSSH(st, g.Account)
			default:
				st.Close()
			}
		}()
	}
}

// streamListener hands tunnel streams to an http.Server.
type streamListener struct {
	ch   chan net.Conn
	done chan struct{}
	once sync.Once
	addr net.Addr
}

func newStreamListener(addr net.Addr) *streamListener {
	return &streamListener{ch: make(chan net.Conn), done: make(chan struct{}), addr: addr}
}

func (l *streamListener) push(c net.Conn) {
	select {
	case l.ch <- c:
	case <-l.done:
		c.Close()
	}
}

func (l *streamListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.ch:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

func (l *streamListener) Close() error   { l.once.Do(func() { close(l.done) }); return nil }
func (l *streamListener) Addr() net.Addr { return l.addr }

var adminPage = template.Must(template.New("admin").Parse(`<!doctype html>
<html><head><meta charset="utf-8"><title>Charger {{.SN}} web admin</title>
<style>body{font-family:sans-serif;margin:24px}label{display:block;margin:8px 0}</style></head>
<body><h1>Charger {{.SN}} web admin</h1>
<p>Model {{.Model}}, firmware {{.Firmware}}, signed in as <b>{{.Account}}</b>.{{if .Saved}} <span id="saved">Settings saved.</span>{{end}}</p>
<h2>Settings</h2>
<form method="post" action="settings">
<label>Heartbeat interval (s) <input name="HeartbeatInterval" value="{{.Heartbeat}}"></label>
<label>Meter value sample interval (s) <input name="MeterValueSampleInterval" value="{{.Sample}}"></label>
<button type="submit">Save</button></form>
<h2>Diagnostics</h2>
<form method="get" action="status"><button type="submit">Show status</button></form>
</body></html>`))

// webAdmin is the charger's own web page: settings it stores, a status page.
func (c *charger) webAdmin(account string) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		c.mu.Lock()
		data := map[string]any{"SN": c.sn, "Model": c.p.Model, "Firmware": c.firmware, "Account": account, "Saved": r.URL.Query().Has("saved"),
			"Heartbeat": c.config["HeartbeatInterval"], "Sample": c.config["MeterValueSampleInterval"]}
		c.mu.Unlock()
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		http.SetCookie(w, &http.Cookie{Name: "charger_session", Value: "sim", Path: "/"}) // chargeops strips it
		_ = adminPage.Execute(w, data)
	})
	mux.HandleFunc("POST /settings", func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		c.mu.Lock()
		for _, k := range []string{"HeartbeatInterval", "MeterValueSampleInterval"} {
			if v := strings.TrimSpace(r.PostForm.Get(k)); v != "" && len(v) < 10 {
				c.config[k] = v
			}
		}
		c.mu.Unlock()
		http.Redirect(w, r, "/?saved=1", http.StatusSeeOther)
	})
	mux.HandleFunc("GET /status", func(w http.ResponseWriter, r *http.Request) {
		c.mu.Lock()
		keys := make([]string, 0, len(c.config))
		for k := range c.config {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprintf(w, "Charger %s status\nfirmware %s\n", c.sn, c.firmware)
		for _, k := range keys {
			fmt.Fprintf(w, "%s = %s\n", k, c.config[k])
		}
		c.mu.Unlock()
	})
	return mux
}

var (
	hostKeyOnce sync.Once
	hostKey     ssh.Signer
)

// sshConfig accepts the link's account with RemotePassword.
func sshConfig(account string) *ssh.ServerConfig {
	hostKeyOnce.Do(func() {
		_, priv, err := ed25519.GenerateKey(rand.Reader)
		if err == nil {
			hostKey, _ = ssh.NewSignerFromKey(priv)
		}
	})
	cfg := &ssh.ServerConfig{PasswordCallback: func(m ssh.ConnMetadata, pw []byte) (*ssh.Permissions, error) {
		if m.User() == account && string(pw) == RemotePassword {
			return nil, nil
		}
		return nil, fmt.Errorf("wrong user or password")
	}}
	cfg.AddHostKey(hostKey)
	return cfg
}

// serveSSH runs the SSH server on one stream.
func (c *charger) serveSSH(conn net.Conn, account string) {
	_ = conn.SetDeadline(time.Now().Add(15 * time.Second))
	sc, chans, reqs, err := ssh.NewServerConn(conn, sshConfig(account))
	if err != nil {
		conn.Close()
		return
	}
	_ = conn.SetDeadline(time.Time{})
	defer sc.Close()
	go ssh.DiscardRequests(reqs)
	for nc := range chans {
		if nc.ChannelType() != "session" {
			_ = nc.Reject(ssh.UnknownChannelType, "only sessions")
			continue
		}
		ch, creqs, err := nc.Accept()
		if err != nil {
			continue
		}
		go c.shell(ch, creqs, sc.User())
	}
}

// shell is a tiny shell with a pty: echo, line editing (backspace, Ctrl-C, Ctrl-D) and a few
// commands; window-change updates what `stty size` prints.
func (c *charger) shell(ch ssh.Channel, reqs <-chan *ssh.Request, user string) {
	defer ch.Close()
	var mu sync.Mutex
	cols, rows := uint32(80), uint32(24)
	started := make(chan struct{})
	var once sync.Once
	go func() {
		for req := range reqs {
			ok := true
			switch req.Type {
			case "pty-req":
				var p struct {
					Term                         string
					Columns, Rows, Width, Height uint32
					Modes                        string
				}
				if ssh.Unmarshal(req.Payload, &p) == nil {
					mu.Lock()
					cols, rows = p.Columns, p.Rows
					mu.Unlock()
				}
			case "window-change":
				var p struct{ Columns, Rows, Width, Height uint32 }
				if ssh.Unmarshal(req.Payload, &p) == nil {
					mu.Lock()
					cols, rows = p.Columns, p.Rows
					mu.Unlock()
				}
			case "shell":
				once.Do(func() { close(started) })
			case "env":
			default:
				ok = false
			}
			if req.WantReply {
				_ = req.Reply(ok, nil)
			}
		}
	}()
	select {
	case <-started:
	case <-time.After(15 * time.Second):
		return
	}
	prompt := user + "@" + c.sn + ":~# "
	out := func(s string) { _, _ = io.WriteString(ch, s) }
	out("Welcome to charger " + c.sn + " (simulated)\r\n" + prompt)
	exit := func(code uint32) {
		_, _ = ch.SendRequest("exit-status", false, ssh.Marshal(struct{ Status uint32 }{code}))
	}
	var line []rune
	buf := make([]byte, 1024)
	esc := 0 // bytes of an escape sequence still to skip
	for {
		n, err := ch.Read(buf)
		if err != nil {
			return
		}
		for _, r := range string(buf[:n]) {
			switch {
			case esc > 0:
				esc--
				if esc == 1 && r != '[' && r != 'O' {
					esc = 0
				}
			case r == 0x1b:
				esc = 2
			case r == '\r' || r == '\n':
				out("\r\n")
				cmd := strings.TrimSpace(string(line))
				line = line[:0]
				mu.Lock()
				size := fmt.Sprintf("%d %d", rows, cols)
				mu.Unlock()
				if reply, quit := c.shellCommand(cmd, user, size); quit {
					out("logout\r\n")
					exit(0)
					return
				} else if reply != "" {
					out(strings.ReplaceAll(reply, "\n", "\r\n") + "\r\n")
				}
				out(prompt)
			case r == 0x7f || r == 0x08:
				if len(line) > 0 {
					line = line[:len(line)-1]
					out("\b \b")
				}
			case r == 0x03:
				line = line[:0]
				out("^C\r\n" + prompt)
			case r == 0x04:
				if len(line) == 0 {
					out("logout\r\n")
					exit(0)
					return
				}
			case r >= 0x20:
				line = append(line, r)
				out(string(r))
			}
		}
	}
}

// shellCommand answers one command line; quit ends the shell.
func (c *charger) shellCommand(cmd, user, size string) (reply string, quit bool) {
	name, args, _ := strings.Cut(cmd, " ")
	switch name {
	case "":
		return "", false
	case "exit", "logout":
		return "", true
	case "echo":
		return strings.TrimSpace(args), false
	case "hostname":
		return c.sn, false
	case "whoami":
		return user, false
	case "uname":
		if strings.TrimSpace(args) == "-a" {
			return "Linux " + c.sn + " 5.10.110-chargeops-sim #1 SMP PREEMPT armv7l GNU/Linux", false
		}
		return "Linux", false
	case "stty":
		if strings.TrimSpace(args) == "size" {
			return size, false
		}
	case "help":
		return "commands: echo, hostname, whoami, uname -a, stty size, help, exit", false
	}
	return "-sh: " + name + ": not found", false
}
