package httpapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"chargeops/internal/apperr"
)

// sseKeepAlive is how often an idle stream sends a comment line, so proxies keep it open.
const sseKeepAlive = 25 * time.Second

// sseSend writes one event of the stream.
type sseSend func(event string, v any)

// streamSSE answers with a text/event-stream until the request or the caller's session ends
// (session.Store.Watch: at once on logout, forced re-login or disable on this node, else at the
// store's next check). refresh, when set, runs first and then every recheck (when recheck > 0);
// each value from src goes to on.
func streamSSE[T any](s *Server, c *Ctx, src <-chan T, recheck time.Duration, refresh func(send sseSend), on func(v T, send sseSend)) (any, error) {
	fl, ok := c.W.(http.Flusher)
	if !ok {
		return nil, apperr.ErrInternal
	}
	ended, unwatch := s.Auth.Sessions.Watch(c.R.Context(), c.P.SessionID)
	defer unwatch()
	h := c.W.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	c.W.WriteHeader(http.StatusOK)
	fmt.Fprint(c.W, "retry: 5000\n: connected\n\n")
	send := func(event string, v any) {
		b, _ := json.Marshal(v)
		fmt.Fprintf(c.W, "event: %s\ndata: %s\n\n", event, b)
	}
	if refresh == nil {
		refresh = func(sseSend) {}
	}
	refresh(send)
	fl.Flush()
	var tick <-chan time.Time
	if recheck > 0 {
		t := time.NewTicker(recheck)
		defer t.Stop()
		tick = t.C
	}
	keep := time.NewTicker(sseKeepAlive)
	defer keep.Stop()
	for {
		select {
		case <-c.R.Context().Done():
			return nil, nil
		case <-ended:
			return nil, nil
		case <-keep.C:
			fmt.Fprint(c.W, ": keep-alive\n\n")
		case <-tick:
			refresh(send)
		case v := <-src:
			on(v, send)
		}
		fl.Flush()
	}
}
