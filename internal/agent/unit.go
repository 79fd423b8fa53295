package agent

import (
	"context"
	"crypto/tls"
	"fmt"
	"log/slog"
	"net/url"
	"sync"
	"sync/atomic"
	"time"

	"github.com/eclipse/paho.golang/autopaho"

	"chargeops/internal/mqttwire"
)

// How long the agent waits on a broker round trip or a unit, before it tries again later.
const (
	modbusTimeout  = 5 * time.Second  // one Modbus request (DialModbus)
	readTimeout    = 30 * time.Second // one whole read of a unit (several requests)
	publishTimeout = 10 * time.Second // one PUBLISH until its PUBACK
	goodbyeTimeout = 5 * time.Second  // the offline status and DISCONNECT at shutdown
)

// unitDeps is what the agent hands every unit.
type unitDeps struct {
	log     *slog.Logger
	opts    Options
	brokers []*url.URL
	tls     *tls.Config
	buf     *buffer
	started time.Time // makes alarm report ids unique across restarts
}

// unit is one storage unit with its own MQTT connection. Three goroutines: poll reads the
// unit into the buffer, send is the only one that publishes telemetry and alarms, and
// commands runs chargeops' commands one at a time.
type unit struct {
	unitDeps
	cfg    UnitConfig
	dev    device
	alarms alarmState
	cm     *autopaho.ConnectionManager

	wake chan struct{} // cap 1: send has something to look at

	connMu     sync.Mutex
	up         bool
	upGen      uint64          // counts connections, so send runs the connect sequence once for each
	connCtx    context.Context // ends when the current connection does (ended while down)
	connCancel context.CancelFunc

	ackMu sync.Mutex
	acks  []mqttwire.Ack // received, not yet handled by send

	cmds    chan mqttwire.Command
	results resultCache

	attrs      atomic.Pointer[mqttwire.Attributes]
	birthStale atomic.Bool // attrs changed since the last birth

	published, acked, dropped atomic.Uint64
	dropLogged                time.Time // poll's: when a full buffer was last logged
}

func newUnit(cfg UnitConfig, d unitDeps) *unit {
	u := &unit{
		unitDeps: d,
		cfg:      cfg,
		wake:     make(chan struct{}, 1),
		cmds:     make(chan mqttwire.Command, 32),
	}
	u.dev.dial = func(ctx context.Context) (Source, error) { return d.opts.Dial(ctx, cfg) }
	u.alarms.idPrefix = cfg.SN + "-alarms-" + formatMillis(d.started) + "-"
	return u
}

// run runs the unit until ctx ends, then says goodbye. The MQTT connection lives on its own
// context so it outlasts ctx for the offline status.
func (u *unit) run(ctx context.Context) error {
	defer u.buf.close()
	defer u.dev.close()
	connCtx, cancelConn := context.WithCancel(context.WithoutCancel(ctx))
	defer cancelConn()
	cm, err := autopaho.NewConnection(connCtx, u.clientConfig())
	if err != nil {
		return fmt.Errorf("agent: unit %s: connect: %w", u.cfg.SN, err)
	}
	u.cm = cm
	var wg sync.WaitGroup
	wg.Go(func() { u.poll(ctx) })
	wg.Go(func() { u.send(ctx) })
	wg.Go(func() { u.commands(ctx) })
	wg.Wait()

	bye, cancel := context.WithTimeout(context.WithoutCancel(ctx), goodbyeTimeout)
	defer cancel()
	if up, _ := u.connState(); up {
		if err := u.publish(bye, mqttwire.Topic(u.cfg.SN, mqttwire.KindStatus), mqttwire.Status{Online: false, TS: u.opts.Now().UnixMilli()}, true); err != nil {
			u.log.Warn("agent: offline status not published", "err", err)
		}
	}
	if err := cm.Disconnect(bye); err != nil {
		u.log.Warn("agent: disconnect", "err", err)
	}
	u.log.Info("agent: unit stopped", "buffered", u.buf.len())
	return nil
}

func (u *unit) stats() Stats {
	up, _ := u.connState()
	return Stats{
		Buffered:  u.buf.len(),
		Published: u.published.Load(),
		Acked:     u.acked.Load(),
		Dropped:   u.dropped.Load(),
		Connected: up,
	}
}

// poke wakes send without blocking (a wake already pending covers this one).
func (u *unit) poke() {
	select {
	case u.wake <- struct{}{}:
	default:
	}
}

func (u *unit) connState() (up bool, gen uint64) {
	u.connMu.Lock()
	defer u.connMu.Unlock()
	return u.up, u.upGen
}

// setUp records the connection coming up or going down (from autopaho's callbacks).
func (u *unit) setUp(up bool) {
	u.connMu.Lock()
	u.up = up
	if u.connCancel != nil {
		u.connCancel()
	}
	u.connCtx, u.connCancel = context.WithCancel(context.Background())
	if up {
		u.upGen++
	} else {
		u.connCancel()
	}
	u.connMu.Unlock()
	u.poke()
}

// connection is the context of the current connection: a publish waiting for its PUBACK ends
// with it (paho drops an unacknowledged message from its session when the connection goes,
// without telling the publish waiting for it).
func (u *unit) connection() context.Context {
	u.connMu.Lock()
	defer u.connMu.Unlock()
	if u.connCtx == nil {
		ctx, cancel := context.WithCancel(context.Background())
		cancel() // never connected
		return ctx
	}
	return u.connCtx
}

// takeAcks returns the acks received since the last call.
func (u *unit) takeAcks() []mqttwire.Ack {
	u.ackMu.Lock()
	defer u.ackMu.Unlock()
	a := u.acks
	u.acks = nil
	return a
}

// setAttributes records what Discover found; a change is published as a new birth.
func (u *unit) setAttributes(a mqttwire.Attributes) {
	a.Agent = Name + "/" + u.opts.Version
	if old := u.attrs.Load(); old != nil && *old == a {
		return
	}
	u.attrs.Store(&a)
	u.birthStale.Store(true)
	u.poke()
}
