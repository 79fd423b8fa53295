// Package ocpp16 is the OCPP 1.6J adapter of the device core: WebSocket framing at
// /ocpp/{SN} (sub-protocol ocpp1.6), admission at the handshake (decisions §2), the
// charger-initiated messages of Core, Firmware Management and Remote Trigger, and the control
// types mapped to OCPP calls. Message types and their validation come from ocpp-go; the
// framing is our own over gorilla/websocket so that it mounts on the console's HTTP server.
package ocpp16

import (
	"crypto/x509"
	"log/slog"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"

	"chargeops/internal/clientaddr"
	"chargeops/internal/device"
	"chargeops/internal/fleet"
	"chargeops/internal/gateway/ocppj"
)

// SubProtocol is the WebSocket sub-protocol of OCPP 1.6J.
const SubProtocol = "ocpp1.6"

// Path is where chargers connect: Path + SN.
const Path = "/ocpp/"

// Options of the gateway.
type Options struct {
	AllowUnknown bool             // unknown SNs connect and boot as Pending (else HTTP 404)
	RequireKeys  bool             // a device without a key is refused (else it connects with its SN alone)
	PingInterval time.Duration    // WebSocket pings; default 30 s
	WriteTimeout time.Duration    // one frame's write; default 10 s
	TrustProxy   bool             // client address and TLS from X-Forwarded-For / -Proto
	PublicURL    string           // base of firmware/diagnostics URLs (empty: from the request)
	LocalLists   fleet.LocalLists // builds local authorization lists (internal/token); nil: control types 19, 20 fail
	KeyBackoff   time.Duration    // first back-off after too many wrong keys (fleet.KeyFailed); default 1 min
	// ClientCAs issue the client certificates that prove security profile 3 (the
	// charge-point CA); nil: a client certificate is refused as untrusted.
	ClientCAs *x509.CertPool
	// Signer signs chargers' CSRs (SignCertificate); nil: they are rejected.
	Signer CertSigner
	// CertHeader names the header in which a TLS-terminating proxy passes on the charger's
	// client certificate; it is read only on connections from CertProxies (proxycert.go).
	CertHeader  string
	CertProxies []netip.Prefix
	// Dialects are the other OCPP versions the gateway speaks beside 1.6J (ocpp201.Dialect):
	// a connection that negotiates one of their sub-protocols runs on the same connection layer
	// (admission, profiles, framing, calls) with that dialect's messages (negotiate).
	Dialects []ocppj.Dialect
}

// Gateway accepts OCPP 1.6J connections.
type Gateway struct {
	fleet    fleet.Core
	opt      Options
	upgrader websocket.Upgrader
	conns    sync.Map // *conn → struct{}
	active   atomic.Int64
	accepted atomic.Int64
	refused  atomic.Int64
	// keyBackoff counts attempts refused with 429 during a key back-off (docs/gateway.md, "Key guesses").
	keyBackoff atomic.Int64
	keyTurns   keyTurns // one key check per SN at a time (keyguard.go)
	// meterRefused counts MeterValues refused by the bounds (metervalues.go).
	meterRefused atomic.Int64
	meterLog     unreadableLog // one log line per 10 s about refused MeterValues
	meterBuckets meterBuckets  // sampled values per charger and second (metervalues.go)
	// unreadable counts frames that could not be handled (docs/ocpp16.md, "Framing").
	unreadable    atomic.Int64
	unreadableLog unreadableLog
	stop          chan struct{} // ends the pinger
	stopOnce      sync.Once
	dialects      map[string]ocppj.Dialect // by sub-protocol
}

// New builds the gateway over the device core.
func New(f fleet.Core, opt Options) *Gateway {
	if opt.PingInterval <= 0 {
		opt.PingInterval = 30 * time.Second
	}
	if opt.WriteTimeout <= 0 {
		opt.WriteTimeout = 10 * time.Second
	}
	if opt.KeyBackoff <= 0 {
		opt.KeyBackoff = time.Minute
	}
	g := &Gateway{fleet: f, opt: opt, stop: make(chan struct{}), meterLog: unreadableLog{msg: "ocpp MeterValues refused"},
		dialects: map[string]ocppj.Dialect{}}
	for _, d := range opt.Dialects {
		g.dialects[d.SubProtocol()] = d
	}
	g.upgrader = websocket.Upgrader{
		// The sub-protocol is chosen per device (negotiate) and answered in the response header.
		HandshakeTimeout: 10 * time.Second,
		ReadBufferSize:   readBufferSize,
		WriteBufferSize:  writeBufferSize,
		// A write buffer is taken from the pool for one write and given back: an idle
		// connection holds none.
		WriteBufferPool: &sync.Pool{},
		// Chargers are not browsers: there is no origin to check.
		CheckOrigin: func(*http.Request) bool { return true },
	}
	go g.pinger(g.stop)
	return g
}

