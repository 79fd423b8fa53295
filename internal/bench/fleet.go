package bench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/gorilla/websocket"

	"chargeops/internal/memstat"
)

// FleetOptions shape the chargers one process drives.
type FleetOptions struct {
	URL    string `json:"url"`    // gateway base, ws://HOST/ocpp (the SN is appended)
	Prefix string `json:"prefix"` // SN prefix
	Digits int    `json:"digits"` // width of the SN's number (bench seed writes 7)
	First  int    `json:"first"`  // number of the first charger
	N      int    `json:"n"`      // chargers
	// Protocol is Protocol16 (default) or Protocol201: the only sub-protocol the chargers offer,
	// and the messages they send.
	Protocol string `json:"protocol,omitempty"`

	ConnectRate     float64       `json:"connectRate"`     // new connections per second (0: as fast as DialConcurrency allows)
	DialConcurrency int           `json:"dialConcurrency"` // connections being set up at once
	ConnectRetries  int           `json:"connectRetries"`  // retries of a charger that could not connect and boot
	Timeout         time.Duration `json:"timeout"`         // a CALL without answer after this long is a timeout
	PingInterval    time.Duration `json:"pingInterval"`    // WebSocket pings to the server (ocpp-go drops a client silent for 60 s)

	Rate        float64       `json:"rate"`        // MeterValues per second across this fleet
	Duration    time.Duration `json:"duration"`    // of the load
	MeterValues int           `json:"meterValues"` // sampled values per MeterValues
	// LoadMessage is the load's message: LoadMeterValues (default) or, with 2.0.1,
	// LoadTransactionEvent (TransactionEvent Updated of the charger's transaction).
	LoadMessage string `json:"loadMessage,omitempty"`

	StormDrop    string        `json:"stormDrop"`    // StormAbandon or StormClose
	StormTimeout time.Duration `json:"stormTimeout"` // a charger not booted again by then is stuck
}

// How the storm drops connections.
const (
	// StormAbandon leaves each old socket open and silent, as a charger that rebooted or lost its
	// modem does: the server learns of it only when the new connection arrives or its ping
	// times out. This is when a server may refuse the new one as "already connected".
	StormAbandon = "abandon"
	// StormClose closes each old socket (the server reads end-of-file at once).
	StormClose = "close"
)

// LateAfter is how far behind its time a send counts as late.
const LateAfter = 50 * time.Millisecond

func (o *FleetOptions) defaults() {
	if o.Digits <= 0 {
		o.Digits = 7
	}
	if o.DialConcurrency <= 0 {
		o.DialConcurrency = 500
	}
	if o.Timeout <= 0 {
		o.Timeout = 30 * time.Second
	}
	if o.PingInterval <= 0 {
		o.PingInterval = 30 * time.Second
	}
	if o.MeterValues <= 0 {
		o.MeterValues = 2
	}
	if o.StormDrop == "" {
		o.StormDrop = StormAbandon
	}
	if o.StormTimeout <= 0 {
		o.StormTimeout = 60 * time.Second
	}
	if o.Protocol == "" {
		o.Protocol = Protocol16
	}
	if o.LoadMessage == "" {
		o.LoadMessage = LoadMeterValues
	}
}

// check refuses options the fleet cannot run.
func (o *FleetOptions) check() error {
	if dialectOf(o.Protocol) == nil {
		return fmt.Errorf("bench: --protocol must be %s or %s, got %q", Protocol16, Protocol201, o.Protocol)
	}
	switch {
	case o.LoadMessage == LoadMeterValues:
	case o.LoadMessage == LoadTransactionEvent && o.Protocol == Protocol201:
	case o.LoadMessage == LoadTransactionEvent:
		return fmt.Errorf("bench: --load-message %s needs --protocol %s", LoadTransactionEvent, Protocol201)
	default:
		return fmt.Errorf("bench: --load-message must be %s or %s, got %q", LoadMeterValues, LoadTransactionEvent, o.LoadMessage)
	}
	return nil
}

// kindStats are the live counters of one kind of call.
type kindStats struct {
	sent, answered, callErrors, timeouts, sendErrors atomic.Int64
	rtt                                              Histogram
}

