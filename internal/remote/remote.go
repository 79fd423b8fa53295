// Package remote is remote access to chargers (docs/remote-access.md): a link is a tunnel the
// charger opens back to chargeops after a VPN start (control type 7), a WebSocket of its own
// carrying yamux streams; through it the console reaches the charger's own web page (a reverse
// proxy) and an SSH terminal. Every link, web and terminal session is audited, and a console
// request may reach another node than the one holding the tunnel (cluster.go).
//
// Files by concern: link.go (lifecycle: open, close, restart, expiry), tunnel.go (the charger's
// tunnel and its streams), webproxy.go (the web page), terminal.go (the SSH terminal),
// session.go (the audit: session rows, action-log rows, the session list), cluster.go
// (node-to-node streams and closes), wsconn.go (a WebSocket as a net.Conn).
package remote

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"chargeops/internal/access"
	"chargeops/internal/actionlog"
	"chargeops/internal/db"
	"chargeops/internal/fleet"
	"chargeops/internal/setting"
)

// Link statuses (remote_link.status).
const (
	StatusOpening = 1 // the token is handed out, the tunnel has not arrived
	StatusOpen    = 2 // a node holds the tunnel
	StatusClosed  = 3
)

// Why a link closed (remote_link.close_reason).
const (
	ReasonStopped   = "stopped"   // a user closed it (VPN stop)
	ReasonExpired   = "expired"   // its validity ran out
	ReasonRestarted = "restarted" // vpn/restart replaced it
	ReasonFailed    = "failed"    // no tunnel arrived, or it was refused
	ReasonDevice    = "device"    // the charger ended the tunnel, or was disabled or blacklisted
)

// Session kinds (remote_session.kind).
const (
	KindLink = "link"
	KindWeb  = access.LinkWeb
	KindSSH  = access.LinkSSH
)

// Ports a stream of the tunnel asks the charger for (docs/remote-access.md, "Tunnel").
const (
	WebPort = 80
	SSHPort = 22
)

// Validity of a link in minutes.
const (
	DefaultMinutes = 30
	MinMinutes     = 5
	MaxMinutes     = 240
)

// Options of the service.
type Options struct {
	Node        string        // this node's name (shown on the link)
	NodeURL     string        // where other nodes reach this one (config NodeBase)
	PublicURL   string        // base of the tunnel URL handed to chargers (config LinkBase)
	IdleTimeout time.Duration // a terminal without input ends after this (default 10 min)
	OpenWait    time.Duration // how long an open waits for the tunnel (default 20 s)
	TokenTTL    time.Duration // how long the one-time token is valid (default 60 s)
	WebIdle     time.Duration // a web token ends after this long unused (default 15 min)
	Sweep       time.Duration // how often Run looks for links to end (default 5 s)
	// Sessions are the console sessions (required): a web token lives only while the session
	// it was given to does (webproxy.go).
	Sessions ConsoleSessions
}

// ConsoleSessions tells whether a console session still lives (session.Store.Check): nil, or
// the business error that ended it (signed out, expired, forced re-login, account disabled).
type ConsoleSessions interface {
	Check(ctx context.Context, id string) error
}

// Service is remote access on one node.
type Service struct {
	db     *db.DB
	fleet  *fleet.Service
	log    *actionlog.Store
	opt    Options
	secret []byte // signs node-to-node calls (cluster.go)
	client *http.Client
	proxy  http.Handler // the web page's reverse proxy (webproxy.go)

	mu      sync.Mutex
	tunnels map[int64]*tunnel // the tunnels this node holds, by link id
	wake    map[int64]chan struct{}
	wg      sync.WaitGroup
}

// New builds the service of a node.
func New(ctx context.Context, d *db.DB, settings *setting.Store, f *fleet.Service, log *actionlog.Store, opt Options) (*Service, error) {
	if opt.IdleTimeout <= 0 {
		opt.IdleTimeout = 10 * time.Minute
	}
	if opt.OpenWait <= 0 {
		opt.OpenWait = 20 * time.Second
	}
	if opt.TokenTTL <= 0 {
		opt.TokenTTL = 60 * time.Second
	}
	if opt.WebIdle <= 0 {
		opt.WebIdle = 15 * time.Minute
	}
	if opt.Sweep <= 0 {
		opt.Sweep = 5 * time.Second
	}
	if opt.Sessions == nil {
		return nil, errors.New("remote: Options.Sessions is required")
	}
	opt.PublicURL = strings.TrimRight(opt.PublicURL, "/")
	opt.NodeURL = strings.TrimRight(opt.NodeURL, "/")
	secret, err := settings.Secret(ctx, "remote.node_secret")
	if err != nil {
		return nil, fmt.Errorf("remote: secret: %w", err)
	}
	s := &Service{db: d, fleet: f, log: log, opt: opt, secret: secret, client: &http.Client{Timeout: 10 * time.Second},
		tunnels: map[int64]*tunnel{}, wake: map[int64]chan struct{}{}}
	s.proxy = s.newProxy()
	// A node of the same name that stopped left its links without a tunnel.
	if opt.Node != "" {
		if err := s.endHeldBy(ctx, opt.Node); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// Options returns the options in force.
func (s *Service) Options() Options { return s.opt }

// Handler serves what is not an API call: the charger's tunnel (/remote/tunnel), the web page
// (/remote/web/<linkId>/<token>/...) and the node-to-node calls (/remote/relay/...).
func (s *Service) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+TunnelPath, s.serveTunnel)
	mux.Handle(WebPrefix, s.proxy)
	mux.HandleFunc("GET "+relayPrefix+"{id}", s.serveRelayStream)
	mux.HandleFunc("POST "+relayPrefix+"{id}/close", s.serveRelayClose)
	return mux
}