// Socket buffers: OCPP frames are small (a MeterValues is a few hundred bytes); larger ones are
// read and written in several steps.
const (
	readBufferSize  = 1024
	writeBufferSize = 4096
)

// Stats are live counters of the gateway.
type Stats struct {
	Active   int64 `json:"active"`
	Accepted int64 `json:"accepted"`
	Refused  int64 `json:"refused"`
	// Unreadable frames: not JSON, not an OCPP-J frame, a numeric or over-long message id.
	Unreadable int64 `json:"unreadable"`
	// KeyBackoff: attempts refused (HTTP 429) while their SN or address was in a key back-off.
	KeyBackoff int64 `json:"keyBackoff"`
	// MeterRefused: MeterValues answered with a CALLERROR by the bounds (docs/ocpp16.md, "MeterValues bounds").
	MeterRefused int64 `json:"meterRefused"`
}

// Stats returns the counters.
func (g *Gateway) Stats() Stats {
	return Stats{Active: g.active.Load(), Accepted: g.accepted.Load(), Refused: g.refused.Load(), Unreadable: g.unreadable.Load(),
		KeyBackoff: g.keyBackoff.Load(), MeterRefused: g.meterRefused.Load()}
}

// Close ends every connection (shutdown).
func (g *Gateway) Close() {
	g.stopOnce.Do(func() { close(g.stop) })
	var wg sync.WaitGroup
	g.conns.Range(func(k, _ any) bool {
		c := k.(*conn)
		wg.Add(1)
		go func() { defer wg.Done(); c.Close("shutdown"); <-c.finished }()
		return true
	})
	wg.Wait()
}

func (g *Gateway) clientIP(r *http.Request) string { return clientaddr.IP(r, g.opt.TrustProxy) }

// secure reports whether the charger's connection is TLS: its own, or ended at a proxy that
// says so (X-Forwarded-Proto with --trust-proxy; a client certificate passed on by a trusted
// proxy, which only a TLS connection can show).
func (g *Gateway) secure(r *http.Request) bool {
	if r.TLS != nil || (g.opt.TrustProxy && strings.EqualFold(r.Header.Get("X-Forwarded-Proto"), "https")) {
		return true
	}
	_, fromProxy := g.peerCertificates(r)
	return fromProxy
}

