// Package sim runs simulated OCPP 1.6J and 2.0.1 chargers against a chargeops gateway: boot,
// heartbeats, connector status changes, charging sessions with meter values, occasional
// faults that clear, answers to every remote operation (firmware download with progress, a
// real diagnostics upload) and reconnection with back-off and jitter. `chargeops sim` uses it,
// and `chargeops demo` can start it in-process. Both versions share a charger's life (this
// file, operations.go); only their messages differ (1.6 here, 2.0.1 in sim201.go).
package sim

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"
)

// Options of a simulated fleet.
type Options struct {
	URL            string            // gateway base, e.g. ws://localhost:8080/ocpp (the SN is appended)
	SNs            []string          // one charger per SN
	Keys           map[string]string // auth keys (security profile 1) by SN
	Connectors     int               // connectors per charger (default 2)
	MeterInterval  time.Duration     // meter values while charging (default 10 s)
	Speed          float64           // time acceleration of sessions and faults (default 1)
	FaultChance    float64           // chance per idle period that a connector faults (default 0.05)
	Vendor, Model  string
	Firmware       string
	Logger         *slog.Logger
	MaxBackoff     time.Duration // reconnect back-off cap (default 60 s)
	OnlineCallback func(sn string, online bool)
	// Profiles describe chargers by SN (model name, DC figures, how busy); an SN without one is
	// an AC charger of Vendor/Model, busy as before.
	Profiles map[string]Profile
	// OfflineChance is the chance per idle period that a charger drops off the network for a
	// while (default 0: never).
	OfflineChance float64
	// Protocol is the OCPP version the chargers speak: "1.6" (the default; sub-protocol
	// ocpp1.6) or "2.0.1" (ocpp2.0.1). A charger offers exactly its version's sub-protocol.
	Protocol string
	// Protocol201Every makes a share of a fleet speak 2.0.1 whatever Protocol says: the Nth,
	// 2Nth, 3Nth ... charger of SNs (0: none), so one fleet mixes both versions.
	Protocol201Every int
	// RefuseProfiles are SNs that answer Rejected to every SetChargingProfile (tests: a charger
	// that refuses; smartcharging.go).
	RefuseProfiles map[string]bool
	// ProfileUnits overrides ChargingScheduleAllowedChargingRateUnit for all chargers
	// ("Current", "Power", or "Current,Power", the default).
	ProfileUnits string
	// Fleet, when set, is where the caller reads the running chargers' charging profiles and
	// power (smartcharging.go).
	Fleet *Fleet
}

// Protocol201 is the Options.Protocol of OCPP 2.0.1 chargers.
const Protocol201 = "2.0.1"

// speaks201 reports whether the i-th charger of SNs speaks OCPP 2.0.1.
func (o *Options) speaks201(i int) bool {
	return o.Protocol == Protocol201 || (o.Protocol201Every > 0 && (i+1)%o.Protocol201Every == 0)
}

// Profile is what one charger is: the model it reports at boot and the figures it meters.
type Profile struct {
	Vendor, Model string
	DC            bool    // metered as a DC charger: 300-450 V DC, tens of kW tapering with SoC
	MaxPowerW     float64 // rated power (default 7,400 W AC, 60,000 W DC)
	// Busy (0-1) is how much of the time a connector charges; 0 keeps the default mix. Lower
	// values lengthen idle periods, so not every charger is Working at once.
	Busy float64
}

// profile is sn's profile with its defaults filled in.
func (o *Options) profile(sn string) Profile {
	p := o.Profiles[sn]
	if p.Vendor == "" {
		p.Vendor = o.Vendor
	}
	if p.Model == "" {
		p.Model = o.Model
	}
	if p.MaxPowerW <= 0 {
		p.MaxPowerW = 7400
		if p.DC {
			p.MaxPowerW = 60000
		}
	}
	return p
}

// Stats count what the fleet did.
type Stats struct {
	Connects, Frames, Sessions, Faults, Commands atomic.Int64
}

