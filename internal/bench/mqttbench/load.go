package mqttbench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/eclipse/paho.golang/paho"

	"chargeops/internal/bench"
	"chargeops/internal/mqttwire"
)

// LoadOptions describe the simulated storage units and their load.
type LoadOptions struct {
	Addr   string // the broker, HOST:PORT
	N      int    // units
	Prefix string // SN prefix (default "BESS-")
	Digits int    // width of the SN's number (default 6)
	First  int    // number of the first unit (default 1)

	Interval time.Duration // each unit publishes once per interval (default 5 s)
	Duration time.Duration // length of the load (default 60 s)
	Readings int           // readings per telemetry message (default 1)

	ConnectConcurrency int           // connections being set up at once (default 200)
	ConnectRate        float64       // new connections per second (0: unpaced)
	ConnectRetries     int           // retries of a unit that could not connect (default 3)
	KeepAlive          uint16        // MQTT keep-alive, s (default 60)
	Timeout            time.Duration // a PUBACK, SUBACK or CONNACK later than this fails; after the load, how long acks are waited for (default 30 s)
	Late               time.Duration // a send this much after its time is late (default 50 ms)

	Logf func(format string, args ...any)
}

func (o *LoadOptions) defaults() {
	if o.Prefix == "" {
		o.Prefix = "BESS-"
	}
	if o.Digits <= 0 {
		o.Digits = 6
	}
	if o.First <= 0 {
		o.First = 1
	}
	if o.Interval <= 0 {
		o.Interval = 5 * time.Second
	}
	if o.Duration <= 0 {
		o.Duration = 60 * time.Second
	}
	if o.Readings <= 0 {
		o.Readings = 1
	}
	if o.ConnectConcurrency <= 0 {
		o.ConnectConcurrency = 200
	}
	if o.ConnectRetries < 0 {
		o.ConnectRetries = 0
	} else if o.ConnectRetries == 0 {
		o.ConnectRetries = 3
	}
	if o.KeepAlive == 0 {
		o.KeepAlive = 60
	}
	if o.Timeout <= 0 {
		o.Timeout = 30 * time.Second
	}
	if o.Late <= 0 {
		o.Late = 50 * time.Millisecond
	}
	if o.Logf == nil {
		o.Logf = func(string, ...any) {}
	}
}

// SN is unit n's serial number.
func (o LoadOptions) SN(n int) string { return bench.SN(o.Prefix, o.Digits, n) }

// Fleet is the connected units.
type Fleet struct {
	o     LoadOptions
	units []*unit // connected, in SN order
	all   int

	Connect ConnectReport

	lost atomic.Int64 // connections lost (client errors, server DISCONNECTs)
	// counters of the load
	published, refused, pubErrors, acked, nacked, unexpected, late atomic.Int64
	lastAck                                                        atomic.Int64 // unix ns of the last ack
	ackHist, pubackHist, lagHist                                   *bench.Histogram
	nackMu                                                         sync.Mutex
	nackSample                                                     string
}

// ConnectReport is what connecting the fleet took.
type ConnectReport struct {
	Units     int              `json:"units"`
	Connected int              `json:"connected"`
	Failed    int              `json:"failed"`
	Attempts  int              `json:"attempts"`
	Took      time.Duration    `json:"took"`
	Rate      float64          `json:"rate"`     // connected per second
	Time      *bench.Histogram `json:"time"`     // dial → CONNACK → SUBACK → the birth's PUBACK
	Failures  map[string]int   `json:"failures"` // attempts that failed, by reason
	LastError string           `json:"lastError,omitempty"`
}

// unit is one simulated storage unit.
type unit struct {
	f    *Fleet
	i    int // index in the fleet (0-based)
	sn   string
	conn net.Conn
	c    *paho.Client

	ackTopic, telTopic string
	mu                 sync.Mutex
	pending            map[string]sent // message id → when it went out
	lastTS             int64           // newest reading ts acked OK
	buf                []byte
}

type sent struct {
	at time.Time
	ts int64 // the message's newest reading
}

