package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/eclipse/paho.golang/autopaho"
	"github.com/eclipse/paho.golang/paho"

	"chargeops/internal/mqttwire"
)

// clientConfig is the unit's MQTT v5 connection: the SN and key as credentials, the offline
// status as last will, and callbacks that only record state (autopaho's callbacks must not
// block; send does the work).
func (u *unit) clientConfig() autopaho.ClientConfig {
	sn := u.cfg.SN
	will, _ := json.Marshal(mqttwire.Status{Online: false})
	backoff := autopaho.NewExponentialBackoff(time.Second, 2*time.Minute, 5*time.Second, 1.5)
	if u.opts.ReconnectDelay > 0 {
		backoff = autopaho.NewConstantBackoff(u.opts.ReconnectDelay)
	}
	var failing atomic.Bool // log the first failed attempt of an outage, not every retry
	return autopaho.ClientConfig{
		ServerUrls:                    u.brokers,
		TlsCfg:                        u.tls,
		KeepAlive:                     30,
		CleanStartOnInitialConnection: true, // the agent resubscribes and resends on every connection
		ReconnectBackoff:              backoff,
		ConnectTimeout:                u.opts.connectTimeout,
		ConnectUsername:               sn,
		ConnectPassword:               []byte(u.cfg.Key),
		// No will delay: chargeops should see a lost gateway at once.
		WillMessage:    &paho.WillMessage{Topic: mqttwire.Topic(sn, mqttwire.KindStatus), Payload: will, QoS: 1, Retain: true},
		WillProperties: &paho.WillProperties{},
		OnConnectionUp: func(*autopaho.ConnectionManager, *paho.Connack) {
			failing.Store(false)
			u.log.Info("agent: connected to chargeops")
			u.setUp(true)
		},
		OnConnectionDown: func() bool {
			u.log.Warn("agent: connection to chargeops lost")
			u.setUp(false)
			return true
		},
		OnConnectError: func(err error) {
			if !failing.Swap(true) {
				u.log.Warn("agent: cannot connect to chargeops; retrying", "err", err)
			} else {
				u.log.Debug("agent: cannot connect to chargeops", "err", err)
			}
		},
		ClientConfig: paho.ClientConfig{
			ClientID:          Name + "-" + sn,
			OnPublishReceived: []func(paho.PublishReceived) (bool, error){u.received},
		},
	}
}

// received files an incoming ack or command; it runs on paho's reading goroutine, so it
// never blocks (a publish waiting for its PUBACK would wait on it).
func (u *unit) received(pr paho.PublishReceived) (bool, error) {
	p := pr.Packet
	switch p.Topic {
	case mqttwire.Topic(u.cfg.SN, mqttwire.KindAck):
		var a mqttwire.Ack
		if err := json.Unmarshal(p.Payload, &a); err != nil || a.ID == "" {
			u.log.Warn("agent: unreadable ack ignored", "err", err)
			return true, nil
		}
		u.ackMu.Lock()
		u.acks = append(u.acks, a)
		u.ackMu.Unlock()
		u.poke()
	case mqttwire.Topic(u.cfg.SN, mqttwire.KindCmd):
		var c mqttwire.Command
		if err := json.Unmarshal(p.Payload, &c); err != nil || c.ID == "" {
			u.log.Warn("agent: unreadable command ignored", "err", err)
			return true, nil
		}
		select {
		case u.cmds <- c:
		default:
			u.log.Warn("agent: command dropped: too many waiting", "id", c.ID, "name", c.Name)
		}
	default:
		return false, nil
	}
	return true, nil
}

// onConnected is what every (re)connection starts with: subscribe to commands and acks, the
// birth, then the full alarm report; send resends the unacknowledged telemetry after it.
func (u *unit) onConnected(ctx context.Context) {
	sn := u.cfg.SN
	sctx, cancel := context.WithTimeout(ctx, publishTimeout)
	stop := context.AfterFunc(u.connection(), cancel)
	_, err := u.cm.Subscribe(sctx, &paho.Subscribe{Subscriptions: []paho.SubscribeOptions{
		{Topic: mqttwire.Topic(sn, mqttwire.KindCmd), QoS: 1},
		{Topic: mqttwire.Topic(sn, mqttwire.KindAck), QoS: 1},
	}})
	stop()
	cancel()
	if err != nil {
		u.log.Error("agent: subscribe to commands and acks", "err", err)
	}
	u.publishBirth(ctx)
	u.alarms.connected(u.opts.Now())
}

// publishBirth publishes the retained online status with the unit's attributes (none until
// the unit has been discovered; a later discovery publishes the birth again).
func (u *unit) publishBirth(ctx context.Context) {
	u.birthStale.Store(false)
	st := mqttwire.Status{Online: true, TS: u.opts.Now().UnixMilli(), Attributes: u.attrs.Load()}
	if err := u.publish(ctx, mqttwire.Topic(u.cfg.SN, mqttwire.KindStatus), st, true); err != nil {
		u.log.Warn("agent: birth not published", "err", err)
		u.birthStale.Store(true)
	}
}

// publish sends v as JSON with QoS 1 and waits for the broker's PUBACK.
func (u *unit) publish(ctx context.Context, topic string, v any, retain bool) error {
	payload, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("agent: encode %s: %w", topic, err)
	}
	ctx, cancel := context.WithTimeout(ctx, publishTimeout)
	defer cancel()
	defer context.AfterFunc(u.connection(), cancel)()
	if _, err := u.cm.Publish(ctx, &paho.Publish{Topic: topic, QoS: 1, Retain: retain, Payload: payload}); err != nil {
		return fmt.Errorf("agent: publish %s: %w", topic, err)
	}
	return nil
}