// Run runs the fleet until ctx ends.
func Run(ctx context.Context, o Options) *Stats {
	st := &Stats{}
	RunStats(ctx, o, st)
	return st
}

// RunStats is Run with the caller's counters; it returns when ctx ends and every charger stopped.
func RunStats(ctx context.Context, o Options, st *Stats) {
	if o.Connectors <= 0 {
		o.Connectors = 2
	}
	if o.MeterInterval <= 0 {
		o.MeterInterval = 10 * time.Second
	}
	if o.Speed <= 0 {
		o.Speed = 1
	}
	if o.FaultChance == 0 {
		o.FaultChance = 0.05
	}
	if o.Vendor == "" {
		o.Vendor = "ChargeopsSim"
	}
	if o.Model == "" {
		o.Model = "SIM-AC22"
	}
	if o.Firmware == "" {
		o.Firmware = "1.0.0"
	}
	if o.MaxBackoff <= 0 {
		o.MaxBackoff = 60 * time.Second
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	var wg sync.WaitGroup
	for i, sn := range o.SNs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Spread the first connections over a second so a big fleet does not start as one burst.
			select {
			case <-ctx.Done():
				return
			case <-time.After(time.Duration(i%1000) * time.Millisecond):
			}
			c := &charger{o: &o, p: o.profile(sn), st: st, sn: sn, key: o.Keys[sn], firmware: o.Firmware, config: map[string]string{
				"HeartbeatInterval": "60", "MeterValueSampleInterval": fmt.Sprint(int(o.MeterInterval.Seconds())),
				"NumberOfConnectors": fmt.Sprint(o.Connectors), "AuthorizeRemoteTxRequests": "false", "WebSocketPingInterval": "30",
			}, energy: make([]float64, o.Connectors+1)}
			for k, v := range localListConfig() {
				c.config[k] = v
			}
			if o.speaks201(i) {
				c.v201 = newOCPP201(c)
			}
			c.smartChargingConfig()
			o.Fleet.add(c)
			c.loop(ctx)
		}()
	}
	wg.Wait()
}

type charger struct {
	o        *Options
	p        Profile
	st       *Stats
	sn, key  string
	firmware string

	mu       sync.Mutex
	ws       *websocket.Conn
	config   map[string]string
	energy   []float64 // Wh per connector
	pending  map[string]chan json.RawMessage
	seq      int
	reboot   chan struct{}
	disabled map[int]bool
	away     time.Duration // how long to stay off the network after an outage (0: reconnect soon)
	tunnel   io.Closer     // the remote-access tunnel opened on VpnStart (remote.go)
	cut      bool          // Fleet.Offline: off the network for good, its sessions kept as they were

	conns map[int]*connState // sessions and reservations per connector (operations.go)
	list  localList          // the local authorization list (locallist.go)
	sc    smartState         // the installed charging profiles (smartcharging.go)

	v201 *ocpp201 // the messages of an OCPP 2.0.1 charger (sim201.go); nil: it speaks 1.6
}

// subprotocol is the WebSocket sub-protocol the charger offers: its OCPP version's only.
func (c *charger) subprotocol() string {
	if c.v201 != nil {
		return "ocpp2.0.1"
	}
	return "ocpp1.6"
}