func (g *Gateway) baseURL(r *http.Request) string {
	if g.opt.PublicURL != "" {
		return strings.TrimSuffix(g.opt.PublicURL, "/")
	}
	scheme := "http"
	if g.secure(r) {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

func (g *Gateway) attempt(r *http.Request, sn string) fleet.Attempt {
	return fleet.Attempt{SN: sn, Addr: g.clientIP(r), Protocol: strings.Join(websocket.Subprotocols(r), ",")}
}

func (g *Gateway) refuse(w http.ResponseWriter, r *http.Request, sn, reason string, status int) {
	g.refuseAttempt(w, r, g.attempt(r, sn), reason, status, http.StatusText(status))
}

// refuseAttempt is refuse for an attempt the caller filled (the offered sub-protocols of
// RefuseProtocol), answered with body.
func (g *Gateway) refuseAttempt(w http.ResponseWriter, r *http.Request, a fleet.Attempt, reason string, status int, body string) {
	g.refused.Add(1)
	g.fleet.RecordRefusal(r.Context(), a, reason)
	slog.Info("ocpp connection refused", "sn", a.SN, "reason", reason, "addr", a.Addr, "protocol", a.Protocol)
	if status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", `Basic realm="chargeops"`)
	}
	http.Error(w, body, status)
}

// ServeHTTP admits a charger at /ocpp/{SN} and runs its connection. Only that path is an
// identity: /ocpp/anything/{SN} is not found, so nobody connects as a charger through a
// path the charger never uses. An SN that cannot be a device's (decisions: device SN) is a
// bad request and is not recorded.
func (g *Gateway) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rest := strings.TrimPrefix(r.URL.EscapedPath(), Path)
	if strings.Contains(rest, "/") {
		http.NotFound(w, r)
		return
	}
	sn, err := url.PathUnescape(rest)
	if err != nil || !device.ValidSN(sn) {
		http.Error(w, "bad charge point identity", http.StatusBadRequest)
		return
	}
	// The admission order is taken as the request arrives (docs/gateway.md, "Connections").
	connID := fleet.NewConnID()
	if !websocket.IsWebSocketUpgrade(r) {
		http.Error(w, "OCPP 1.6J needs a WebSocket upgrade", http.StatusBadRequest)
		return
	}
	offered := websocket.Subprotocols(r)
	if _, ok := g.negotiate(offered, ""); !ok {
		// left in the refusal list with what it offered
		g.refuseAttempt(w, r, g.attempt(r, sn), fleet.RefuseProtocol, http.StatusBadRequest, "unsupported sub-protocol (this endpoint speaks "+g.speaks()+")")
		return
	}
	r = g.withProxyChain(r) // a certificate passed on by a trusted proxy, read once (proxycert.go)
	ctx := r.Context()
	black, err := g.fleet.Blacklisted(ctx, sn)
	if err != nil {
		http.Error(w, "unavailable", http.StatusServiceUnavailable)
		return
	}
	if black {
		g.refuse(w, r, sn, fleet.RefuseBlacklisted, http.StatusUnauthorized)
		return
	}
	var weakKey bool // a key outside 16-40 characters, set before the rule (flagged in the protocol log)
	dev, err := g.fleet.DeviceBySN(ctx, sn)
	if err != nil {
		http.Error(w, "unavailable", http.StatusServiceUnavailable)
		return
	}
	setting := ""
	if dev != nil {
		setting = dev.Protocol
	}
	proto, ok := g.negotiate(offered, setting)
	if !ok {
		// the device is set to a protocol the charger did not offer
		g.refuseAttempt(w, r, g.attempt(r, sn), fleet.RefuseProtocol, http.StatusBadRequest, "unsupported sub-protocol (this charger is set to "+setting+")")
		return
	}
	if dev == nil {
		if !g.opt.AllowUnknown {
			g.refuse(w, r, sn, fleet.RefuseUnknown, http.StatusNotFound)
			return
		}
		g.fleet.RecordPending(ctx, fleet.Attempt{SN: sn, Addr: g.clientIP(r), Protocol: proto}, fleet.BootInfo{})
	} else {
		proven, weak, ok := g.admit(w, r, dev)
		if !ok {
			return
		}
		weakKey = weak
		g.admitted(r, dev, proven)
	}
	var answer http.Header
	if len(offered) > 0 {
		answer = http.Header{"Sec-Websocket-Protocol": {proto}}
	}
	ws, err := g.upgrader.Upgrade(w, r, answer)
	if err != nil {
		return // the upgrader answered the error
	}
	c := &conn{g: g, ws: ws, sn: sn, dev: dev, id: connID, base: g.baseURL(r), addr: g.clientIP(r), weakKey: weakKey,
		proto: proto, dialect: g.dialects[proto],
		closed: make(chan struct{}), finished: make(chan struct{}), pending: map[string]chan callResult{}}
	c.live.Store(dev)
	g.accepted.Add(1)
	// The connection runs on a goroutine of its own, and this handler returns: net/http then
	// lets go of what it keeps for a request (its connection state, buffered writer, the
	// request and response), which would otherwise stay with every socket for its lifetime.
	go c.run()
}

// demand is what a known device asks of a connection: a refusal reason when it takes none
// (disabled; no key while --require-device-keys is set), else the security profile the
// connection must prove at least (0: none, 1: its key, 2: its key over TLS, 3: a client
// certificate).
func (g *Gateway) demand(dev *fleet.Device) (profile int, refusal string) {
	if !dev.Enabled {
		return 0, fleet.RefuseDisabled
	}
	profile = dev.SecurityProfile
	if profile == fleet.ProfileNone && dev.AuthKeyHash != "" {
		profile = fleet.ProfileKey
	}
	if profile == fleet.ProfileNone && g.opt.RequireKeys {
		return 0, fleet.RefuseNoKey
	}
	return profile, ""
}

// negotiate chooses the sub-protocol of a connection that offered offered, for a device set to
// setting (fleet.Device.Protocol; "" for auto and for an unknown SN): a set protocol only if the
// charger offers it; on auto the newest one both sides speak (ocpp2.0.1 before ocpp1.6). A
// charger that offers no sub-protocol is taken as 1.6 (OCPP-J 1.6 chargers that send none exist;
// a 2.0.1 one must send it). ok is false when there is none to choose.
func (g *Gateway) negotiate(offered []string, setting string) (proto string, ok bool) {
	if len(offered) == 0 {
		return SubProtocol, setting == "" || setting == SubProtocol
	}
	for _, p := range g.preference() {
		if slices.Contains(offered, p) && (setting == "" || setting == p) {
			return p, true
		}
	}
	return "", false
}

// preference lists the sub-protocols the gateway speaks, newest first.
func (g *Gateway) preference() []string {
	out := make([]string, 0, len(g.dialects)+1)
	for p := range g.dialects {
		out = append(out, p)
	}
	slices.Sort(out)
	slices.Reverse(out) // "ocpp2.0.1" > "ocpp1.6"
	return append(out, SubProtocol)
}

// speaks names the sub-protocols of the gateway for a refusal's answer.
func (g *Gateway) speaks() string { return strings.Join(g.preference(), ", ") }
