package ocpp16

import (
	"math/rand/v2"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"
)

// One goroutine pings every connection of the gateway, each about once per PingInterval, instead
// of a pinger goroutine (and its stack) per socket: idle connections cost only their buffers
// and their reading goroutine (docs/benchmarks.md, memory per connection).

// pingTick is how often the pinger looks for connections due a ping (more often when the ping
// interval is shorter than a few ticks).
func (g *Gateway) pingTick() time.Duration {
	return max(min(time.Second, g.opt.PingInterval/4), 10*time.Millisecond)
}

// pingDue is a connection's next ping time (unix ns), spread with jitter so that a reconnect
// storm does not become a ping storm.
type pingDue struct{ at atomic.Int64 }

func (p *pingDue) schedule(now time.Time, every time.Duration) {
	jitter := time.Duration(rand.Int64N(int64(every/4) + 1))
	p.at.Store(now.Add(every - every/8 + jitter).UnixNano())
}

// pinger runs until done is closed.
func (g *Gateway) pinger(done <-chan struct{}) {
	t := time.NewTicker(g.pingTick())
	defer t.Stop()
	for {
		select {
		case <-done:
			return
		case now := <-t.C:
			g.pingDue(now)
		}
	}
}

// pingDue pings the connections whose time has come; a ping that cannot be written within the
// deadline ends its connection.
func (g *Gateway) pingDue(now time.Time) {
	deadline := min(g.opt.WriteTimeout, time.Second)
	g.conns.Range(func(k, _ any) bool {
		c := k.(*conn)
		if c.nextPing.at.Load() > now.UnixNano() {
			return true
		}
		c.nextPing.schedule(now, g.opt.PingInterval)
		if err := c.ws.WriteControl(websocket.PingMessage, nil, time.Now().Add(deadline)); err != nil {
			go c.Close("ping failed")
		}
		return true
	})
}