func (c *charger) sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// loop connects, runs a session of the charger's life, and reconnects with back-off and jitter.
func (c *charger) loop(ctx context.Context) {
	backoff := time.Second
	for ctx.Err() == nil {
		h := http.Header{}
		c.mu.Lock()
		key := c.key
		c.mu.Unlock()
		if key != "" {
			r, _ := http.NewRequest("GET", "http://x", nil)
			r.SetBasicAuth(c.sn, key)
			h.Set("Authorization", r.Header.Get("Authorization"))
		}
		d := websocket.Dialer{Subprotocols: []string{c.subprotocol()}, HandshakeTimeout: 10 * time.Second}
		ws, resp, err := d.DialContext(ctx, strings.TrimSuffix(c.o.URL, "/")+"/"+c.sn, h)
		if err != nil {
			code := 0
			if resp != nil {
				code = resp.StatusCode
			}
			c.o.Logger.Debug("sim connect failed", "sn", c.sn, "http", code, "err", err)
			jitter := time.Duration(rand.Int64N(int64(backoff/2) + 1))
			if !c.sleep(ctx, backoff+jitter) {
				return
			}
			backoff = min(backoff*2, c.o.MaxBackoff)
			continue
		}
		backoff = time.Second
		c.st.Connects.Add(1)
		c.run(ctx, ws)
		c.mu.Lock()
		away, cut := c.away, c.cut
		c.away = 0
		c.mu.Unlock()
		if cut {
			<-ctx.Done() // Fleet.Offline: it never comes back
			return
		}
		if !c.sleep(ctx, away+time.Duration(500+rand.IntN(1500))*time.Millisecond) {
			return
		}
	}
}

func (c *charger) run(ctx context.Context, ws *websocket.Conn) {
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	c.mu.Lock()
	c.ws, c.pending, c.reboot, c.disabled = ws, map[string]chan json.RawMessage{}, make(chan struct{}, 1), map[int]bool{}
	c.conns = map[int]*connState{}
	if c.v201 != nil {
		c.v201.connected()
	}
	c.mu.Unlock()
	if c.o.OnlineCallback != nil {
		c.o.OnlineCallback(c.sn, true)
		defer c.o.OnlineCallback(c.sn, false)
	}
	go func() {
		<-cctx.Done()
		_ = ws.Close()
	}()
	go c.read(cctx, cancel, ws)
	boot, err := c.call(cctx, "BootNotification", c.bootRequest())
	if err != nil {
		return
	}
	var b struct { // the same in 1.6 and 2.0.1
		Status   string `json:"status"`
		Interval int    `json:"interval"`
	}
	_ = json.Unmarshal(boot, &b)
	hb := time.Duration(max(b.Interval, 10)) * time.Second
	if b.Status != "Accepted" {
		// Pending or Rejected: wait, then boot again on a new connection.
		c.sleep(cctx, hb)
		return
	}
	for conn := 0; conn <= c.o.Connectors; conn++ {
		c.status(cctx, conn, "Available", "NoError")
	}
	go c.heartbeats(cctx, hb)
	var wg sync.WaitGroup
	for conn := 1; conn <= c.o.Connectors; conn++ {
		wg.Add(1)
		go func() { defer wg.Done(); c.connectorLife(cctx, conn) }()
	}
	select {
	case <-cctx.Done():
	case <-c.reboot:
		c.forgetProfiles() // a reboot loses them: chargeops must send them again
		c.sleep(ctx, 500*time.Millisecond)
	}
	cancel()
	wg.Wait()
}

// heartbeats beats every hb (the boot's interval) while the connection lasts.
func (c *charger) heartbeats(ctx context.Context, hb time.Duration) {
	for c.sleep(ctx, hb) {
		if _, err := c.call(ctx, "Heartbeat", map[string]any{}); err != nil {
			return
		}
	}
}

func (c *charger) scaled(min, max time.Duration) time.Duration {
	d := min + time.Duration(rand.Int64N(int64(max-min)+1))
	return time.Duration(float64(d) / c.o.Speed)
}

// idle is one idle period: 20-90 s, longer for a charger that is seldom busy (a connector of
// a charger with Busy b charges about b of the time; sessions last 60-300 s).
func (c *charger) idle() time.Duration {
	d := c.scaled(20*time.Second, 90*time.Second)
	if b := c.p.Busy; b > 0 && b < 1 {
		d += time.Duration(float64(c.scaled(60*time.Second, 300*time.Second)) * (1 - b) / b)
	}
	return d
}

