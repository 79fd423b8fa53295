package mqtt

import (
	"context"
	"crypto/tls"
	"fmt"
	"hash/fnv"
	"log/slog"
	"net/url"
	"sync"
	"time"

	"github.com/eclipse/paho.golang/autopaho"
	"github.com/eclipse/paho.golang/paho"
	mochi "github.com/mochi-mqtt/server/v2"
	"github.com/mochi-mqtt/server/v2/packets"

	"chargeops/internal/mqttwire"
)

// Bus is the adapter's side of a broker: the embedded one (its inline client) or an external
// one (a paho client). Handlers of one device's messages run in the order they were published.
type Bus interface {
	// Subscribe hands every message on filter to h; shared: once per cluster (an external
	// broker's shared subscription), not once per node.
	Subscribe(filter string, shared bool, h func(topic string, payload []byte)) error
	// Publish sends a QoS 1 message.
	Publish(ctx context.Context, topic string, payload []byte, retain bool) error
	Close() error
}

// sharedGroup is the shared-subscription group of every chargeops node ($share/chargeops/...).
const sharedGroup = "chargeops"

// inlineBus is the embedded broker's inline client: a handler runs in the publishing device's
// own read loop, so a device's messages are handled in order and a slow commit holds back only
// that device (as an OCPP socket is read one frame at a time).
type inlineBus struct {
	srv  *mochi.Server
	mu   sync.Mutex
	next int
}

func (b *inlineBus) Subscribe(filter string, _ bool, h func(string, []byte)) error {
	b.mu.Lock()
	b.next++
	id := b.next
	b.mu.Unlock()
	return b.srv.Subscribe(filter, id, func(_ *mochi.Client, _ packets.Subscription, pk packets.Packet) {
		h(pk.TopicName, pk.Payload)
	})
}

func (b *inlineBus) Publish(_ context.Context, topic string, payload []byte, retain bool) error {
	return b.srv.Publish(topic, payload, retain, 1)
}

func (b *inlineBus) Close() error { return nil }

// ExternalOptions connect the adapter to an external broker (Mosquitto, EMQX).
type ExternalOptions struct {
	URL      string // mqtt://host:1883 or mqtts://host:8883
	Username string
	Password string
	ClientID string      // unique per node
	TLS      *tls.Config // for mqtts://; nil: the system roots
	Log      *slog.Logger
}

// pahoBus is an external broker reached with paho (MQTT 5). Messages are handed to a fixed set
// of workers by device, so one device's stay in order while many devices are handled at once.
type pahoBus struct {
	cm      *autopaho.ConnectionManager
	mu      sync.RWMutex
	routes  []route
	workers []chan inbound
	subs    []*paho.Subscribe
	log     *slog.Logger
	cancel  context.CancelFunc
}

type route struct {
	filter string
	h      func(string, []byte)
}

type inbound struct {
	topic   string
	payload []byte
}

const (
	pahoWorkers   = 64
	pahoQueueSize = 256
)