// Fleet is the chargers of one process. Connect, Load, Storm and Close run one after another;
// Result reads the figures.
type Fleet struct {
	opt      FleetOptions
	d        *dialect
	loadKind callKind // kindMeter, or kindTxUpdated
	v201     bool
	chargers []*charger
	dialer   websocket.Dialer
	pending  *pendingTable
	ids      atomic.Uint64
	kinds    [nKinds]kindStats

	framesSent, framesRecv, connections, drops, serverCalls, lateAnswers atomic.Int64

	// load-phase figures (load.go)
	lastAnswer atomic.Int64 // unix ns of the last MeterValues answer
	late, busy atomic.Int64
	lag        Histogram

	mu       sync.Mutex
	refusals map[string]int64 // connect phase
	result   FleetResult

	stop    context.CancelFunc
	stopped chan struct{}
}

// NewFleet prepares the chargers and starts the background work (call time-outs, pings);
// Close stops it.
func NewFleet(o FleetOptions) (*Fleet, error) {
	o.defaults()
	if o.N <= 0 {
		return nil, errors.New("bench: a fleet needs at least one charger")
	}
	if !strings.HasPrefix(o.URL, "ws://") && !strings.HasPrefix(o.URL, "wss://") {
		return nil, fmt.Errorf("bench: --url must be ws://HOST/ocpp, got %q", o.URL)
	}
	if err := o.check(); err != nil {
		return nil, err
	}
	f := &Fleet{opt: o, d: dialectOf(o.Protocol), loadKind: kindMeter, v201: o.Protocol == Protocol201,
		pending: newPendingTable(), refusals: map[string]int64{}, stopped: make(chan struct{})}
	if o.LoadMessage == LoadTransactionEvent {
		f.loadKind = kindTxUpdated
	}
	f.dialer = websocket.Dialer{
		Subprotocols:     []string{f.d.subprotocol},
		HandshakeTimeout: 15 * time.Second,
		// Small buffers and a shared write-buffer pool: an idle charger holds no write buffer,
		// so one process holds 15,000 sockets in a few hundred MB.
		ReadBufferSize:  512,
		WriteBufferSize: 1024,
		WriteBufferPool: &sync.Pool{},
		NetDialContext:  (&net.Dialer{Timeout: 10 * time.Second}).DialContext,
	}
	f.chargers = make([]*charger, o.N)
	start := time.Now()
	for i := range f.chargers {
		c := &charger{sn: SN(o.Prefix, o.Digits, o.First+i)}
		if f.v201 {
			c.txID = txID201(c.sn, start)
		}
		f.chargers[i] = c
	}
	ctx, cancel := context.WithCancel(context.Background())
	f.stop = cancel
	go f.background(ctx)
	return f, nil
}

// SNs returns the chargers' serial numbers.
func (f *Fleet) SNs() []string {
	out := make([]string, len(f.chargers))
	for i, c := range f.chargers {
		out[i] = c.sn
	}
	return out
}

// background times out unanswered calls and pings every connection.
func (f *Fleet) background(ctx context.Context) {
	defer close(f.stopped)
	sweep := time.NewTicker(250 * time.Millisecond)
	defer sweep.Stop()
	ping := time.NewTicker(f.opt.PingInterval)
	defer ping.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-sweep.C:
			for _, p := range f.pending.expire(time.Now().Add(-f.opt.Timeout)) {
				f.kinds[p.kind].timeouts.Add(1)
				if p.kind == f.loadKind {
					p.c.meterBusy.Add(-1)
				}
				if p.done != nil {
					p.done <- callAnswer{err: fmt.Errorf("%s timeout", f.d.names[p.kind])}
				}
			}
		case <-ping.C:
			f.pingAll(ctx)
		}
	}
}

// pingAll pings every connection, spread over a tenth of the interval.
func (f *Fleet) pingAll(ctx context.Context) {
	gap := f.opt.PingInterval / 10 / time.Duration(len(f.chargers))
	for _, c := range f.chargers {
		if l := c.link(); l != nil {
			_ = l.ws.WriteControl(websocket.PingMessage, nil, time.Now().Add(5*time.Second))
		}
		if gap > 0 {
			select {
			case <-ctx.Done():
				return
			case <-time.After(gap):
			}
		}
	}
}