// goAway drops the connection as a network outage would, and keeps the charger off the
// network for 1-5 minutes (scaled); the gateway marks it Offline meanwhile.
func (c *charger) goAway() {
	c.mu.Lock()
	c.away = c.scaled(60*time.Second, 300*time.Second)
	ws := c.ws
	c.mu.Unlock()
	if ws != nil {
		_ = ws.Close()
	}
}

// connectorLife alternates idle periods, charging sessions and, now and then, a fault.
func (c *charger) connectorLife(ctx context.Context, conn int) {
	for {
		if !c.sleep(ctx, c.idle()) {
			return
		}
		c.mu.Lock()
		disabled := c.disabled[conn] || c.disabled[0]
		c.mu.Unlock()
		if disabled || !c.free(conn) {
			continue // a remote session or a reservation holds the connector
		}
		if rand.Float64() < c.o.OfflineChance {
			c.goAway()
			return
		}
		if rand.Float64() < c.o.FaultChance {
			c.st.Faults.Add(1)
			codes := []string{"HighTemperature", "GroundFailure", "OverCurrentFailure", "PowerMeterFailure"}
			c.status(ctx, conn, "Faulted", codes[rand.IntN(len(codes))])
			if !c.sleep(ctx, c.scaled(10*time.Second, 40*time.Second)) {
				return
			}
			c.status(ctx, conn, "Available", "NoError")
			continue
		}
		c.session(ctx, conn)
	}
}

// session is a driver's own session: a card at the reader, then charging.
func (c *charger) session(ctx context.Context, conn int) {
	cs := c.claim(conn, "")
	if cs == nil {
		return
	}
	defer c.release(conn)
	c.st.Sessions.Add(1)
	c.status(ctx, conn, "Preparing", "NoError")
	tag := fmt.Sprintf("TAG%04d", rand.IntN(10000))
	if _, err := c.call(ctx, "Authorize", c.authorizeRequest(tag)); err != nil {
		return
	}
	c.charge(ctx, conn, cs, tag, 0)
}

// authorizeRequest is the Authorize of tag.
func (c *charger) authorizeRequest(tag string) any {
	if c.v201 != nil {
		return c.v201.authorizeRequest(tag)
	}
	return map[string]any{"idTag": tag}
}

// charge runs a session on conn from its transaction's start to its stop: meter values until
// its time is up (the driver ends it at the reader or, one time in four, unplugs the car), the
// connector is disabled or a remote stop arrives (cs.stop).
func (c *charger) charge(ctx context.Context, conn int, cs *connState, tag string, reservationID int) {
	if !c.startTransaction(ctx, conn, cs, tag, reservationID) {
		return
	}
	c.mu.Lock()
	txID := cs.txID
	c.startedLocked(conn, cs) // relative charging profiles count from now
	c.mu.Unlock()
	c.status(ctx, conn, "Charging", "NoError")
	end := time.Now().Add(c.scaled(60*time.Second, 300*time.Second))
	soc := 20 + rand.Float64()*40
	reason := "Local"
	for time.Now().Before(end) {
		select {
		case <-ctx.Done():
			return
		case reason = <-cs.stop:
		case <-time.After(time.Duration(float64(c.o.MeterInterval) / c.o.Speed)):
		}
		c.mu.Lock()
		disabled := c.disabled[conn] || c.disabled[0]
		c.mu.Unlock()
		if disabled || reason == "Remote" {
			break
		}
		if c.p.DC {
			soc = math.Min(100, soc+2+2*rand.Float64())
		} else {
			soc = math.Min(100, soc+0.5+rand.Float64())
		}
		c.meter(ctx, conn, txID, soc)
	}
	if reason == "Local" && time.Now().After(end) && rand.IntN(4) == 0 {
		reason = "EVDisconnected"
	}
	c.status(ctx, conn, "Finishing", "NoError")
	c.stopTransaction(ctx, conn, cs, tag, reason)
	c.status(ctx, conn, "Available", "NoError")
}