// DialExternal connects to an external broker; it keeps reconnecting in the background and
// subscribes again after each connection.
func DialExternal(ctx context.Context, o ExternalOptions) (Bus, error) {
	u, err := url.Parse(o.URL)
	if err != nil {
		return nil, fmt.Errorf("mqtt: broker url %q: %w", o.URL, err)
	}
	ctx, cancel := context.WithCancel(ctx)
	b := &pahoBus{log: o.Log, cancel: cancel}
	for range pahoWorkers {
		ch := make(chan inbound, pahoQueueSize)
		b.workers = append(b.workers, ch)
		go b.work(ch)
	}
	cfg := autopaho.ClientConfig{
		ServerUrls:                    []*url.URL{u},
		KeepAlive:                     30,
		CleanStartOnInitialConnection: false,
		SessionExpiryInterval:         300, // the broker keeps this node's QoS 1 messages through a short outage
		ConnectUsername:               o.Username,
		ConnectPassword:               []byte(o.Password),
		ConnectRetryDelay:             time.Second,
		OnConnectionUp: func(cm *autopaho.ConnectionManager, _ *paho.Connack) {
			b.mu.RLock()
			subs := b.subs
			b.mu.RUnlock()
			for _, s := range subs {
				if _, err := cm.Subscribe(ctx, s); err != nil {
					b.log.Warn("mqtt subscribe failed", "filters", s.Subscriptions, "err", err)
				}
			}
			b.log.Info("mqtt broker connected", "url", o.URL)
		},
		OnConnectError: func(err error) { b.log.Warn("mqtt broker connection failed", "url", o.URL, "err", err) },
		ClientConfig: paho.ClientConfig{
			ClientID: o.ClientID,
			OnPublishReceived: []func(paho.PublishReceived) (bool, error){
				func(pr paho.PublishReceived) (bool, error) {
					b.dispatch(pr.Packet.Topic, pr.Packet.Payload)
					return true, nil
				},
			},
		},
	}
	cfg.TlsCfg = o.TLS
	cm, err := autopaho.NewConnection(ctx, cfg)
	if err != nil {
		cancel()
		return nil, fmt.Errorf("mqtt: connect to %s: %w", o.URL, err)
	}
	b.cm = cm
	return b, nil
}

// dispatch queues a message on its device's worker (blocking when that worker is full: the
// broker then holds back this node's messages, the back-pressure of the embedded bus).
func (b *pahoBus) dispatch(topic string, payload []byte) {
	sn, _, _, _ := mqttwire.Parse(topic)
	h := fnv.New32a()
	_, _ = h.Write([]byte(sn))
	b.workers[h.Sum32()%uint32(len(b.workers))] <- inbound{topic, payload}
}

func (b *pahoBus) work(ch chan inbound) {
	for m := range ch {
		b.mu.RLock()
		routes := b.routes
		b.mu.RUnlock()
		for _, r := range routes {
			if matches(r.filter, m.topic) {
				r.h(m.topic, m.payload)
			}
		}
	}
}

func (b *pahoBus) Subscribe(filter string, shared bool, h func(string, []byte)) error {
	sub := filter
	if shared {
		sub = "$share/" + sharedGroup + "/" + filter
	}
	s := &paho.Subscribe{Subscriptions: []paho.SubscribeOptions{{Topic: sub, QoS: 1}}}
	b.mu.Lock()
	b.routes = append(b.routes, route{filter, h})
	b.subs = append(b.subs, s)
	b.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := b.cm.AwaitConnection(ctx); err != nil {
		return nil // subscribed on the next connection (OnConnectionUp)
	}
	if _, err := b.cm.Subscribe(ctx, s); err != nil {
		return fmt.Errorf("mqtt: subscribe %s: %w", sub, err)
	}
	return nil
}

func (b *pahoBus) Publish(ctx context.Context, topic string, payload []byte, retain bool) error {
	_, err := b.cm.Publish(ctx, &paho.Publish{Topic: topic, Payload: payload, QoS: 1, Retain: retain})
	if err != nil {
		return fmt.Errorf("mqtt: publish %s: %w", topic, err)
	}
	return nil
}

func (b *pahoBus) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := b.cm.Disconnect(ctx)
	b.cancel()
	return err
}

// matches reports whether topic matches an MQTT filter (+ one level, # the rest).
func matches(filter, topic string) bool {
	for {
		f, fr, fmore := cut(filter)
		if f == "#" {
			return true
		}
		t, tr, tmore := cut(topic)
		if f != "+" && f != t {
			return false
		}
		if !fmore || !tmore {
			return !fmore && !tmore
		}
		filter, topic = fr, tr
	}
}

func cut(s string) (head, rest string, more bool) {
	for i := 0; i < len(s); i++ {
		if s[i] == '/' {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}