// connectOne connects a charger and boots it; on its first connection it also reports its
// connector Charging (2.0.1: Occupied) and starts the transaction its MeterValues carry (2.0.1:
// TransactionEvent Started of its own transaction). It returns "" on success, else why it
// failed (the refusal's reason).
func (f *Fleet) connectOne(ctx context.Context, c *charger) string {
	ws, resp, err := f.dialer.DialContext(ctx, f.opt.URL+"/"+c.sn, nil)
	if err != nil {
		switch {
		case resp != nil:
			return "http " + strconv.Itoa(resp.StatusCode)
		case errors.Is(err, syscall.ECONNREFUSED):
			return "dial: connection refused"
		case errors.Is(err, syscall.ECONNRESET):
			return "dial: connection reset"
		case errors.Is(err, syscall.EADDRNOTAVAIL):
			return "dial: no local port free"
		case errors.Is(err, syscall.EMFILE):
			return "dial: too many open files"
		case errors.Is(err, context.DeadlineExceeded), strings.Contains(err.Error(), "timeout"):
			return "dial: timeout"
		}
		return "dial: " + err.Error()
	}
	f.connections.Add(1)
	if got := ws.Subprotocol(); got != f.d.subprotocol {
		_ = ws.Close() // the server logs an open and a close row all the same
		return fmt.Sprintf("sub-protocol %q negotiated, not %s", got, f.d.subprotocol)
	}
	l := newLink(ws)
	c.attach(l)
	go f.read(c, l)
	fail := func(what string, err error) string {
		l.quiet.Store(true)
		c.detach(l)
		_ = ws.Close()
		<-l.closed
		return what + ": " + err.Error()
	}
	boot := bootPayload
	if f.v201 {
		boot = bootPayload201
	}
	ans, err := f.call(ctx, c, l, kindBoot, boot)
	if err != nil {
		return fail("boot", err)
	}
	var booted struct {
		Status string `json:"status"`
	}
	if err := json.Unmarshal(ans, &booted); err != nil || booted.Status != "Accepted" {
		return fail("boot", fmt.Errorf("answered %q", booted.Status))
	}
	l.booted.Store(true)
	if c.tx.Load() != 0 {
		return ""
	}
	if f.v201 {
		return f.start201(ctx, c, l, fail)
	}
	if _, err := f.call(ctx, c, l, kindStatus, statusPayload(time.Now())); err != nil {
		return fail("status", err)
	}
	ans, err = f.call(ctx, c, l, kindStart, startPayload(time.Now()))
	if err != nil {
		return fail("start transaction", err)
	}
	var start struct {
		TransactionID int64 `json:"transactionId"`
	}
	if err := json.Unmarshal(ans, &start); err != nil || start.TransactionID == 0 {
		return fail("start transaction", fmt.Errorf("no transaction id in %.100s", ans))
	}
	c.tx.Store(start.TransactionID)
	return ""
}

// start201 is connectOne's first-connection part in 2.0.1: the connector Occupied, then the
// charger's own transaction Started (seqNo 0).
func (f *Fleet) start201(ctx context.Context, c *charger, l *link, fail func(string, error) string) string {
	if _, err := f.call(ctx, c, l, kindStatus, statusPayload201(time.Now())); err != nil {
		return fail("status", err)
	}
	ans, err := f.call(ctx, c, l, kindStart, txStartedPayload201(c.txID, time.Now()))
	if err != nil {
		return fail("transaction started", err)
	}
	var started map[string]json.RawMessage
	if err := json.Unmarshal(ans, &started); err != nil {
		return fail("transaction started", fmt.Errorf("answered %.100s", ans))
	}
	c.seq.Store(0)
	c.tx.Store(1)
	return ""
}

