package remote

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"
	"github.com/hashicorp/yamux"

	"chargeops/internal/db"
	"chargeops/internal/remote/wire"
)

// TunnelPath is where chargers dial back with their one-time token.
const TunnelPath = "/remote/tunnel"

// tunnel is a charger's tunnel held by this node.
type tunnel struct {
	linkID, deviceID int64
	sn               string
	sess             *yamux.Session
	once             sync.Once
	done             chan struct{}
}

// close ends the tunnel (the yamux session and the charger's WebSocket).
func (t *tunnel) close() {
	t.once.Do(func() {
		close(t.done)
		_ = t.sess.Close()
	})
}

// open starts a stream to the charger's port.
func (t *tunnel) open(port int) (net.Conn, error) {
	st, err := t.sess.Open()
	if err != nil {
		return nil, fmt.Errorf("remote: open stream: %w", err)
	}
	if err := wire.WriteHeader(st, port); err != nil {
		st.Close()
		return nil, fmt.Errorf("remote: stream header: %w", err)
	}
	return st, nil
}

var tunnelUpgrader = websocket.Upgrader{ReadBufferSize: 32 << 10, WriteBufferSize: 32 << 10,
	CheckOrigin: func(*http.Request) bool { return true }} // chargers send no Origin; the token is the authority

// serveTunnel accepts a charger's tunnel: the bearer token must be the one-time token of a link
// still opening, within its validity, of a device that is enabled and not blacklisted. The
// token is consumed (its hash cleared) as the link becomes open on this node.
func (s *Service) serveTunnel(w http.ResponseWriter, r *http.Request) {
	tok := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !validToken(tok) {
		http.Error(w, "unauthorized", http.StatusUnauthorized)
		return
	}
	ctx := r.Context()
	now := db.NowMS()
	hash := hashToken(tok)
	var linkID, deviceID, expires int64
	var sn string
	var enabled int
	err := s.db.QueryRow(ctx, `SELECT l.id, l.device_id, l.sn, l.expires_at, d.enabled FROM remote_link l JOIN device d ON d.id = l.device_id
		WHERE l.token_hash = ? AND l.status = ? AND l.token_expires_at >= ?`, hash, StatusOpening, now).Scan(&linkID, &deviceID, &sn, &expires, &enabled)
	if err != nil {
		slog.Info("remote tunnel refused", "reason", "unknown or expired token", "addr", r.RemoteAddr)
		http.Error(w, "unauthorized", http.StatusUnauthorized)
		return
	}
	black, err := s.fleet.Blacklisted(ctx, sn)
	if err != nil || black || enabled != 1 {
		slog.Info("remote tunnel refused", "reason", "device disabled or blacklisted", "sn", sn)
		s.fail(context.WithoutCancel(ctx), linkID)
		http.Error(w, "forbidden", http.StatusForbidden)
		return
	}
	res, err := s.db.Exec(ctx, `UPDATE remote_link SET status = ?, token_hash = '', node = ?, node_url = ? WHERE id = ? AND status = ? AND token_hash = ?`,
		StatusOpen, s.opt.Node, s.opt.NodeURL, linkID, StatusOpening, hash)
	if n, _ := res.RowsAffected(); err != nil || n != 1 {
		http.Error(w, "unauthorized", http.StatusUnauthorized)
		return
	}
	ws, err := tunnelUpgrader.Upgrade(w, r, nil)
	if err != nil {
		s.fail(context.WithoutCancel(ctx), linkID)
		return
	}
	sess, err := yamux.Client(wire.NewWSConn(ws), wire.Config())
	if err != nil {
		ws.Close()
		s.fail(context.WithoutCancel(ctx), linkID)
		return
	}
	t := &tunnel{linkID: linkID, deviceID: deviceID, sn: sn, sess: sess, done: make(chan struct{})}
	s.mu.Lock()
	s.tunnels[linkID] = t
	s.mu.Unlock()
	bg := context.Background()
	if err := s.startLinkSession(bg, linkID); err != nil {
		slog.Warn("remote link session", "link", linkID, "err", err)
	}
	slog.Info("remote tunnel open", "link", linkID, "sn", sn, "node", s.opt.Node)
	s.signal(linkID)
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		s.watch(t, expires)
	}()
}

// watch holds the tunnel until it ends: the charger closes it (the link ends, reason device),
// the link expires (VPN stop, reason expired), or a destroy closes it.
func (s *Service) watch(t *tunnel, expires int64) {
	ctx := context.Background()
	timer := time.NewTimer(time.Until(time.UnixMilli(expires)))
	defer timer.Stop()
	reason := ""
	select {
	case <-t.sess.CloseChan():
		reason = ReasonDevice
	case <-timer.C:
		reason = ReasonExpired
	case <-t.done:
	}
	select {
	case <-t.done: // destroyed here (stop, expiry, another node's request)
		reason = ""
	default:
	}
	s.mu.Lock()
	if s.tunnels[t.linkID] == t {
		delete(s.tunnels, t.linkID)
	}
	s.mu.Unlock()
	t.close()
	if reason == "" {
		slog.Info("remote tunnel closed", "link", t.linkID, "sn", t.sn)
		return
	}
	if l, err := s.link(ctx, t.linkID); err == nil && l.Status != StatusClosed {
		if reason == ReasonExpired {
			if _, err := s.stop(ctx, system, l, reason); err != nil {
				slog.Warn("remote link not expired", "link", l.ID, "err", err)
			}
		} else if _, err := s.end(ctx, l.ID, reason); err != nil {
			slog.Warn("remote link not ended", "link", l.ID, "err", err)
		}
	}
	slog.Info("remote tunnel closed", "link", t.linkID, "sn", t.sn, "reason", reason)
}

// local is the tunnel of link id when this node holds it.
func (s *Service) local(id int64) *tunnel {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.tunnels[id]
}

// Stream opens a stream to port of the charger of link id: through the tunnel when this node
// holds it, else through the node that does (cluster.go).
func (s *Service) Stream(ctx context.Context, linkID int64, port int) (net.Conn, error) {
	if t := s.local(linkID); t != nil {
		return t.open(port)
	}
	l, err := s.link(ctx, linkID)
	if err != nil {
		return nil, err
	}
	if l.Status != StatusOpen || l.nodeURL == "" {
		return nil, errNoTunnel
	}
	return s.relayDial(ctx, l, port)
}

// tunnelURL is where chargers dial back: ws(s)://<public url>/remote/tunnel.
func (s *Service) tunnelURL() string {
	base := s.opt.PublicURL
	switch {
	case strings.HasPrefix(base, "https://"):
		base = "wss://" + strings.TrimPrefix(base, "https://")
	case strings.HasPrefix(base, "http://"):
		base = "ws://" + strings.TrimPrefix(base, "http://")
	}
	return base + TunnelPath
}