// startTransaction starts the session's transaction (1.6 StartTransaction) and sets cs.txID;
// false when the CSMS did not answer.
func (c *charger) startTransaction(ctx context.Context, conn int, cs *connState, tag string, reservationID int) bool {
	if c.v201 != nil {
		return c.v201.started(ctx, conn, cs, tag, reservationID)
	}
	req := map[string]any{"connectorId": conn, "idTag": tag, "meterStart": int(c.register(conn)), "timestamp": ts(time.Now())}
	if reservationID > 0 {
		req["reservationId"] = reservationID
	}
	res, err := c.call(ctx, "StartTransaction", req)
	if err != nil {
		return false
	}
	var tx struct {
		TransactionID int `json:"transactionId"`
	}
	_ = json.Unmarshal(res, &tx)
	c.mu.Lock()
	cs.txID = tx.TransactionID
	c.mu.Unlock()
	return true
}

// stopTransaction stops the session's transaction (1.6 StopTransaction) for reason: Local,
// EVDisconnected or Remote.
func (c *charger) stopTransaction(ctx context.Context, conn int, cs *connState, tag, reason string) {
	if c.v201 != nil {
		c.v201.ended(ctx, conn, reason)
		return
	}
	c.mu.Lock()
	txID := cs.txID
	c.mu.Unlock()
	_, _ = c.call(ctx, "StopTransaction", map[string]any{"transactionId": txID, "meterStop": int(c.register(conn)), "timestamp": ts(time.Now()), "idTag": tag, "reason": reason})
}

// register is conn's energy register (Wh).
func (c *charger) register(conn int) float64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.energy[conn]
}

// figures are a meter reading: voltage (V), current (A) and power (W). AC: about 230 V and
// up to the rated power; DC: 300-450 V rising with the SoC, power tapering above 80 %.
func (c *charger) figures(soc float64) (voltage, current, power float64) {
	if !c.p.DC {
		voltage = 228 + rand.Float64()*6
		current = c.p.MaxPowerW / 230 * (0.85 + rand.Float64()*0.15)
		return voltage, current, voltage * current
	}
	voltage = 330 + soc*1.1 + rand.Float64()*5
	power = c.p.MaxPowerW * (0.9 + rand.Float64()*0.08)
	if soc > 80 {
		power *= math.Max(0.15, 1-(soc-80)/25)
	}
	return voltage, power / voltage, power
}

// reading is one meter sample of a connector.
type reading struct {
	voltage, current, power float64 // V, A, W
	energy                  float64 // the energy register, Wh
	soc                     float64 // %
}

// sample meters conn over one meter interval at soc: figures, and the energy register grown by
// the power drawn meanwhile.
func (c *charger) sample(conn int, soc float64) reading {
	voltage, current, power := c.figures(soc)
	voltage, current, power = c.throttle(conn, voltage, current, power) // the charging profiles' limit
	c.mu.Lock()
	c.energy[conn] += power * c.o.MeterInterval.Hours()
	energy := c.energy[conn]
	c.mu.Unlock()
	return reading{voltage: voltage, current: current, power: power, energy: energy, soc: soc}
}

// meter sends a meter sample of conn: of transaction txID, or outside one (0: triggered).
func (c *charger) meter(ctx context.Context, conn, txID int, soc float64) {
	r := c.sample(conn, soc)
	if c.v201 != nil {
		c.v201.meter(ctx, conn, txID != 0, r)
		return
	}
	sv := []map[string]any{
		{"value": f1(r.voltage), "measurand": "Voltage", "unit": "V"},
		{"value": f1(r.current), "measurand": "Current.Import", "unit": "A"},
		{"value": f1(r.power), "measurand": "Power.Active.Import", "unit": "W"},
		{"value": f1(r.energy), "measurand": "Energy.Active.Import.Register", "unit": "Wh"},
		{"value": f1(r.soc), "measurand": "SoC", "unit": "Percent"},
		{"value": f1(30 + rand.Float64()*10), "measurand": "Temperature", "unit": "Celsius"},
	}
	req := map[string]any{"connectorId": conn, "meterValue": []map[string]any{{"timestamp": ts(time.Now()), "sampledValue": sv}}}
	if txID > 0 {
		req["transactionId"] = txID
	}
	_, _ = c.call(ctx, "MeterValues", req)
}

