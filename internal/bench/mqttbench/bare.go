package mqttbench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"sync/atomic"

	mochi "github.com/mochi-mqtt/server/v2"
	"github.com/mochi-mqtt/server/v2/listeners"
	"github.com/mochi-mqtt/server/v2/packets"

	"chargeops/internal/gateway/mqtt"
	"chargeops/internal/mqttwire"
)

// Bare is the broker alone, the peer of a chargeops node: the same mochi-mqtt server with the
// same options as chargeops' embedded broker (internal/gateway/mqtt.StartBroker: defaults, an
// inline client), every client and topic allowed, and an inline subscriber on
// chargeops/v1/+/telemetry that reads each payload and publishes its ack at once (QoS 1),
// storing nothing. Like chargeops' adapter, the subscriber runs in the publishing client's
// read loop.
type Bare struct {
	srv  *mochi.Server
	addr string
	// Telemetry counts the telemetry messages handled, Malformed those that were not a
	// telemetry payload (acked ok:false).
	Telemetry, Malformed atomic.Int64
}

// BareOptions configure the broker alone.
type BareOptions struct {
	Addr string // plain TCP listener (port 0: a free one)
	// ClientWritesPending, when set, replaces mochi's Capabilities.MaximumClientWritesPending (the
	// slots of each client's outbound channel; chargeops' broker has 128, mochi's default is
	// 8,192): an experiment on the broker's memory per connection, not the peer's setting.
	ClientWritesPending int32
	Log                 *slog.Logger
}

// StartBare starts the broker alone.
func StartBare(o BareOptions) (*Bare, error) {
	log := o.Log
	if log == nil {
		log = slog.Default()
	}
	addr := o.Addr
	srv := mqtt.NewMochi(log) // the embedded broker's own options
	if o.ClientWritesPending > 0 {
		srv.Options.Capabilities.MaximumClientWritesPending = o.ClientWritesPending
	}
	if err := srv.AddHook(new(allowAll), nil); err != nil {
		return nil, err
	}
	l := listeners.NewTCP(listeners.Config{ID: "tcp", Address: addr})
	if err := srv.AddListener(l); err != nil {
		return nil, fmt.Errorf("mqtt bare broker: listen on %s: %w", addr, err)
	}
	b := &Bare{srv: srv, addr: l.Address()}
	err := srv.Subscribe(mqttwire.Prefix+"+/"+mqttwire.KindTelemetry, 1, func(_ *mochi.Client, _ packets.Subscription, pk packets.Packet) {
		sn, _, _, _ := mqttwire.Parse(pk.TopicName)
		var t mqttwire.Telemetry
		ack := mqttwire.Ack{OK: true}
		if err := json.Unmarshal(pk.Payload, &t); err != nil || t.ID == "" || len(t.Readings) == 0 {
			ack = mqttwire.Ack{Error: "not a telemetry payload"}
			b.Malformed.Add(1)
		} else {
			b.Telemetry.Add(1)
		}
		ack.ID = t.ID
		out, _ := json.Marshal(ack)
		if err := srv.Publish(mqttwire.Topic(sn, mqttwire.KindAck), out, false, 1); err != nil {
			log.Warn("bare broker: ack not published", "sn", sn, "err", err)
		}
	})
	if err != nil {
		return nil, err
	}
	go func() {
		if err := srv.Serve(); err != nil {
			log.Error("bare broker stopped", "err", err)
		}
	}()
	return b, nil
}

// Addr is the listener's address.
func (b *Bare) Addr() string { return b.addr }

// Clients is the number of clients connected now (less the inline one).
func (b *Bare) Clients() int { return b.srv.Clients.Len() - 1 }

// Close ends every connection and the listener.
func (b *Bare) Close() error { return b.srv.Close() }

// RunBare runs the broker alone until ctx ends; ready is told its address.
func RunBare(ctx context.Context, o BareOptions, ready func(addr string)) error {
	b, err := StartBare(o)
	if err != nil {
		return err
	}
	if ready != nil {
		ready(b.Addr())
	}
	<-ctx.Done()
	slog.Info("bare broker stopping", "telemetry", b.Telemetry.Load(), "malformed", b.Malformed.Load())
	return b.Close()
}

// allowAll admits every client and allows every topic (mochi's hooks/auth.AllowHook, without
// that package's YAML dependency).
type allowAll struct{ mochi.HookBase }

func (h *allowAll) ID() string { return "allow-all" }

func (h *allowAll) Provides(b byte) bool {
	return bytes.Contains([]byte{mochi.OnConnectAuthenticate, mochi.OnACLCheck}, []byte{b})
}

func (h *allowAll) OnConnectAuthenticate(*mochi.Client, packets.Packet) bool { return true }

func (h *allowAll) OnACLCheck(*mochi.Client, string, bool) bool { return true }
