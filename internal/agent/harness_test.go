package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	mqtt "github.com/mochi-mqtt/server/v2"
	"github.com/mochi-mqtt/server/v2/listeners"
	"github.com/mochi-mqtt/server/v2/packets"

	"chargeops/internal/ess"
	"chargeops/internal/mqttwire"
)

// The tests' unit and its credentials.
const (
	testSN  = "ESS-TEST-01"
	testKey = "key-of-ESS-TEST-01"
)

// cloud plays chargeops on a real MQTT broker (mochi-mqtt, embedded): it admits the unit by its
// SN and key with chargeops' ACL (mqttwire.MayPublish/MaySubscribe), records every message of
// the scheme in arrival order, acks telemetry and alarm reports by a policy, and sends
// commands. Its record outlives a broker restart (stop, start on the same address).
type cloud struct {
	t    *testing.T
	addr string

	mu     sync.Mutex
	srv    *mqtt.Server
	msgs   []wireMsg
	policy func(kind, id string) *mqttwire.Ack // nil answer: no ack (held)
	held   []string                            // telemetry ids not acked while held
	acks   chan func()
	logins []string // client ids that connected
}

type wireMsg struct {
	topic   string
	payload []byte
}

// newCloud starts a broker on a free port of 127.0.0.1 that acks everything.
func newCloud(t *testing.T) *cloud { return newCloudAt(t, "127.0.0.1:0") }

// newCloudAt starts the broker on addr.
func newCloudAt(t *testing.T, addr string) *cloud {
	c := &cloud{t: t, addr: addr, acks: make(chan func(), 4096)}
	c.policy = ackAll
	c.start()
	done := make(chan struct{})
	go func() { // acks are sent from here, not from the broker's delivery path
		for {
			select {
			case f := <-c.acks:
				f()
			case <-done:
				return
			}
		}
	}()
	t.Cleanup(func() { close(done); c.stop() })
	return c
}

func ackAll(kind, id string) *mqttwire.Ack { return &mqttwire.Ack{ID: id, OK: true} }

// start starts the broker (again) on c.addr.
func (c *cloud) start() {
	c.t.Helper()
	srv := mqtt.New(&mqtt.Options{InlineClient: true, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err := srv.AddHook(&unitAuth{c: c}, nil); err != nil {
		c.t.Fatal(err)
	}
	ln := listeners.NewTCP(listeners.Config{ID: "t", Address: c.addr})
	var err error
	for range 50 { // the old listener's port may take a moment to be free
		if err = srv.AddListener(ln); err == nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil {
		c.t.Fatalf("broker listen %s: %v", c.addr, err)
	}
	if err := srv.Serve(); err != nil {
		c.t.Fatal(err)
	}
	if err := srv.Subscribe(mqttwire.Prefix+"#", 1, c.onMessage); err != nil {
		c.t.Fatal(err)
	}
	c.mu.Lock()
	c.srv = srv
	c.addr = ln.Address()
	c.mu.Unlock()
}

// stop stops the broker (clients see their connection drop).
func (c *cloud) stop() {
	c.mu.Lock()
	srv := c.srv
	c.srv = nil
	c.mu.Unlock()
	if srv != nil {
		_ = srv.Close()
	}
}

func (c *cloud) url() string { return "mqtt://" + c.addr }

func (c *cloud) onMessage(_ *mqtt.Client, _ packets.Subscription, pk packets.Packet) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.msgs = append(c.msgs, wireMsg{topic: pk.TopicName, payload: bytes.Clone(pk.Payload)})
	sn, kind, _, ok := mqttwire.Parse(pk.TopicName)
	if !ok || kind != mqttwire.KindTelemetry && kind != mqttwire.KindAlarms {
		return
	}
	var m struct{ ID string }
	if json.Unmarshal(pk.Payload, &m) != nil {
		c.t.Errorf("%s: unreadable payload %s", pk.TopicName, pk.Payload)
		return
	}
	a := c.policy(kind, m.ID)
	if a == nil {
		c.held = append(c.held, m.ID)
		return
	}
	c.acks <- func() { c.publish(mqttwire.Topic(sn, mqttwire.KindAck), a) }
}

// setPolicy changes how chargeops acks from now on.
func (c *cloud) setPolicy(p func(kind, id string) *mqttwire.Ack) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.policy = p
}

// release acks the held messages and acks everything from now on.
func (c *cloud) release(sn string) {
	c.mu.Lock()
	held := c.held
	c.held, c.policy = nil, ackAll
	c.mu.Unlock()
	for _, id := range held {
		c.publish(mqttwire.Topic(sn, mqttwire.KindAck), mqttwire.Ack{ID: id, OK: true})
	}
}

// publish sends v as chargeops (QoS 1); a stopped broker drops it, as a real outage would.
func (c *cloud) publish(topic string, v any) {
	payload, err := json.Marshal(v)
	if err != nil {
		c.t.Error(err)
		return
	}
	c.mu.Lock()
	srv := c.srv
	c.mu.Unlock()
	if srv != nil {
		_ = srv.Publish(topic, payload, false, 1)
	}
}

// locked runs f under the cloud's lock (the lock its ack policies run under).
func (c *cloud) locked(f func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	f()
}

func (c *cloud) command(sn string, cmd mqttwire.Command) {
	c.publish(mqttwire.Topic(sn, mqttwire.KindCmd), cmd)
}

// retained is the retained payload on topic (nil when none).
func (c *cloud) retained(topic string) []byte {
	c.mu.Lock()
	srv := c.srv
	c.mu.Unlock()
	for _, pk := range srv.Topics.Messages(topic) {
		return pk.Payload
	}
	return nil
}

// messages are the payloads received on topic, in order.
func (c *cloud) messages(topic string) [][]byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out [][]byte
	for _, m := range c.msgs {
		if m.topic == topic {
			out = append(out, m.payload)
		}
	}
	return out
}