// status reports conn's status (1.6 names: Available, Preparing, Charging, Finishing,
// Reserved, Unavailable, Faulted with errorCode); connector 0 is the charger as a whole.
func (c *charger) status(ctx context.Context, conn int, status, errorCode string) {
	if c.v201 != nil {
		c.v201.status(ctx, conn, status, errorCode)
		return
	}
	_, _ = c.call(ctx, "StatusNotification", map[string]any{"connectorId": conn, "status": status, "errorCode": errorCode, "timestamp": ts(time.Now())})
}

func ts(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }
func f1(v float64) string   { return fmt.Sprintf("%.1f", v) }

func (c *charger) write(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ws == nil {
		return io.ErrClosedPipe
	}
	_ = c.ws.SetWriteDeadline(time.Now().Add(10 * time.Second))
	c.st.Frames.Add(1)
	return c.ws.WriteMessage(websocket.TextMessage, b)
}

// call sends a CALL and waits for its answer (30 s).
func (c *charger) call(ctx context.Context, action string, payload any) (json.RawMessage, error) {
	c.mu.Lock()
	c.seq++
	id := fmt.Sprintf("%s-%d", c.sn, c.seq)
	ch := make(chan json.RawMessage, 1)
	if c.pending == nil {
		c.mu.Unlock()
		return nil, io.ErrClosedPipe
	}
	c.pending[id] = ch
	c.mu.Unlock()
	defer func() { c.mu.Lock(); delete(c.pending, id); c.mu.Unlock() }()
	if err := c.write([]any{2, id, action, payload}); err != nil {
		return nil, err
	}
	t := time.NewTimer(30 * time.Second)
	defer t.Stop()
	select {
	case r := <-ch:
		if r == nil {
			return nil, fmt.Errorf("%s: CALLERROR", action)
		}
		return r, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-t.C:
		return nil, fmt.Errorf("%s: no answer", action)
	}
}

func (c *charger) read(ctx context.Context, cancel context.CancelFunc, ws *websocket.Conn) {
	defer cancel()
	for {
		_, data, err := ws.ReadMessage()
		if err != nil {
			return
		}
		var parts []json.RawMessage
		if json.Unmarshal(data, &parts) != nil || len(parts) < 3 {
			continue
		}
		var typ int
		var id string
		_ = json.Unmarshal(parts[0], &typ)
		_ = json.Unmarshal(parts[1], &id)
		switch typ {
		case 3, 4:
			c.mu.Lock()
			ch := c.pending[id]
			c.mu.Unlock()
			if ch != nil {
				if typ == 3 {
					ch <- parts[2]
				} else {
					ch <- nil
				}
			}
		case 2:
			if len(parts) < 4 {
				continue
			}
			var action string
			_ = json.Unmarshal(parts[2], &action)
			c.st.Commands.Add(1)
			res, code := c.answer(ctx, action, parts[3])
			if code != "" {
				desc := "not supported by the simulator"
				if code != "NotImplemented" {
					desc = "invalid payload"
				}
				_ = c.write([]any{4, id, code, desc, map[string]any{}})
			} else {
				_ = c.write([]any{3, id, res})
			}
		}
	}
}

