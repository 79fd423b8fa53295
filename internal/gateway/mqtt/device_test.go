package mqtt_test

import (
	"context"
	"encoding/json"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/eclipse/paho.golang/paho"

	"chargeops/internal/mqttwire"
)

// device is a storage unit in a test: a paho client (not chargeops' code) speaking the
// scheme of docs/mqtt.md, with what chargeops sent it collected by topic.
type device struct {
	t    *testing.T
	sn   string
	c    *paho.Client
	conn net.Conn
	mu   sync.Mutex
	got  map[string][][]byte
	// answer, when set, answers each command it is sent
	answer func(mqttwire.Command) mqttwire.CommandResult
}

// dial connects as sn with password key; ok false when the broker refused the CONNECT.
func dial(t *testing.T, addr, sn, key string) (*device, bool) {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	return connect(t, conn, sn, key)
}

// connect speaks MQTT as sn over conn (plain or TLS); key "" sends no password.
func connect(t *testing.T, conn net.Conn, sn, key string) (*device, bool) {
	t.Helper()
	d := &device{t: t, sn: sn, conn: conn, got: map[string][][]byte{}}
	d.c = paho.NewClient(paho.ClientConfig{Conn: conn, OnPublishReceived: []func(paho.PublishReceived) (bool, error){
		func(pr paho.PublishReceived) (bool, error) {
			d.mu.Lock()
			d.got[pr.Packet.Topic] = append(d.got[pr.Packet.Topic], pr.Packet.Payload)
			answer := d.answer
			d.mu.Unlock()
			if answer != nil && pr.Packet.Topic == mqttwire.Topic(sn, mqttwire.KindCmd) {
				var cmd mqttwire.Command
				if err := json.Unmarshal(pr.Packet.Payload, &cmd); err == nil {
					go d.publish(cmd.ReplyTo, answer(cmd), false)
				}
			}
			return true, nil
		},
	}})
	will, _ := json.Marshal(mqttwire.Status{Online: false})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ack, err := d.c.Connect(ctx, &paho.Connect{KeepAlive: 30, ClientID: "dev-" + sn, CleanStart: true,
		UsernameFlag: true, Username: sn, PasswordFlag: key != "", Password: []byte(key),
		WillMessage: &paho.WillMessage{Topic: mqttwire.Topic(sn, mqttwire.KindStatus), Payload: will, QoS: 1, Retain: true}})
	if err != nil || ack.ReasonCode != 0 {
		conn.Close()
		return nil, false
	}
	t.Cleanup(func() { conn.Close() })
	if _, err := d.c.Subscribe(ctx, &paho.Subscribe{Subscriptions: []paho.SubscribeOptions{
		{Topic: mqttwire.Topic(sn, mqttwire.KindCmd), QoS: 1}, {Topic: mqttwire.Topic(sn, mqttwire.KindAck), QoS: 1}}}); err != nil {
		t.Fatal(err)
	}
	return d, true
}

// publish sends v (a payload struct, or raw bytes) to topic with QoS 1; the PUBACK's reason
// code is returned (0 accepted, 135 not authorised).
func (d *device) publish(topic string, v any, retain bool) byte {
	payload, ok := v.([]byte)
	if !ok {
		payload, _ = json.Marshal(v)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := d.c.Publish(ctx, &paho.Publish{Topic: topic, Payload: payload, QoS: 1, Retain: retain})
	if err != nil {
		if res != nil {
			return res.ReasonCode
		}
		return 255
	}
	return res.ReasonCode
}

// birth says the unit is online, with its attributes.
func (d *device) birth() {
	d.publish(mqttwire.Topic(d.sn, mqttwire.KindStatus), mqttwire.Status{Online: true, TS: time.Now().UnixMilli(),
		Attributes: &mqttwire.Attributes{Vendor: "TestESS", Model: "B100", Firmware: "1.2.3", CapacityWh: 200000, RatedPowerW: 100000}}, true)
}

// acks are the acknowledgements chargeops sent, by message id.
func (d *device) acks() map[string]mqttwire.Ack {
	d.mu.Lock()
	defer d.mu.Unlock()
	out := map[string]mqttwire.Ack{}
	for _, b := range d.got[mqttwire.Topic(d.sn, mqttwire.KindAck)] {
		var a mqttwire.Ack
		_ = json.Unmarshal(b, &a)
		out[a.ID] = a
	}
	return out
}

// waitAck waits for the ack of message id.
func (d *device) waitAck(id string) mqttwire.Ack {
	d.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if a, ok := d.acks()[id]; ok {
			return a
		}
		time.Sleep(10 * time.Millisecond)
	}
	d.t.Fatalf("%s: no ack of %s", d.sn, id)
	return mqttwire.Ack{}
}

// drop ends the connection without a DISCONNECT: the broker publishes the last will.
func (d *device) drop() { d.conn.Close() }
