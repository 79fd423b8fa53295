package agent

import (
	"encoding/json"
	"net"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"chargeops/internal/ess"
	"chargeops/internal/mqttwire"
)

// TestBirthAndWill: the unit's birth is retained with its attributes; when the network under
// the connection is cut the broker publishes the last will {"online":false} (retained); on
// reconnection the birth comes again; a stopping agent says offline itself.
func TestBirthAndWill(t *testing.T) {
	c := newCloud(t)
	p := newProxy(t, c.addr)
	f := &fakeUnit{}
	a := startAgent(t, p.url(), t.TempDir(), f, nil)
	status := mqttwire.Topic(testSN, mqttwire.KindStatus)

	var birth mqttwire.Status
	waitFor(t, 5*time.Second, "a retained birth with attributes", func() bool {
		raw := c.retained(status)
		return raw != nil && json.Unmarshal(raw, &birth) == nil && birth.Online && birth.Attributes != nil
	})
	want := fakeAttributes
	want.Agent = "chargeops-agent/test"
	if *birth.Attributes != want {
		t.Errorf("birth attributes = %+v, want %+v", *birth.Attributes, want)
	}
	if birth.TS == 0 {
		t.Error("birth has no ts")
	}

	p.cut(true)
	waitFor(t, 5*time.Second, "the last will as the retained status", func() bool {
		var st mqttwire.Status
		return json.Unmarshal(c.retained(status), &st) == nil && !st.Online
	})
	waitFor(t, 2*time.Second, "the agent to notice", func() bool { return !a.stats().Connected })

	p.restore()
	waitFor(t, 5*time.Second, "a new birth after reconnecting", func() bool {
		var st mqttwire.Status
		return json.Unmarshal(c.retained(status), &st) == nil && st.Online
	})

	a.stop()
	var last mqttwire.Status
	if err := json.Unmarshal(c.retained(status), &last); err != nil || last.Online || last.TS == 0 {
		t.Errorf("retained status after stop = %s, want {online:false, ts}", c.retained(status))
	}
}

// TestTelemetryLeavesBufferOnAck: readings arrive in order, and stay in the buffer (on disk)
// until chargeops acks the message that carried them.
func TestTelemetryLeavesBufferOnAck(t *testing.T) {
	c := newCloud(t)
	c.setPolicy(func(string, string) *mqttwire.Ack { return nil }) // hold every ack
	f := &fakeUnit{}
	a := startAgent(t, c.url(), t.TempDir(), f, nil)

	waitFor(t, 5*time.Second, "a full window published and held", func() bool {
		return len(c.telemetry(testSN)) >= maxInFlight && a.stats().Buffered >= 2*maxInFlight
	})
	s := a.stats()
	if s.Acked != 0 || s.Dropped != 0 {
		t.Fatalf("without acks: stats = %+v, want nothing acked or dropped", s)
	}
	// The window is full: nothing more is published until an ack comes.
	sent := len(c.telemetry(testSN))
	time.Sleep(100 * time.Millisecond)
	if n := len(c.telemetry(testSN)); n != sent || n > maxInFlight {
		t.Errorf("telemetry messages without acks = %d then %d, want at most %d in flight", sent, n, maxInFlight)
	}

	buffered := a.stats().Buffered
	c.release(testSN)
	waitFor(t, 5*time.Second, "the held readings acked", func() bool {
		s := a.stats()
		return s.Acked >= uint64(buffered) && s.Buffered <= 1
	})
	a.stop()
	checkInOrder(t, c.counters(testSN), 1)
	for _, m := range c.telemetry(testSN) {
		if len(m.Readings) > mqttwire.MaxReadings {
			t.Errorf("message %s has %d readings", m.ID, len(m.Readings))
		}
	}
}

// TestBrokerOutage: while the broker is down, readings go to disk; once it is back on the same
// address, every reading is delivered in order (repeats allowed, none missing).
func TestBrokerOutage(t *testing.T) {
	c := newCloud(t)
	f := &fakeUnit{}
	a := startAgent(t, c.url(), t.TempDir(), f, nil)
	waitFor(t, 5*time.Second, "5 readings acked", func() bool { return a.stats().Acked >= 5 })

	c.stop()
	waitFor(t, 5*time.Second, "the agent to see the broker gone", func() bool { return !a.stats().Connected })
	waitFor(t, 5*time.Second, "20 readings buffered", func() bool { return a.stats().Buffered >= 20 })
	readDuringOutage := f.readCount()

	c.start()
	waitFor(t, 5*time.Second, "the outage's readings delivered", func() bool {
		s := a.stats()
		return s.Connected && s.Buffered <= 1 && s.Acked >= uint64(readDuringOutage)
	})
	a.stop()
	if got := checkInOrder(t, c.counters(testSN), 1); got < readDuringOutage {
		t.Errorf("delivered up to reading %d, want at least %d", got, readDuringOutage)
	}
}