func (c *cloud) telemetry(sn string) []mqttwire.Telemetry {
	var out []mqttwire.Telemetry
	for _, p := range c.messages(mqttwire.Topic(sn, mqttwire.KindTelemetry)) {
		var m mqttwire.Telemetry
		if err := json.Unmarshal(p, &m); err != nil {
			c.t.Errorf("telemetry %s: %v", p, err)
		}
		out = append(out, m)
	}
	return out
}

func (c *cloud) alarmReports(sn string) []mqttwire.AlarmReport {
	var out []mqttwire.AlarmReport
	for _, p := range c.messages(mqttwire.Topic(sn, mqttwire.KindAlarms)) {
		var m mqttwire.AlarmReport
		if err := json.Unmarshal(p, &m); err != nil {
			c.t.Errorf("alarms %s: %v", p, err)
		}
		out = append(out, m)
	}
	return out
}

func (c *cloud) statuses(sn string) []mqttwire.Status {
	var out []mqttwire.Status
	for _, p := range c.messages(mqttwire.Topic(sn, mqttwire.KindStatus)) {
		var m mqttwire.Status
		if err := json.Unmarshal(p, &m); err != nil {
			c.t.Errorf("status %s: %v", p, err)
		}
		out = append(out, m)
	}
	return out
}

// answer is one command result and the topic it came on.
type answer struct {
	topic string
	res   mqttwire.CommandResult
}

// answers are the command results received on any unit's answer topic, in order.
func (c *cloud) answers() []answer {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []answer
	for _, m := range c.msgs {
		if _, kind, _, _ := mqttwire.Parse(m.topic); kind != mqttwire.KindCmdRes {
			continue
		}
		var r mqttwire.CommandResult
		if err := json.Unmarshal(m.payload, &r); err != nil {
			c.t.Errorf("answer %s: %v", m.payload, err)
		}
		out = append(out, answer{m.topic, r})
	}
	return out
}

// answersTo are the results of the command id.
func (c *cloud) answersTo(id string) []answer {
	var out []answer
	for _, a := range c.answers() {
		if a.res.ID == id {
			out = append(out, a)
		}
	}
	return out
}