// answer replies to a remote operation and starts what follows it: the response payload, or
// the code of the CALLERROR to answer with.
func (c *charger) answer(ctx context.Context, action string, raw json.RawMessage) (any, string) {
	if c.v201 != nil {
		return c.v201.answer(ctx, action, raw)
	}
	var req map[string]any
	_ = json.Unmarshal(raw, &req)
	str := func(k string) string { s, _ := req[k].(string); return s }
	num := func(k string) int { f, _ := req[k].(float64); return int(f) }
	switch action {
	case "Reset":
		c.rebootSoon(ctx)
		return map[string]string{"status": "Accepted"}, ""
	case "ChangeAvailability":
		c.changeAvailability(ctx, num("connectorId"), str("type") == "Inoperative")
		return map[string]string{"status": "Accepted"}, ""
	case "GetConfiguration":
		c.mu.Lock()
		defer c.mu.Unlock()
		var keys []map[string]any
		for k, v := range c.config {
			keys = append(keys, map[string]any{"key": k, "readonly": k == "NumberOfConnectors", "value": v})
		}
		return map[string]any{"configurationKey": keys}, ""
	case "ChangeConfiguration":
		k, v := str("key"), str("value")
		c.mu.Lock()
		defer c.mu.Unlock()
		if k == "NumberOfConnectors" {
			return map[string]string{"status": "Rejected"}, ""
		}
		c.setConfigLocked(k, v)
		return map[string]string{"status": "Accepted"}, ""
	case "DataTransfer":
		if data, ok := c.remoteLink(ctx, str("messageId"), req["data"]); ok {
			return map[string]any{"status": "Accepted", "data": data}, ""
		}
		return c.dataTransfer(req), ""
	case "TriggerMessage":
		msg, conn := str("requestedMessage"), num("connectorId")
		go func() {
			c.sleep(ctx, 100*time.Millisecond)
			switch msg {
			case "Heartbeat":
				_, _ = c.call(ctx, "Heartbeat", map[string]any{})
			case "StatusNotification":
				c.status(ctx, conn, "Available", "NoError")
			case "BootNotification":
				_, _ = c.call(ctx, "BootNotification", c.bootRequest())
			case "FirmwareStatusNotification":
				_, _ = c.call(ctx, "FirmwareStatusNotification", map[string]any{"status": "Idle"})
			case "DiagnosticsStatusNotification":
				_, _ = c.call(ctx, "DiagnosticsStatusNotification", map[string]any{"status": "Idle"})
			default:
				for i := 1; i <= c.o.Connectors; i++ {
					if conn == 0 || conn == i {
						c.meter(ctx, i, 0, 50)
					}
				}
			}
		}()
		return map[string]string{"status": "Accepted"}, ""
	case "UpdateFirmware":
		go c.updateFirmware(ctx, str("location"))
		return map[string]any{}, ""
	case "SendLocalList":
		return c.answerSendLocalList(raw), ""
	case "GetLocalListVersion":
		return c.answerGetLocalListVersion(), ""
	case "GetDiagnostics":
		name := c.logFileName()
		go c.uploadDiagnostics(ctx, str("location"), name)
		return map[string]any{"fileName": name}, ""
	}
	if res, code, ok := c.smartCharging16(action, raw); ok {
		return res, code
	}
	if res, ok := c.operation(ctx, action, req); ok {
		return res, ""
	}
	return nil, "NotImplemented"
}

// bootRequest is the charger's BootNotification.
func (c *charger) bootRequest() any {
	if c.v201 != nil {
		return c.v201.bootRequest(c.v201.takeBootReason())
	}
	c.mu.Lock()
	fw := c.firmware
	c.mu.Unlock()
	return map[string]any{"chargePointVendor": c.p.Vendor, "chargePointModel": c.p.Model, "chargePointSerialNumber": c.sn, "firmwareVersion": fw}
}

// rebootNow makes the charger reboot: it drops the connection and boots again.
func (c *charger) rebootNow() {
	select {
	case c.reboot <- struct{}{}:
	default:
	}
}

// rebootSoon reboots the charger in a second, after it answered the Reset.
func (c *charger) rebootSoon(ctx context.Context) {
	go func() {
		c.sleep(ctx, time.Second)
		c.rebootNow()
	}()
}