// TestRestartResendsUnacked: readings an agent sent but never saw acked are sent again by the
// next agent on the same buffer directory.
func TestRestartResendsUnacked(t *testing.T) {
	c := newCloud(t)
	c.setPolicy(func(string, string) *mqttwire.Ack { return nil })
	dir := t.TempDir()
	f := &fakeUnit{}
	first := startAgent(t, c.url(), dir, f, nil)
	waitFor(t, 5*time.Second, "5 readings buffered", func() bool { return first.stats().Buffered >= 5 })
	first.stop()
	unacked := f.readCount()
	if segs, _ := filepath.Glob(filepath.Join(dir, testSN, "*.seg")); len(segs) == 0 {
		t.Fatal("no buffer segment on disk after the first agent")
	}

	c.setPolicy(ackAll)
	second := startAgent(t, c.url(), dir, f, nil)
	waitFor(t, 5*time.Second, "the first agent's readings acked", func() bool {
		s := second.stats()
		return s.Acked >= uint64(unacked) && s.Buffered <= 1
	})
	second.stop()
	if got := checkInOrder(t, c.counters(testSN), 1); got < unacked {
		t.Errorf("delivered up to reading %d, want at least %d", got, unacked)
	}
}

// TestRefusedAckDrops: a message chargeops refuses (ack ok:false) leaves the buffer as dropped
// and is not sent again; the readings after it are delivered.
func TestRefusedAckDrops(t *testing.T) {
	c := newCloud(t)
	var refused string
	c.setPolicy(func(kind, id string) *mqttwire.Ack {
		if kind == mqttwire.KindTelemetry && (refused == "" || refused == id) {
			refused = id // runs under the cloud's lock
			return &mqttwire.Ack{ID: id, OK: false, Error: "bad reading"}
		}
		return &mqttwire.Ack{ID: id, OK: true}
	})
	f := &fakeUnit{}
	a := startAgent(t, c.url(), t.TempDir(), f, nil)
	waitFor(t, 5*time.Second, "5 readings acked after the refused one", func() bool { return a.stats().Acked >= 5 })
	a.stop()

	var refusedID string
	c.locked(func() { refusedID = refused })
	var refusedReadings, sends int
	for _, m := range c.telemetry(testSN) {
		if m.ID == refusedID {
			sends++
			refusedReadings = len(m.Readings)
		}
	}
	if sends != 1 {
		t.Errorf("refused message %s sent %d times, want once", refusedID, sends)
	}
	if s := a.stats(); s.Dropped != uint64(refusedReadings) {
		t.Errorf("dropped = %d, want the refused message's %d readings", s.Dropped, refusedReadings)
	}
}

// TestAckTimeoutResends: a message whose ack does not come within AckTimeout is sent again,
// from the oldest unacknowledged reading.
func TestAckTimeoutResends(t *testing.T) {
	c := newCloud(t)
	lost := 0
	c.setPolicy(func(kind, id string) *mqttwire.Ack {
		if lost < maxInFlight {
			lost++
			return nil // the acks of the first window are lost
		}
		return &mqttwire.Ack{ID: id, OK: true}
	})
	f := &fakeUnit{}
	a := startAgent(t, c.url(), t.TempDir(), f, func(_ *Config, o *Options) { o.AckTimeout = 300 * time.Millisecond })
	waitFor(t, 5*time.Second, "readings acked after a resend", func() bool { return a.stats().Acked >= 10 })
	a.stop()
	checkInOrder(t, c.counters(testSN), 1)
	if s := a.stats(); s.Published <= s.Acked {
		t.Errorf("published %d, acked %d: want resends", s.Published, s.Acked)
	}
}

