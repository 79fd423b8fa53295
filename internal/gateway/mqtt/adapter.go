// Package mqtt is the MQTT adapter of the fleet core (issue 26, docs/mqtt.md): storage units
// behind a site agent publish their status, readings and alarms in chargeops' topic scheme
// (internal/mqttwire), and take commands back. It feeds the same fleet.Core as the OCPP
// adapters, so devices, statuses, alarms, series, commands, protocol logs, notifications,
// dashboards, the OpenAPI and webhooks work for them unchanged.
//
// The broker is the embedded one (broker.go, mochi-mqtt) by default, or an external one
// (bus.go: Mosquitto, EMQX) shared by several nodes, whose shared subscriptions hand each
// message to one node.
package mqtt

import (
	"context"
	"encoding/json"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"chargeops/internal/fleet"
	"chargeops/internal/mqttwire"
)

// Options of the adapter.
type Options struct {
	// Node names this node in command reply topics (unique per node; the cluster node id).
	Node string
	// Shared subscribes with the external broker's shared subscriptions (several nodes).
	Shared bool
	// DeviceTTL is how long a device read from the database is used before it is read again
	// (a device disabled or blacklisted while no node holds its link stops being heard within
	// it; one held here is forgotten at once, as the core closes its link). Default 60 s.
	DeviceTTL time.Duration
	Log       *slog.Logger
}

// Adapter turns MQTT messages into fleet reports and fleet commands into MQTT messages.
type Adapter struct {
	core fleet.Core
	reg  fleet.Registry
	bus  Bus
	opt  Options
	log  *slog.Logger

	links   sync.Map // sn → *link held by this node
	devices deviceCache

	pendingMu sync.Mutex
	pending   map[string]chan mqttwire.CommandResult // command id → its waiter

	stats Stats
}

// Stats are the adapter's counters (/metrics, tests).
type Stats struct {
	Messages  atomic.Int64 // messages handled
	Readings  atomic.Int64 // readings stored
	Malformed atomic.Int64 // messages refused as malformed
	Unknown   atomic.Int64 // messages of devices that are not registered, disabled or blacklisted
}

// New makes the adapter; Start subscribes it.
func New(core fleet.Core, reg fleet.Registry, bus Bus, opt Options) *Adapter {
	if opt.DeviceTTL <= 0 {
		opt.DeviceTTL = time.Minute
	}
	if opt.Log == nil {
		opt.Log = slog.Default()
	}
	return &Adapter{core: core, reg: reg, bus: bus, opt: opt, log: opt.Log, pending: map[string]chan mqttwire.CommandResult{}}
}

// Stats returns the adapter's counters.
func (a *Adapter) Stats() *Stats { return &a.stats }

// Start subscribes to the devices' topics: status, telemetry and alarms once per cluster, and
// the command answers addressed to this node.
func (a *Adapter) Start() error {
	for _, kind := range []string{mqttwire.KindStatus, mqttwire.KindTelemetry, mqttwire.KindAlarms} {
		if err := a.bus.Subscribe(mqttwire.Prefix+"+/"+kind, a.opt.Shared, a.handle); err != nil {
			return err
		}
	}
	return a.bus.Subscribe(mqttwire.Prefix+"+/"+mqttwire.KindCmdRes+"/"+a.opt.Node, false, a.handle)
}

// Close ends this node's links (their devices are marked offline only by their last will or
// another node's adoption; a node going away does not say the devices went away).
func (a *Adapter) Close() {
	a.links.Range(func(k, v any) bool {
		l := v.(*link)
		a.core.Unregister(l.dev.SN, l)
		return true
	})
}

// handle is every subscribed message: logged, then handled by its kind.
func (a *Adapter) handle(topic string, payload []byte) {
	sn, kind, _, ok := mqttwire.Parse(topic)
	if !ok {
		return
	}
	a.stats.Messages.Add(1)
	ctx := context.Background()
	switch kind {
	case mqttwire.KindStatus:
		a.status(ctx, sn, payload)
	case mqttwire.KindTelemetry:
		a.telemetry(ctx, sn, payload)
	case mqttwire.KindAlarms:
		a.alarms(ctx, sn, payload)
	case mqttwire.KindCmdRes:
		a.commandResult(sn, payload)
	}
}

// logIn and logOut are the protocol-log rows of a message received or sent.
func (a *Adapter) logIn(sn, kind string, payload []byte) {
	a.core.Log(fleet.LogRow{SN: sn, Type: fleet.LogReceived, Data: kind + " " + string(payload)})
}

func (a *Adapter) logOut(sn, kind string, payload []byte) {
	a.core.Log(fleet.LogRow{SN: sn, Type: fleet.LogSent, Data: kind + " " + string(payload)})
}

// ack answers a telemetry or alarm message: stored, or refused with the reason.
func (a *Adapter) ack(ctx context.Context, sn, id string, err error) {
	ack := mqttwire.Ack{ID: id, OK: err == nil}
	if err != nil {
		ack.Error = err.Error()
	}
	b, _ := json.Marshal(ack)
	a.logOut(sn, mqttwire.KindAck, b)
	if perr := a.bus.Publish(ctx, mqttwire.Topic(sn, mqttwire.KindAck), b, false); perr != nil {
		a.log.Warn("mqtt ack not sent", "sn", sn, "id", id, "err", perr)
	}
}

// deviceCache keeps devices read by SN for a short time, so each message is not a query.
type deviceCache struct {
	mu sync.Mutex
	m  map[string]cachedDevice
}

type cachedDevice struct {
	dev         *fleet.Device // nil: not registered
	blacklisted bool
	at          time.Time
}

// device is sn's device (nil when it is not registered) and whether its SN is blacklisted,
// read again after opt.DeviceTTL: a unit's messages cost no query in between.
func (a *Adapter) device(ctx context.Context, sn string) (cachedDevice, error) {
	now := time.Now()
	a.devices.mu.Lock()
	c, ok := a.devices.m[sn]
	a.devices.mu.Unlock()
	if ok && now.Sub(c.at) < a.opt.DeviceTTL {
		return c, nil
	}
	dev, err := a.core.DeviceBySN(ctx, sn)
	if err != nil {
		return cachedDevice{}, err
	}
	black, err := a.core.Blacklisted(ctx, sn)
	if err != nil {
		return cachedDevice{}, err
	}
	c = cachedDevice{dev: dev, blacklisted: black, at: now}
	a.devices.mu.Lock()
	if a.devices.m == nil || len(a.devices.m) > 200_000 {
		a.devices.m = map[string]cachedDevice{}
	}
	a.devices.m[sn] = c
	a.devices.mu.Unlock()
	return c, nil
}

// forget drops sn from the device cache (a birth reads the device afresh).
func (a *Adapter) forget(sn string) {
	a.devices.mu.Lock()
	delete(a.devices.m, sn)
	a.devices.mu.Unlock()
}
