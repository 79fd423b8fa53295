package app

import (
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// bodyMinRate is the slowest request body a listener waits for beyond --read-timeout: one
// second more per this many declared bytes (a diagnostics file over a slow link).
const bodyMinRate = 8 << 10

// httpServer is the server of every listener of the node (the console, API and gateway on
// --addr, the gateway on --ocpp-addr): idle connections close after two minutes, headers must
// arrive within --read-header-timeout and a body within --read-timeout (plus its size at
// bodyMinRate), so a slow client (slowloris) holds neither a file descriptor nor a goroutine
// for long (docs/operations.md, "Slow clients").
func (a *App) httpServer(h http.Handler) *http.Server {
	return &http.Server{Handler: readDeadlines(h, a.Cfg.ReadTimeout), ReadHeaderTimeout: a.Cfg.ReadHeaderTimeout,
		ReadTimeout: a.Cfg.ReadTimeout, IdleTimeout: 120 * time.Second}
}

// readDeadlines bounds the reading of each request's body: by timeout plus one second per
// bodyMinRate bytes it declares, cleared once the body is read to its end. A request without a
// body (a WebSocket upgrade, a stream of server-sent events, any GET) has its deadline cleared
// at once: the server's ReadTimeout covered its headers, and the connection then lives as long
// as the handler keeps it (WebSockets are hijacked with no deadline left on them).
func readDeadlines(h http.Handler, timeout time.Duration) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rc := http.NewResponseController(w)
		if r.Body == nil || r.Body == http.NoBody || r.ContentLength == 0 || websocket.IsWebSocketUpgrade(r) {
			_ = rc.SetReadDeadline(time.Time{})
			h.ServeHTTP(w, r)
			return
		}
		d := timeout
		if r.ContentLength > 0 {
			d += time.Duration(r.ContentLength/bodyMinRate) * time.Second
		}
		_ = rc.SetReadDeadline(time.Now().Add(d))
		r.Body = &deadlineBody{ReadCloser: r.Body, clear: func() { _ = rc.SetReadDeadline(time.Time{}) }}
		h.ServeHTTP(w, r)
	})
}

// deadlineBody clears the read deadline once the body has been read to its end, so a handler
// that runs long after reading it (a command waiting for its device) is not cut.
type deadlineBody struct {
	io.ReadCloser
	clear func()
	once  sync.Once
}

func (b *deadlineBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err == io.EOF {
		b.once.Do(b.clear)
	}
	return n, err
}