// TestCommands: chargeops' commands and their answers.
func TestCommands(t *testing.T) {
	c := newCloud(t)
	f := &fakeUnit{}
	a := startAgent(t, c.url(), t.TempDir(), f, nil)
	waitFor(t, 5*time.Second, "the birth (subscriptions are up)", func() bool { return len(c.statuses(testSN)) > 0 })
	reply := mqttwire.ReplyTopic(testSN, "node-a")
	later := func() int64 { return time.Now().Add(10 * time.Second).UnixMilli() }
	answered := func(t *testing.T, id string, n int) []answer {
		t.Helper()
		waitFor(t, 5*time.Second, "answer to "+id, func() bool { return len(c.answersTo(id)) >= n })
		return c.answersTo(id)
	}

	t.Run("round trip with status and values", func(t *testing.T) {
		power := -5000.0
		c.command(testSN, mqttwire.Command{ID: "c-power", Name: ess.CmdSetPower, Params: ess.Params{PowerW: &power}, ReplyTo: reply, Expires: later()})
		got := answered(t, "c-power", 1)[0]
		if got.topic != reply || got.res.Status != ess.StatusAccepted {
			t.Errorf("answer = %+v on %s, want Accepted on %s", got.res, got.topic, reply)
		}
		if string(got.res.Values[ess.PCSSetpoint]) != "-5000" || string(got.res.Values[ess.PCSMode]) != `"manual"` {
			t.Errorf("read-back values = %s", got.res.Values)
		}
		c.command(testSN, mqttwire.Command{ID: "c-config", Name: ess.CmdGetConfig, ReplyTo: reply, Expires: later()})
		if got := answered(t, "c-config", 1)[0]; len(got.res.Items) != 1 || got.res.Items[0].Key != "MaxSoC" {
			t.Errorf("getConfig items = %+v", got.res.Items)
		}
	})

	t.Run("expired command ignored", func(t *testing.T) {
		before := len(f.appliedNames())
		c.command(testSN, mqttwire.Command{ID: "c-expired", Name: ess.CmdFaultReset, ReplyTo: reply, Expires: time.Now().Add(-time.Second).UnixMilli()})
		c.command(testSN, mqttwire.Command{ID: "c-after-expired", Name: ess.CmdRun, ReplyTo: reply, Expires: later()})
		answered(t, "c-after-expired", 1) // commands run in order: the expired one is behind us
		if n := len(c.answersTo("c-expired")); n != 0 {
			t.Errorf("expired command answered %d times", n)
		}
		if got := f.appliedNames()[before:]; !slices.Equal(got, []string{ess.CmdRun}) {
			t.Errorf("applied %v, want only run", got)
		}
	})

	t.Run("replyTo outside the unit's prefix refused", func(t *testing.T) {
		before := len(f.appliedNames())
		for i, to := range []string{
			mqttwire.ReplyTopic("OTHER-UNIT", "node-a"),
			mqttwire.Topic(testSN, mqttwire.KindStatus),
			"elsewhere/cmd/res/node-a",
			"",
		} {
			c.command(testSN, mqttwire.Command{ID: "c-foreign-" + string(rune('a'+i)), Name: ess.CmdReboot, ReplyTo: to, Expires: later()})
		}
		c.command(testSN, mqttwire.Command{ID: "c-after-foreign", Name: ess.CmdRun, ReplyTo: reply, Expires: later()})
		answered(t, "c-after-foreign", 1)
		for _, an := range c.answers() {
			if an.topic != reply {
				t.Errorf("answer %s published on %s", an.res.ID, an.topic)
			}
		}
		if got := f.appliedNames()[before:]; !slices.Equal(got, []string{ess.CmdRun}) {
			t.Errorf("applied %v, want only run", got)
		}
	})

	t.Run("duplicate command id answered, not applied twice", func(t *testing.T) {
		before := len(f.appliedNames())
		cmd := mqttwire.Command{ID: "c-dup", Name: ess.CmdReboot, Params: ess.Params{Hard: true}, ReplyTo: reply, Expires: later()}
		c.command(testSN, cmd)
		c.command(testSN, cmd)
		got := answered(t, "c-dup", 2)
		if got[0].res.Status != ess.StatusAccepted || got[1].res.Status != ess.StatusAccepted {
			t.Errorf("answers = %+v", got)
		}
		if got := f.appliedNames()[before:]; !slices.Equal(got, []string{ess.CmdReboot}) {
			t.Errorf("applied %v, want reboot once", got)
		}
	})

	t.Run("unreachable unit answers Failed", func(t *testing.T) {
		f.setFailing(true)
		defer f.setFailing(false)
		waitFor(t, 5*time.Second, "a failed read", func() bool {
			d := &a.units[0].dev
			d.mu.Lock()
			defer d.mu.Unlock()
			return d.src == nil
		})
		c.command(testSN, mqttwire.Command{ID: "c-down", Name: ess.CmdRun, ReplyTo: reply, Expires: later()})
		if got := answered(t, "c-down", 1)[0]; got.res.Status != ess.StatusFailed {
			t.Errorf("answer = %+v, want Failed", got.res)
		}
	})
}