// counters are the fake unit's read counters of the readings received, in arrival order.
func (c *cloud) counters(sn string) []int {
	var out []int
	for _, m := range c.telemetry(sn) {
		for _, r := range m.Readings {
			n, err := strconv.Atoi(string(r.Values[ess.EnergyCharged]))
			if err != nil {
				c.t.Errorf("reading %v: no counter", r.Values)
			}
			out = append(out, n)
		}
	}
	return out
}

// unitAuth admits only the test unit by its SN, key and client id, and applies chargeops' ACL.
type unitAuth struct {
	mqtt.HookBase
	c *cloud
}

func (h *unitAuth) ID() string { return "unit-auth" }

func (h *unitAuth) Provides(b byte) bool {
	return b == mqtt.OnConnectAuthenticate || b == mqtt.OnACLCheck
}

func (h *unitAuth) OnConnectAuthenticate(cl *mqtt.Client, pk packets.Packet) bool {
	user, pass := string(pk.Connect.Username), string(pk.Connect.Password)
	ok := user == testSN && pass == testKey && cl.ID == "chargeops-agent-"+testSN
	if !ok {
		h.c.t.Errorf("connect refused: client %q user %q", cl.ID, user)
	}
	h.c.mu.Lock()
	h.c.logins = append(h.c.logins, cl.ID)
	h.c.mu.Unlock()
	return ok
}

func (h *unitAuth) OnACLCheck(cl *mqtt.Client, topic string, write bool) bool {
	sn := string(cl.Properties.Username)
	ok := mqttwire.MaySubscribe(sn, topic)
	if write {
		ok = mqttwire.MayPublish(sn, topic)
	}
	if !ok {
		h.c.t.Errorf("ACL: %s may not %s %s", sn, map[bool]string{true: "publish", false: "subscribe"}[write], topic)
	}
	return ok
}

// proxy stands between the agent and the broker, so a test can cut the network under a live
// connection (the broker then sends the last will) and keep it cut.
type proxy struct {
	ln     net.Listener
	target string

	mu    sync.Mutex
	conns []net.Conn
	down  bool
}

func newProxy(t *testing.T, target string) *proxy {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{ln: ln, target: target}
	go p.serve()
	t.Cleanup(func() { ln.Close(); p.cut(true) })
	return p
}

func (p *proxy) url() string { return "mqtt://" + p.ln.Addr().String() }

func (p *proxy) serve() {
	for {
		in, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		down := p.down
		p.mu.Unlock()
		if down {
			in.Close()
			continue
		}
		out, err := net.Dial("tcp", p.target)
		if err != nil {
			in.Close()
			continue
		}
		p.mu.Lock()
		p.conns = append(p.conns, in, out)
		p.mu.Unlock()
		go func() { _, _ = io.Copy(out, in); out.Close() }()
		go func() { _, _ = io.Copy(in, out); in.Close() }()
	}
}

// cut closes every connection through the proxy, abruptly; keepDown refuses new ones until
// restore.
func (p *proxy) cut(keepDown bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		if tc, ok := c.(*net.TCPConn); ok {
			_ = tc.SetLinger(0) // a reset, as when a cable is pulled and the far end times out
		}
		c.Close()
	}
	p.conns = nil
	p.down = keepDown
}

func (p *proxy) restore() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.down = false
}

// fakeUnit is the storage unit the agent reads: each read returns a counter (Energy register)
// one higher than the last, so a test can tell a missing or reordered reading.
type fakeUnit struct {
	mu      sync.Mutex
	reads   int
	alarms  []string
	failing bool
	applied []string // command names, in order
	dials   int
}

func (f *fakeUnit) dial(ctx context.Context, uc UnitConfig) (Source, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.failing {
		return nil, errors.New("fake: no route to host")
	}
	f.dials++
	return fakeConn{f}, nil
}

func (f *fakeUnit) setAlarms(codes ...string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.alarms = codes
}

func (f *fakeUnit) setFailing(v bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.failing = v
}

func (f *fakeUnit) readCount() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.reads
}

func (f *fakeUnit) appliedNames() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.applied...)
}

