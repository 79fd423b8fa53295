package remote

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"

	"chargeops/internal/remote/wire"
)

// Across nodes (docs/remote-access.md, "Across nodes"): a console request may reach a node that
// does not hold the link's tunnel. The link's row names the holder's URL (--node-url); the node
// asks it over HTTP, each call signed with HMAC-SHA256 under a secret every node reads from the
// shared database (setting remote.node_secret):
//
//	GET  /remote/relay/<linkId>?port=N&ts=MS&sig=HEX   WebSocket; its binary messages carry
//	     the bytes of one stream to port N of the charger (sig over "stream|<linkId>|N|MS")
//	POST /remote/relay/<linkId>/close?ts=MS&sig=HEX    closes the tunnel (sig over "close|<linkId>|MS")
//
// A signature is good for 30 s either side of its time.

const relayPrefix = "/remote/relay/"

// relaySkew is how far a signed call's time may be from the receiver's clock.
const relaySkew = 30 * time.Second

func (s *Service) sign(parts ...string) string {
	m := hmac.New(sha256.New, s.secret)
	m.Write([]byte(strings.Join(parts, "|")))
	return hex.EncodeToString(m.Sum(nil))
}

// verify checks a signed call's time and signature.
func (s *Service) verify(q url.Values, parts ...string) bool {
	ts, err := strconv.ParseInt(q.Get("ts"), 10, 64)
	if err != nil || time.Since(time.UnixMilli(ts)).Abs() > relaySkew {
		return false
	}
	want := s.sign(append(parts, q.Get("ts"))...)
	return hmac.Equal([]byte(want), []byte(q.Get("sig")))
}

// relayURL is the signed URL of a call to the node holding link l.
func (s *Service) relayURL(l LinkView, op string, port int) string {
	ts := strconv.FormatInt(time.Now().UnixMilli(), 10)
	id := strconv.FormatInt(l.ID, 10)
	q := url.Values{"ts": {ts}}
	path := relayPrefix + id
	switch op {
	case "stream":
		p := strconv.Itoa(port)
		q.Set("port", p)
		q.Set("sig", s.sign("stream", id, p, ts))
	case "close":
		path += "/close"
		q.Set("sig", s.sign("close", id, ts))
	}
	return l.nodeURL + path + "?" + q.Encode()
}

// relayDial opens a stream to port of link l's charger through the node holding its tunnel.
func (s *Service) relayDial(ctx context.Context, l LinkView, port int) (net.Conn, error) {
	u := s.relayURL(l, "stream", port)
	u = "ws" + strings.TrimPrefix(u, "http")
	d := websocket.Dialer{HandshakeTimeout: 10 * time.Second, ReadBufferSize: 32 << 10, WriteBufferSize: 32 << 10}
	ws, resp, err := d.DialContext(ctx, u, nil)
	if resp != nil && resp.Body != nil {
		resp.Body.Close()
	}
	if err != nil {
		return nil, fmt.Errorf("remote: relay to %s: %w", l.Node, err)
	}
	return wire.NewWSConn(ws), nil
}

// relayClose asks the node holding link l to close its tunnel.
func (s *Service) relayClose(ctx context.Context, l LinkView) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.relayURL(l, "close", 0), nil)
	if err != nil {
		return err
	}
	resp, err := s.client.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent {
		return fmt.Errorf("remote: relay close: HTTP %d", resp.StatusCode)
	}
	return nil
}

// serveRelayStream pipes a WebSocket from another node to a stream of a tunnel held here.
func (s *Service) serveRelayStream(w http.ResponseWriter, r *http.Request) {
	id, port := r.PathValue("id"), r.URL.Query().Get("port")
	if !s.verify(r.URL.Query(), "stream", id, port) {
		http.Error(w, "forbidden", http.StatusForbidden)
		return
	}
	linkID, _ := strconv.ParseInt(id, 10, 64)
	p, _ := strconv.Atoi(port)
	t := s.local(linkID)
	if t == nil {
		http.Error(w, "no tunnel", http.StatusNotFound)
		return
	}
	st, err := t.open(p)
	if err != nil {
		http.Error(w, "no stream", http.StatusBadGateway)
		return
	}
	ws, err := tunnelUpgrader.Upgrade(w, r, nil)
	if err != nil {
		st.Close()
		return
	}
	pipe(wire.NewWSConn(ws), st)
}

// serveRelayClose closes a tunnel held here at another node's request.
func (s *Service) serveRelayClose(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if !s.verify(r.URL.Query(), "close", id) {
		http.Error(w, "forbidden", http.StatusForbidden)
		return
	}
	linkID, _ := strconv.ParseInt(id, 10, 64)
	if t := s.local(linkID); t != nil {
		t.close()
		slog.Info("remote tunnel closed at another node's request", "link", linkID)
	}
	w.WriteHeader(http.StatusNoContent)
}

// pipe copies both ways until either side ends, then closes both.
func pipe(a, b net.Conn) {
	var once sync.Once
	done := make(chan struct{})
	cp := func(dst, src net.Conn) {
		_, _ = io.Copy(dst, src)
		once.Do(func() { close(done) })
	}
	go cp(a, b)
	go cp(b, a)
	<-done
	a.Close()
	b.Close()
}