// TestAlarms: raised and cleared codes go as reports in order; after a reconnection a Full
// report of what is active replaces what was pending. Codes outside the scheme are left out.
func TestAlarms(t *testing.T) {
	c := newCloud(t)
	p := newProxy(t, c.addr)
	f := &fakeUnit{}
	f.setAlarms("BMS.CellImbalance", "not-a-code")
	a := startAgent(t, p.url(), t.TempDir(), f, nil)

	reportsAfter := func(n int) []mqttwire.AlarmReport {
		t.Helper()
		waitFor(t, 5*time.Second, "an alarm report", func() bool { return len(c.alarmReports(testSN)) > n })
		return c.alarmReports(testSN)[n:]
	}
	got := reportsAfter(0)
	checkReport(t, got[0], true, mqttwire.Alarm{Code: "BMS.CellImbalance", Active: true})

	f.setAlarms("BMS.CellImbalance", "PCS.FanFault")
	got = reportsAfter(1)
	checkReport(t, got[0], false, mqttwire.Alarm{Code: "PCS.FanFault", Active: true})

	f.setAlarms("PCS.FanFault")
	got = reportsAfter(2)
	checkReport(t, got[0], false, mqttwire.Alarm{Code: "BMS.CellImbalance", Active: false})

	// Cut: alarms that change while disconnected are covered by the Full report.
	p.cut(true)
	waitFor(t, 5*time.Second, "the agent to notice", func() bool { return !a.stats().Connected })
	f.setAlarms("PCS.FanFault", "BMS.CellOverTemperature")
	time.Sleep(60 * time.Millisecond)
	f.setAlarms("BMS.CellOverTemperature")
	time.Sleep(60 * time.Millisecond)
	n := len(c.alarmReports(testSN))
	p.restore()
	got = reportsAfter(n)
	checkReport(t, got[0], true, mqttwire.Alarm{Code: "BMS.CellOverTemperature", Active: true})
	time.Sleep(100 * time.Millisecond)
	if extra := c.alarmReports(testSN)[n+1:]; len(extra) != 0 {
		t.Errorf("reports after the Full one: %+v, want none (it replaced the pending ones)", extra)
	}
	for _, r := range c.alarmReports(testSN) {
		if r.ID == "" || r.TS == 0 {
			t.Errorf("report without id or ts: %+v", r)
		}
	}
}

func checkReport(t *testing.T, r mqttwire.AlarmReport, full bool, alarms ...mqttwire.Alarm) {
	t.Helper()
	if r.Full != full || !slices.Equal(r.Alarms, alarms) {
		t.Errorf("report = full %v %+v, want full %v %+v", r.Full, r.Alarms, full, alarms)
	}
}

// TestBufferLimitDropsOldest: with chargeops out of reach, the buffer stays under
// maxBufferBytes by dropping its oldest readings; what is delivered later is the newest, in
// order, starting right after the dropped ones.
func TestBufferLimitDropsOldest(t *testing.T) {
	addr := freeAddr(t)
	f := &fakeUnit{}
	const limit = 3000
	a := startAgent(t, "mqtt://"+addr, t.TempDir(), f, func(c *Config, _ *Options) { c.MaxBufferBytes = limit })
	waitFor(t, 5*time.Second, "readings dropped over the limit", func() bool { return a.stats().Dropped >= 10 })
	s := a.stats()
	if perReading := limit / s.Buffered; s.Buffered == 0 || perReading < 60 || perReading > 200 {
		t.Errorf("%d readings kept under %d bytes: the limit is not what is enforced", s.Buffered, limit)
	}

	c := newCloudAt(t, addr)
	waitFor(t, 5*time.Second, "the kept readings delivered", func() bool {
		s := a.stats()
		return s.Connected && s.Buffered <= 1 && s.Acked > 0
	})
	a.stop()
	got := c.counters(testSN)
	if len(got) == 0 {
		t.Fatal("nothing delivered")
	}
	firstDelivered := got[0]
	if firstDelivered == 1 {
		t.Fatal("reading 1 delivered: nothing was dropped from the front")
	}
	checkInOrder(t, got, firstDelivered)
	// Every reading is accounted for once: acked, dropped or still buffered. (A reading
	// dropped while in flight may still have been delivered.)
	if s := a.stats(); s.Acked+s.Dropped+uint64(s.Buffered) != uint64(f.readCount()) {
		t.Errorf("acked %d + dropped %d + buffered %d != %d readings", s.Acked, s.Dropped, s.Buffered, f.readCount())
	} else if s.Dropped < uint64(firstDelivered-1) {
		t.Errorf("dropped %d, but delivery starts at reading %d", s.Dropped, firstDelivered)
	}
}

// freeAddr is a loopback address nobody listens on (yet).
func freeAddr(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}