// changeAvailability makes conn (0: the whole charger) inoperative or operative again, and
// reports it Unavailable or Available.
func (c *charger) changeAvailability(ctx context.Context, conn int, inoperative bool) {
	c.mu.Lock()
	c.disabled[conn] = inoperative
	c.mu.Unlock()
	go func() {
		st := "Available"
		if inoperative {
			st = "Unavailable"
		}
		c.status(ctx, conn, st, "NoError")
	}()
}

// setConfigLocked stores a setting (c.mu held); AuthorizationKey is the key the charger
// connects with from then on.
func (c *charger) setConfigLocked(k, v string) {
	if k == "AuthorizationKey" {
		c.key = v
	} else {
		c.config[k] = v
	}
}

// remoteLink answers the DataTransfers of remote access (VpnStart, VpnStop: remote.go), the
// same in 1.6 and 2.0.1: the data of the Accepted answer; false for another message. The grant
// is the data as a string (or a JSON object).
func (c *charger) remoteLink(ctx context.Context, messageID string, data any) (string, bool) {
	if messageID != "VpnStart" && messageID != "VpnStop" {
		return "", false
	}
	grant, ok := data.(string)
	if !ok && data != nil {
		b, _ := json.Marshal(data)
		grant = string(b)
	}
	c.vpn(ctx, messageID, grant)
	return `{"remaining":3600}`, true
}

func (c *charger) fwStatus(ctx context.Context, s string) {
	if c.v201 != nil {
		c.v201.firmwareStatus(ctx, s)
		return
	}
	_, _ = c.call(ctx, "FirmwareStatusNotification", map[string]any{"status": s})
}

func (c *charger) updateFirmware(ctx context.Context, location string) {
	c.sleep(ctx, 200*time.Millisecond)
	c.fwStatus(ctx, "Downloading")
	req, _ := http.NewRequestWithContext(ctx, "GET", location, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != http.StatusOK {
		if resp != nil {
			resp.Body.Close()
		}
		c.fwStatus(ctx, "DownloadFailed")
		return
	}
	n, _ := io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	c.fwStatus(ctx, "Downloaded")
	c.sleep(ctx, time.Second)
	c.fwStatus(ctx, "Installing")
	c.sleep(ctx, 2*time.Second)
	c.mu.Lock()
	c.firmware = fmt.Sprintf("1.%d.%d", time.Now().Unix()%100, n%1000)
	c.mu.Unlock()
	c.fwStatus(ctx, "Installed")
	c.rebootNow() // into the new firmware
}

// logFileName names a diagnostics upload.
func (c *charger) logFileName() string { return fmt.Sprintf("%s-%d.log", c.sn, time.Now().Unix()) }

func (c *charger) uploadDiagnostics(ctx context.Context, location, name string) {
	c.sleep(ctx, 200*time.Millisecond)
	c.uploadStatus(ctx, "Uploading")
	var b strings.Builder
	for i := range 200 {
		fmt.Fprintf(&b, "%s %s info line %d: connector ok, temperature %.1f\n", ts(time.Now()), c.sn, i, 30+rand.Float64()*5)
	}
	sep := "?"
	if strings.Contains(location, "?") {
		sep = "&"
	}
	req, _ := http.NewRequestWithContext(ctx, "POST", location+sep+"name="+name, strings.NewReader(b.String()))
	req.Header.Set("Content-Type", "text/plain")
	resp, err := http.DefaultClient.Do(req)
	status := "Uploaded"
	if err != nil || resp.StatusCode/100 != 2 {
		status = "UploadFailed"
	}
	if resp != nil {
		resp.Body.Close()
	}
	c.uploadStatus(ctx, status)
}

// uploadStatus reports the diagnostics upload's progress: Uploading, Uploaded, UploadFailed.
func (c *charger) uploadStatus(ctx context.Context, s string) {
	if c.v201 != nil {
		c.v201.logStatus(ctx, s)
		return
	}
	_, _ = c.call(ctx, "DiagnosticsStatusNotification", map[string]any{"status": s})
}