// call sends a CALL on l and waits for its answer.
func (f *Fleet) call(ctx context.Context, c *charger, l *link, k callKind, payload []byte) ([]byte, error) {
	id := f.ids.Add(1)
	done := make(chan callAnswer, 1)
	f.pending.add(id, pendingCall{sent: time.Now(), kind: k, c: c, done: done})
	if err := c.write(l, callFrame(nil, id, f.d.actions[k], payload), f.opt.Timeout); err != nil {
		f.pending.take(id)
		f.kinds[k].sendErrors.Add(1)
		return nil, l.failed(err)
	}
	f.framesSent.Add(1)
	f.kinds[k].sent.Add(1)
	select {
	case a := <-done:
		return a.payload, a.err
	case <-l.closed:
		f.pending.take(id)
		return nil, l.err
	case <-ctx.Done():
		f.pending.take(id)
		return nil, ctx.Err()
	}
}

// send sends a CALL whose answer nobody waits for (load messages, triggered heartbeats); it
// reports whether the frame went out.
func (f *Fleet) send(c *charger, k callKind, frame func(id uint64) []byte) bool {
	l := c.link()
	if l == nil {
		f.kinds[k].sendErrors.Add(1)
		return false
	}
	id := f.ids.Add(1)
	f.pending.add(id, pendingCall{sent: time.Now(), kind: k, c: c})
	if err := c.write(l, frame(id), f.opt.Timeout); err != nil {
		f.pending.take(id)
		f.kinds[k].sendErrors.Add(1)
		return false
	}
	f.framesSent.Add(1)
	f.kinds[k].sent.Add(1)
	return true
}

// read runs one connection: answers to the chargers' calls, and the server's calls (remote
// commands), which it answers.
func (f *Fleet) read(c *charger, l *link) {
	for {
		_, data, err := l.ws.ReadMessage()
		if err != nil {
			l.end(err)
			c.detach(l)
			_ = l.ws.Close()
			if l.booted.Load() && !l.quiet.Load() {
				f.drops.Add(1)
			}
			return
		}
		f.framesRecv.Add(1)
		f.handle(c, l, data)
	}
}

func (f *Fleet) handle(c *charger, l *link, data []byte) {
	typ, id, rest, ok := frameHead(data)
	if !ok {
		return
	}
	switch typ {
	case msgCallResult, msgCallError:
		n, err := strconv.ParseUint(id, 10, 64)
		if err != nil {
			return
		}
		p, ok := f.pending.take(n)
		if !ok {
			f.lateAnswers.Add(1)
			return
		}
		now := time.Now()
		ks := &f.kinds[p.kind]
		ks.rtt.Record(now.Sub(p.sent))
		var ans callAnswer
		if typ == msgCallResult {
			ks.answered.Add(1)
			ans.payload = resultPayload(rest)
		} else {
			ks.callErrors.Add(1)
			ans.err = callError(rest)
		}
		if p.kind == f.loadKind {
			p.c.meterBusy.Add(-1)
			if typ == msgCallResult {
				storeMax(&f.lastAnswer, now.UnixNano())
			}
		}
		if p.done != nil {
			p.done <- ans
		}
	case msgCall:
		f.serverCalls.Add(1)
		var parts []json.RawMessage
		var action string
		if json.Unmarshal(data, &parts) != nil || len(parts) < 4 || json.Unmarshal(parts[2], &action) != nil {
			return
		}
		answer := serverCallAnswer
		if f.v201 {
			answer = serverCallAnswer201
		}
		result, code, follow, hasFollow := answer(action, parts[3])
		var frame []byte
		if code != "" {
			frame, _ = json.Marshal([]any{msgCallError, id, code, "not simulated by chargeops bench", map[string]any{}})
		} else {
			frame, _ = json.Marshal([]any{msgCallResult, id, json.RawMessage(result)})
		}
		if c.write(l, frame, f.opt.Timeout) == nil {
			f.framesSent.Add(1)
		}
		if hasFollow {
			f.send(c, follow, func(id uint64) []byte { return callFrame(nil, id, f.d.actions[follow], []byte("{}")) })
		}
	}
}

func storeMax(a *atomic.Int64, v int64) {
	for {
		old := a.Load()
		if v <= old || a.CompareAndSwap(old, v) {
			return
		}
	}
}