var fakeAttributes = mqttwire.Attributes{Vendor: "Fake Storage", Model: "FS-100", SerialNumber: "FS100-0001", Firmware: "1.2.3", CapacityWh: 100000, RatedPowerW: 50000}

type fakeConn struct{ f *fakeUnit }

func (c fakeConn) Discover(context.Context) (mqttwire.Attributes, error) { return fakeAttributes, nil }

func (c fakeConn) Read(context.Context) (map[string]any, []string, error) {
	c.f.mu.Lock()
	defer c.f.mu.Unlock()
	if c.f.failing {
		return nil, nil, errors.New("fake: timeout")
	}
	c.f.reads++
	return map[string]any{ess.EnergyCharged: c.f.reads, ess.SoC: 55.5, ess.PCSState: ess.StateStandby}, append([]string(nil), c.f.alarms...), nil
}

// Apply accepts setPower (reading back the setpoint), answers getConfig with one item, and
// accepts anything else.
func (c fakeConn) Apply(_ context.Context, name string, p ess.Params) (string, string, []ess.Item, map[string]any) {
	c.f.mu.Lock()
	defer c.f.mu.Unlock()
	c.f.applied = append(c.f.applied, name)
	switch name {
	case ess.CmdSetPower:
		if p.PowerW == nil {
			return ess.StatusRejected, "powerW required", nil, nil
		}
		return ess.StatusAccepted, "", nil, map[string]any{ess.PCSSetpoint: *p.PowerW, ess.PCSMode: ess.ModeManual}
	case ess.CmdGetConfig:
		return ess.StatusAccepted, "", []ess.Item{{Key: "MaxSoC", Value: "95"}}, nil
	}
	return ess.StatusAccepted, "", nil, nil
}

func (c fakeConn) Close() error { return nil }

// testAgent is a running agent for one unit.
type testAgent struct {
	*Agent
	t      *testing.T
	cancel context.CancelFunc
	done   chan error
	once   sync.Once
}

// startAgent runs an agent for testSN against broker, with its buffer in dir.
func startAgent(t *testing.T, broker, dir string, f *fakeUnit, tweak func(*Config, *Options)) *testAgent {
	t.Helper()
	cfg := Config{
		Broker:    []string{broker},
		BufferDir: dir,
		Units:     []UnitConfig{{SN: testSN, Key: testKey, Modbus: "tcp://127.0.0.1:1502", Interval: 20 * time.Millisecond}},
	}
	opts := Options{Dial: f.dial, Version: "test", ReconnectDelay: 50 * time.Millisecond, connectTimeout: time.Second}
	if tweak != nil {
		tweak(&cfg, &opts)
	}
	level := slog.LevelWarn
	if os.Getenv("AGENT_TEST_LOG") != "" {
		level = slog.LevelDebug
	}
	a, err := New(cfg, slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: level})), opts)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ta := &testAgent{Agent: a, t: t, cancel: cancel, done: make(chan error, 1)}
	go func() { ta.done <- a.Run(ctx) }()
	t.Cleanup(ta.stop)
	return ta
}

// stop ends Run and waits for it (an agent still running after 10 s fails the test).
func (ta *testAgent) stop() {
	ta.once.Do(func() {
		ta.cancel()
		select {
		case err := <-ta.done:
			if err != nil {
				ta.t.Errorf("agent Run: %v", err)
			}
		case <-time.After(10 * time.Second):
			ta.t.Errorf("agent Run did not return within 10 s of its context ending")
		}
	})
}

func (ta *testAgent) stats() Stats {
	s, _ := ta.Stats(testSN)
	return s
}

// waitFor polls cond until it holds, failing the test after timeout.
func waitFor(t *testing.T, timeout time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %s waiting for %s", timeout, what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// checkInOrder checks that the counters, read in arrival order, are 1..max with none missing
// and each first seen after all lower ones (repeats of seen counters are allowed); it returns
// max.
func checkInOrder(t *testing.T, got []int, from int) int {
	t.Helper()
	next := from
	for i, n := range got {
		switch {
		case n == next:
			next++
		case n > next:
			t.Fatalf("reading %d arrived (position %d) before reading %d", n, i, next)
		}
	}
	return next - 1
}