// Dial connects o.N units (o.First ..), each subscribing to its ack and command topics and
// publishing its retained birth, at most o.ConnectConcurrency at once and o.ConnectRate a second.
// Units that fail o.ConnectRetries+1 times are left out and counted.
func Dial(ctx context.Context, o LoadOptions) (*Fleet, error) {
	o.defaults()
	if o.N < 1 {
		return nil, errors.New("mqttbench: no units")
	}
	f := &Fleet{o: o, all: o.N, ackHist: &bench.Histogram{}, pubackHist: &bench.Histogram{}, lagHist: &bench.Histogram{}}
	f.Connect = ConnectReport{Units: o.N, Time: &bench.Histogram{}, Failures: map[string]int{}}
	units := make([]*unit, o.N)
	for i := range units {
		sn := o.SN(o.First + i)
		units[i] = &unit{f: f, i: i, sn: sn, ackTopic: mqttwire.Topic(sn, mqttwire.KindAck),
			telTopic: mqttwire.Topic(sn, mqttwire.KindTelemetry), pending: map[string]sent{}}
	}
	start := time.Now()
	var mu sync.Mutex
	var attempts atomic.Int64
	next := make(chan *unit)
	var wg sync.WaitGroup
	for range min(o.ConnectConcurrency, o.N) {
		wg.Go(func() {
			for u := range next {
				var err error
				for try := 0; try <= o.ConnectRetries; try++ {
					if ctx.Err() != nil {
						err = ctx.Err()
						break
					}
					attempts.Add(1)
					t0 := time.Now()
					if err = u.dial(ctx); err == nil {
						f.Connect.Time.Record(time.Since(t0))
						break
					}
					mu.Lock()
					f.Connect.Failures[reason(err)]++
					f.Connect.LastError = err.Error()
					mu.Unlock()
					sleepCtx(ctx, time.Duration(200+rand.IntN(800))*time.Millisecond)
				}
				if err != nil {
					u.c = nil
				}
			}
		})
	}
	var pace time.Duration
	if o.ConnectRate > 0 {
		pace = time.Duration(float64(time.Second) / o.ConnectRate)
	}
	logAt := time.Now().Add(5 * time.Second)
	for i, u := range units {
		if pace > 0 {
			sleepUntil(ctx, start.Add(time.Duration(i)*pace))
		}
		if ctx.Err() != nil {
			break
		}
		next <- u
		if time.Now().After(logAt) {
			o.Logf("connecting: %d of %d handed out", i+1, o.N)
			logAt = time.Now().Add(5 * time.Second)
		}
	}
	close(next)
	wg.Wait()
	f.Connect.Took = time.Since(start)
	f.Connect.Attempts = int(attempts.Load())
	for _, u := range units {
		if u.c != nil {
			f.units = append(f.units, u)
		}
	}
	f.Connect.Connected = len(f.units)
	f.Connect.Failed = o.N - len(f.units)
	if f.Connect.Took > 0 {
		f.Connect.Rate = float64(f.Connect.Connected) / f.Connect.Took.Seconds()
	}
	if err := ctx.Err(); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// reason is the counted kind of a connect failure.
func reason(err error) string {
	s := err.Error()
	if i := strings.IndexByte(s, ':'); i > 0 {
		return s[:i]
	}
	return s
}

// dial connects u: CONNECT (username = SN, no password, the offline status as its will), SUBSCRIBE
// to its ack and cmd topics, and the retained birth.
func (u *unit) dial(ctx context.Context) error {
	o := u.f.o
	ctx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", o.Addr)
	if err != nil {
		return fmt.Errorf("dial: %w", err)
	}
	c := paho.NewClient(paho.ClientConfig{Conn: conn, PacketTimeout: o.Timeout,
		OnPublishReceived: []func(paho.PublishReceived) (bool, error){u.received},
		OnClientError:     func(error) { u.f.lost.Add(1) },
		OnServerDisconnect: func(*paho.Disconnect) {
			u.f.lost.Add(1)
		}})
	ca, err := c.Connect(ctx, &paho.Connect{KeepAlive: o.KeepAlive, ClientID: "bench-" + u.sn, CleanStart: true,
		UsernameFlag: true, Username: u.sn,
		WillMessage: &paho.WillMessage{Topic: mqttwire.Topic(u.sn, mqttwire.KindStatus), Payload: will(), QoS: 1, Retain: true}})
	if err != nil {
		conn.Close()
		if ca != nil {
			return fmt.Errorf("connack %d: %s", ca.ReasonCode, ca.Properties.ReasonString)
		}
		return fmt.Errorf("connect: %w", err)
	}
	fail := func(what string, err error) error {
		_ = c.Disconnect(&paho.Disconnect{})
		conn.Close()
		return fmt.Errorf("%s: %w", what, err)
	}
	sa, err := c.Subscribe(ctx, &paho.Subscribe{Subscriptions: []paho.SubscribeOptions{
		{Topic: u.ackTopic, QoS: 1}, {Topic: mqttwire.Topic(u.sn, mqttwire.KindCmd), QoS: 1}}})
	if err != nil {
		return fail("subscribe", err)
	}
	for _, r := range sa.Reasons {
		if r >= 0x80 {
			return fail("suback", fmt.Errorf("reason %#x", r))
		}
	}
	if _, err := c.Publish(ctx, &paho.Publish{Topic: mqttwire.Topic(u.sn, mqttwire.KindStatus), QoS: 1, Retain: true,
		Payload: birth(u.sn, time.Now().UnixMilli())}); err != nil {
		return fail("birth", err)
	}
	u.conn, u.c = conn, c
	return nil
}

// received is every message the broker sends the unit: acks are matched to their message.
func (u *unit) received(pr paho.PublishReceived) (bool, error) {
	if pr.Packet.Topic != u.ackTopic {
		return true, nil
	}
	now := time.Now()
	var ack mqttwire.Ack
	if err := json.Unmarshal(pr.Packet.Payload, &ack); err != nil {
		u.f.unexpected.Add(1)
		return true, nil
	}
	u.mu.Lock()
	s, ok := u.pending[ack.ID]
	if ok {
		delete(u.pending, ack.ID)
		if ack.OK && s.ts > u.lastTS {
			u.lastTS = s.ts
		}
	}
	u.mu.Unlock()
	if !ok {
		u.f.unexpected.Add(1)
		return true, nil
	}
	u.f.ackHist.Record(now.Sub(s.at))
	if ack.OK {
		u.f.acked.Add(1)
	} else {
		u.f.nacked.Add(1)
		u.f.nackMu.Lock()
		u.f.nackSample = ack.Error
		u.f.nackMu.Unlock()
	}
	for {
		last := u.f.lastAck.Load()
		if now.UnixNano() <= last || u.f.lastAck.CompareAndSwap(last, now.UnixNano()) {
			break
		}
	}
	return true, nil
}

// LoadReport is what the load achieved.
type LoadReport struct {
	Units              int              `json:"units"` // units that took part (connected)
	Interval           time.Duration    `json:"interval"`
	Duration           time.Duration    `json:"duration"`
	ReadingsPerMessage int              `json:"readingsPerMessage"`
	Offered            int64            `json:"offered"`   // messages due in the schedule
	Published          int64            `json:"published"` // PUBLISHed and PUBACKed with success
	Refused            int64            `json:"refused"`   // PUBACK with a reason ≥ 0x80 (not authorised, ...)
	PublishErrors      int64            `json:"publishErrors"`
	Acked              int64            `json:"acked"`      // ack ok:true
	Nacked             int64            `json:"nacked"`     // ack ok:false
	Missing            int64            `json:"missing"`    // published, no ack within the timeout
	Unexpected         int64            `json:"unexpected"` // acks of no pending message
	Late               int64            `json:"late"`       // sends more than LoadOptions.Late after their time
	Lost               int64            `json:"lost"`       // connection errors and server DISCONNECTs during the load
	NackSample         string           `json:"nackSample,omitempty"`
	Took               time.Duration    `json:"took"`     // from the first due time to the last ack (at least Duration)
	Achieved           float64          `json:"achieved"` // acked messages per second over Took
	Ack                *bench.Histogram `json:"ack"`      // PUBLISH → ack received
	Puback             *bench.Histogram `json:"puback"`   // PUBLISH → PUBACK
	Lag                *bench.Histogram `json:"lag"`      // how late each send left
	// AckedUnits units had at least one message acked OK; LastTSSum adds up, over them, the
	// timestamp of the newest reading acked (what device_runtime's sampled_at must hold).
	AckedUnits int   `json:"ackedUnits"`
	LastTSSum  int64 `json:"lastTsSum"`
}

// Load publishes, from every connected unit, one telemetry message each o.Interval for
// o.Duration, unit i offset by i/N of the interval (so the fleet's rate is N/interval), then
// waits (at most o.Timeout) for the acks still due.
func (f *Fleet) Load(ctx context.Context) *LoadReport {
	o := f.o
	n := len(f.units)
	start := time.Now().Add(200 * time.Millisecond)
	end := start.Add(o.Duration)
	var offered atomic.Int64
	var wg sync.WaitGroup
	for _, u := range f.units {
		first := start.Add(time.Duration(int64(o.Interval) * int64(u.i) / int64(f.all)))
		wg.Go(func() { offered.Add(u.run(ctx, first, end)) })
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	logAt := time.Now().Add(10 * time.Second)
	for waiting := true; waiting; {
		select {
		case <-done:
			waiting = false
		case <-time.After(time.Second):
			if time.Now().After(logAt) {
				o.Logf("load: %d published, %d acked, %d pending", f.published.Load(), f.acked.Load()+f.nacked.Load(), f.pending())
				logAt = time.Now().Add(10 * time.Second)
			}
		}
	}
	deadline := time.Now().Add(o.Timeout)
	for f.pending() > 0 && time.Now().Before(deadline) && ctx.Err() == nil {
		time.Sleep(20 * time.Millisecond)
	}
	r := &LoadReport{Units: n, Interval: o.Interval, Duration: o.Duration, ReadingsPerMessage: o.Readings,
		Offered: offered.Load(), Published: f.published.Load(), Refused: f.refused.Load(), PublishErrors: f.pubErrors.Load(),
		Acked: f.acked.Load(), Nacked: f.nacked.Load(), Unexpected: f.unexpected.Load(), Late: f.late.Load(), Lost: f.lost.Load(),
		Missing: int64(f.pending()), Ack: f.ackHist, Puback: f.pubackHist, Lag: f.lagHist}
	f.nackMu.Lock()
	r.NackSample = f.nackSample
	f.nackMu.Unlock()
	r.Took = o.Duration
	if last := f.lastAck.Load(); last > 0 {
		r.Took = max(r.Took, time.Unix(0, last).Sub(start))
	}
	r.Achieved = float64(r.Acked) / r.Took.Seconds()
	for _, u := range f.units {
		u.mu.Lock()
		if u.lastTS > 0 {
			r.AckedUnits++
			r.LastTSSum += u.lastTS
		}
		u.mu.Unlock()
	}
	return r
}

// pending is the messages published and not yet acked.
func (f *Fleet) pending() int {
	n := 0
	for _, u := range f.units {
		u.mu.Lock()
		n += len(u.pending)
		u.mu.Unlock()
	}
	return n
}

// run publishes u's messages due from first, every interval, before end; it returns how many
// were due.
func (u *unit) run(ctx context.Context, first, end time.Time) int64 {
	o := u.f.o
	var due int64
	step := int64(o.Interval/time.Millisecond) / int64(o.Readings)
	for k, at := 0, first; at.Before(end) && ctx.Err() == nil; k, at = k+1, at.Add(o.Interval) {
		sleepUntil(ctx, at)
		if ctx.Err() != nil {
			break
		}
		due++
		now := time.Now()
		lag := now.Sub(at)
		u.f.lagHist.Record(lag)
		if lag > o.Late {
			u.f.late.Add(1)
		}
		id := u.sn + "-" + strconv.Itoa(k)
		ts := now.UnixMilli()
		u.buf = appendTelemetry(u.buf[:0], id, ts, step, o.Readings, u.i, k)
		u.mu.Lock()
		u.pending[id] = sent{at: now, ts: ts}
		u.mu.Unlock()
		pctx, cancel := context.WithTimeout(ctx, o.Timeout)
		res, err := u.c.Publish(pctx, &paho.Publish{Topic: u.telTopic, QoS: 1, Payload: u.buf})
		cancel()
		switch {
		case res != nil && res.ReasonCode >= 0x80:
			u.f.refused.Add(1)
			u.mu.Lock()
			delete(u.pending, id)
			u.mu.Unlock()
		case err != nil:
			u.f.pubErrors.Add(1) // still pending: an ack may come
		default:
			u.f.published.Add(1)
			u.f.pubackHist.Record(time.Since(now))
		}
	}
	return due
}

// Close disconnects every unit (a DISCONNECT, so no last will is published).
func (f *Fleet) Close() {
	var wg sync.WaitGroup
	sem := make(chan struct{}, 256)
	for _, u := range f.units {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			_ = u.c.Disconnect(&paho.Disconnect{ReasonCode: 0})
			u.conn.Close()
		})
	}
	wg.Wait()
}

// Units is the number of connected units.
func (f *Fleet) Units() int { return len(f.units) }

// SortedFailures lists connect failures, most frequent first.
func (c ConnectReport) SortedFailures() []string {
	var out []string
	for k, v := range c.Failures {
		out = append(out, fmt.Sprintf("%d× %s", v, k))
	}
	sort.Strings(out)
	return out
}

func sleepUntil(ctx context.Context, t time.Time) {
	if d := time.Until(t); d > 0 {
		sleepCtx(ctx, d)
	}
}

func sleepCtx(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}
