package mqtt

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"log/slog"
	"net"
	"sync/atomic"
	"time"

	mochi "github.com/mochi-mqtt/server/v2"
	"github.com/mochi-mqtt/server/v2/listeners"
	"github.com/mochi-mqtt/server/v2/packets"

	"chargeops/internal/mqttwire"
)

// Broker is the embedded MQTT broker (mochi-mqtt, docs/mqtt.md "Brokers"): the one binary
// serves storage units itself, as it serves OCPP chargers. Devices sign in through Admission;
// each may publish and subscribe only its own topics (mqttwire.MayPublish, MaySubscribe).
// chargeops' own adapter is the broker's inline client, so it needs no credentials or socket.
type Broker struct {
	srv  *mochi.Server
	addr string
	tls  string
	// Refused counts CONNECTs refused and publishes or subscriptions outside a device's topics.
	Refused atomic.Int64
}

// BrokerOptions are the embedded broker's listeners and admission.
type BrokerOptions struct {
	Addr      string      // plain TCP listener ("" none), e.g. ":1883"
	TLSAddr   string      // TLS listener ("" none), e.g. ":8883"
	TLSConfig *tls.Config // its certificates; client certificates are asked for, not required
	Admission *Admission
	Log       *slog.Logger
}

// StartBroker starts the embedded broker's listeners.
func StartBroker(o BrokerOptions) (*Broker, error) {
	srv := NewMochi(o.Log)
	b := &Broker{srv: srv}
	if err := srv.AddHook(&authHook{b: b, adm: o.Admission, log: o.Log}, nil); err != nil {
		return nil, fmt.Errorf("mqtt: broker hook: %w", err)
	}
	if o.Addr != "" {
		l := listeners.NewTCP(listeners.Config{ID: "tcp", Address: o.Addr})
		if err := srv.AddListener(l); err != nil {
			return nil, fmt.Errorf("mqtt: listen on %s (--mqtt-addr): %w", o.Addr, err)
		}
		b.addr = l.Address()
	}
	if o.TLSAddr != "" {
		tc := o.TLSConfig.Clone()
		tc.ClientAuth = tls.RequestClientCert // checked by Admission against the charge-point CA
		l := listeners.NewTCP(listeners.Config{ID: "tls", Address: o.TLSAddr, TLSConfig: tc})
		if err := srv.AddListener(l); err != nil {
			return nil, fmt.Errorf("mqtt: listen on %s (--mqtt-tls-addr): %w", o.TLSAddr, err)
		}
		b.tls = l.Address()
	}
	go func() {
		if err := srv.Serve(); err != nil {
			o.Log.Error("mqtt broker stopped", "err", err)
		}
	}()
	return b, nil
}

// Addr is the plain listener's address ("" none); TLSAddr the TLS one's.
func (b *Broker) Addr() string    { return b.addr }
func (b *Broker) TLSAddr() string { return b.tls }

// Bus is the adapter's side of the embedded broker.
func (b *Broker) Bus() Bus { return &inlineBus{srv: b.srv} }

// Clients is the number of devices connected now.
func (b *Broker) Clients() int { return b.srv.Clients.Len() - 1 } // less the inline client

// Close ends every device connection (their last wills are published) and the listeners.
func (b *Broker) Close() error { return b.srv.Close() }

// authHook is the broker's admission and ACL.
type authHook struct {
	mochi.HookBase
	b   *Broker
	adm *Admission
	log *slog.Logger
}

func (h *authHook) ID() string { return "chargeops-auth" }

func (h *authHook) Provides(b byte) bool {
	return bytes.Contains([]byte{mochi.OnConnectAuthenticate, mochi.OnACLCheck}, []byte{b})
}

// admissionTimeout bounds a CONNECT's database work.
const admissionTimeout = 10 * time.Second

func (h *authHook) OnConnectAuthenticate(cl *mochi.Client, pk packets.Packet) bool {
	ctx, cancel := context.WithTimeout(context.Background(), admissionTimeout)
	defer cancel()
	var chain []*x509.Certificate
	if tc, ok := cl.Net.Conn.(*tls.Conn); ok {
		chain = tc.ConnectionState().PeerCertificates
	}
	sn := string(pk.Connect.Username)
	ok := h.adm.Admit(ctx, sn, pk.Connect.Password, chain, hostOf(cl.Net.Remote))
	if !ok {
		h.b.Refused.Add(1)
	}
	return ok
}

func (h *authHook) OnACLCheck(cl *mochi.Client, topic string, write bool) bool {
	sn := string(cl.Properties.Username)
	var ok bool
	if write {
		ok = mqttwire.MayPublish(sn, topic)
	} else {
		ok = mqttwire.MaySubscribe(sn, topic)
	}
	if !ok {
		h.b.Refused.Add(1)
		h.log.Info("mqtt topic refused", "sn", sn, "topic", topic, "write", write)
	}
	return ok
}

func hostOf(remote string) string {
	if h, _, err := net.SplitHostPort(remote); err == nil {
		return h
	}
	return remote
}

// NewMochi is a mochi server with the embedded broker's options (the bench's broker alone uses
// the same): an inline client for the adapter, its log at errors only (each refused CONNECT and
// closed socket is a warning there; Admission and the ACL log them once, with the device's SN),
// and a short write queue per device.
func NewMochi(log *slog.Logger) *mochi.Server {
	caps := mochi.NewDefaultServerCapabilities()
	// what the broker sends a device is acks and commands, a few at a time: mochi's default
	// queue of 8,192 writes per client holds 64 KiB per device (docs/benchmarks.md, "Storage
	// units over MQTT")
	caps.MaximumClientWritesPending = clientWritesPending
	quiet := slog.New(errorsOnly{log.Handler()}).With("component", "mqtt-broker")
	return mochi.New(&mochi.Options{InlineClient: true, Logger: quiet, Capabilities: caps})
}

// clientWritesPending bounds the messages queued to one device.
const clientWritesPending = 128

// errorsOnly passes on a handler's records of level error and above (also of the handlers its
// With and WithGroup return, as mochi's logger adds attributes).
type errorsOnly struct{ slog.Handler }

func (h errorsOnly) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= slog.LevelError && h.Handler.Enabled(ctx, l)
}

func (h errorsOnly) WithAttrs(as []slog.Attr) slog.Handler {
	return errorsOnly{h.Handler.WithAttrs(as)}
}

func (h errorsOnly) WithGroup(name string) slog.Handler { return errorsOnly{h.Handler.WithGroup(name)} }