// Run ends what outlived its time until ctx ends (Sweep every few seconds).
func (s *Service) Run(ctx context.Context) {
	t := time.NewTicker(s.opt.Sweep)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		s.Sweep(ctx)
	}
}

// Shutdown ends every tunnel this node holds (their links are closed by the next node's sweep,
// or at once if the node restarts under the same name) and waits for their goroutines.
func (s *Service) Shutdown() {
	s.mu.Lock()
	list := make([]*tunnel, 0, len(s.tunnels))
	for _, t := range s.tunnels {
		list = append(list, t)
	}
	s.mu.Unlock()
	for _, t := range list {
		t.close()
	}
	s.wg.Wait()
	if s.opt.Node != "" {
		if err := s.endHeldBy(context.Background(), s.opt.Node); err != nil {
			slog.Warn("remote links not closed at shutdown", "err", err)
		}
	}
}

// system is the caller of what the service does on its own (expiry, devices disabled): the
// VPN stop it sends is recorded as the system's.
var system = &access.Principal{Root: true, UserName: "system", Scope: access.FullScope()}

// Sweep ends links whose validity ran out, whose token expired without a tunnel or whose device
// was disabled or blacklisted, web tokens unused for too long or whose console session ended,
// and tunnels held here whose link another node closed.
func (s *Service) Sweep(ctx context.Context) {
	now := db.NowMS()
	links, err := s.links(ctx, `l.status < ? AND (l.expires_at <= ? OR (l.status = ? AND l.token_expires_at < ?) OR d.enabled = 0
		OR EXISTS (SELECT 1 FROM device_blacklist b WHERE b.sn = l.sn))`, StatusClosed, now, StatusOpening, now-s.opt.OpenWait.Milliseconds())
	if err != nil {
		slog.Warn("remote sweep", "err", err)
	}
	for _, l := range links {
		reason := ReasonDevice
		switch {
		case l.ExpiresAt <= now:
			reason = ReasonExpired
		case l.Status == StatusOpening:
			reason = ReasonFailed
		}
		if _, err := s.stop(ctx, system, l, reason); err != nil {
			slog.Warn("remote link not ended", "link", l.ID, "err", err)
		}
	}
	if err := s.endIdleWeb(ctx, now-s.opt.WebIdle.Milliseconds()); err != nil {
		slog.Warn("remote sweep: web sessions", "err", err)
	}
	if err := s.endSignedOutWeb(ctx); err != nil {
		slog.Warn("remote sweep: web sessions of ended console sessions", "err", err)
	}
	for _, t := range s.held() {
		var st int
		err := s.db.QueryRow(ctx, `SELECT status FROM remote_link WHERE id = ?`, t.linkID).Scan(&st)
		if (err == nil && st == StatusClosed) || db.NotFound(err) {
			t.close()
		}
	}
}

// Tunnels is the number of tunnels this node holds.
func (s *Service) Tunnels() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.tunnels)
}

// held lists the tunnels of this node.
func (s *Service) held() []*tunnel {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]*tunnel, 0, len(s.tunnels))
	for _, t := range s.tunnels {
		out = append(out, t)
	}
	return out
}

// signal wakes an Open waiting for link id (its tunnel arrived on this node).
func (s *Service) signal(id int64) {
	s.mu.Lock()
	if c, ok := s.wake[id]; ok {
		select {
		case c <- struct{}{}:
		default:
		}
	}
	s.mu.Unlock()
}

func (s *Service) waitChan(id int64) (<-chan struct{}, func()) {
	c := make(chan struct{}, 1)
	s.mu.Lock()
	s.wake[id] = c
	s.mu.Unlock()
	return c, func() {
		s.mu.Lock()
		delete(s.wake, id)
		s.mu.Unlock()
	}
}