// backoff is the wait before retry attempt+1: 0.5 s doubling to 5 s, with ±50 % jitter so
// that refused chargers do not come back in step.
func backoff(attempt int) time.Duration {
	d := min(500*time.Millisecond<<min(attempt, 4), 5*time.Second)
	return d/2 + rand.N(d)
}

// sleepCtx waits d, or until ctx ends (false).
func sleepCtx(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

func (f *Fleet) refused(reason string) {
	f.mu.Lock()
	f.refusals[reason]++
	f.mu.Unlock()
}

// Connect connects and boots every charger, at most ConnectRate new connections per second
// and DialConcurrency at once; a charger that fails is retried ConnectRetries times.
func (f *Fleet) Connect(ctx context.Context) error {
	start := time.Now()
	var interval time.Duration
	if f.opt.ConnectRate > 0 {
		interval = time.Duration(float64(time.Second) / f.opt.ConnectRate)
	}
	sem := make(chan struct{}, f.opt.DialConcurrency)
	var wg sync.WaitGroup
	var connected, failed atomic.Int64
	for i, c := range f.chargers {
		if interval > 0 && !sleepCtx(ctx, time.Until(start.Add(time.Duration(i)*interval))) {
			break
		}
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for attempt := 0; ; attempt++ {
				reason := f.connectOne(ctx, c)
				if reason == "" {
					connected.Add(1)
					break
				}
				f.refused(reason)
				if attempt >= f.opt.ConnectRetries || ctx.Err() != nil {
					failed.Add(1)
					break
				}
				<-sem // not held while waiting
				ok := sleepCtx(ctx, backoff(attempt))
				sem <- struct{}{}
				if !ok {
					failed.Add(1)
					break
				}
			}
			<-sem
		}()
	}
	wg.Wait()
	secs := time.Since(start).Seconds()
	mem := memstat.Collect()
	f.mu.Lock()
	f.result.Connect = ConnectResult{Chargers: len(f.chargers), Connected: int(connected.Load()), Failed: len(f.chargers) - int(connected.Load()),
		Seconds: secs, Rate: rate(float64(connected.Load()), secs), Refusals: copyCounts(f.refusals), ClientHeld: mem.Held(), ClientSys: mem.Sys}
	f.mu.Unlock()
	return ctx.Err()
}

// copyCounts copies a count map (nil when empty).
func copyCounts(m map[string]int64) map[string]int64 {
	if len(m) == 0 {
		return nil
	}
	out := make(map[string]int64, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// Close ends every connection with a close frame and stops the background work.
func (f *Fleet) Close() {
	for _, c := range f.chargers {
		if l := c.detach(nil); l != nil {
			l.quiet.Store(true)
			_ = l.ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, "bench done"), time.Now().Add(time.Second))
			_ = l.ws.Close()
		}
	}
	f.stop()
	<-f.stopped
}

// Held is the number of chargers connected now.
func (f *Fleet) Held() int {
	n := 0
	for _, c := range f.chargers {
		if c.link() != nil {
			n++
		}
	}
	return n
}

// Result returns the figures so far.
func (f *Fleet) Result() FleetResult {
	f.mu.Lock()
	r := f.result
	f.mu.Unlock()
	r.Calls = map[string]*CallStats{}
	for k := callKind(0); k < nKinds; k++ {
		ks := &f.kinds[k]
		if ks.sent.Load()+ks.sendErrors.Load() == 0 {
			continue
		}
		h := &Histogram{}
		h.Merge(&ks.rtt)
		r.Calls[f.d.names[k]] = &CallStats{Sent: ks.sent.Load(), Answered: ks.answered.Load(), CallErrors: ks.callErrors.Load(),
			Timeouts: ks.timeouts.Load(), SendErrors: ks.sendErrors.Load(), RTT: h}
	}
	r.Frames = FrameCounts{Sent: f.framesSent.Load(), Received: f.framesRecv.Load(), Connections: f.connections.Load(),
		Drops: f.drops.Load(), ServerCalls: f.serverCalls.Load(), LateAnswers: f.lateAnswers.Load()}
	return r
}
