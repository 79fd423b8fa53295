package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strconv"
	"strings"
	"testing"
	"time"

	"chargeops/internal/config"
	"chargeops/internal/db"
	"chargeops/internal/testutil"
	"chargeops/internal/testutil/apitest"
)

// small is the scale of the tests: 50 chargers, 200 MeterValues/s for 3 s.
func small(url string) FleetOptions {
	return FleetOptions{URL: url, Prefix: "BENCH-", Digits: 7, First: 1, N: 50, ConnectRate: 1000, Rate: 200, Duration: 3 * time.Second,
		Timeout: 10 * time.Second, StormTimeout: 20 * time.Second}
}

// checkLoad asserts what every healthy run shows: every charger held, the offered rate
// achieved with every message answered, an RTT per message.
func checkLoad(t *testing.T, r FleetResult, o FleetOptions) {
	t.Helper()
	if r.Connect.Connected != o.N || r.Connect.Failed != 0 {
		t.Fatalf("connected %d of %d: %+v", r.Connect.Connected, o.N, r.Connect)
	}
	l := r.Load
	want := int64(o.Rate * o.Duration.Seconds())
	if l == nil || l.Scheduled != want || l.Sent != want || l.Answered != want {
		t.Fatalf("load: want %d scheduled, sent and answered, got %+v", want, l)
	}
	if l.CallErrors+l.Timeouts+l.SendErrors+l.Drops != 0 {
		t.Fatalf("load errors: %+v", l)
	}
	if l.Achieved < 0.95*o.Rate || l.Achieved > 1.01*o.Rate {
		t.Fatalf("achieved %.1f/s of %.0f/s offered", l.Achieved, o.Rate)
	}
	if l.RTT.Count() != uint64(want) || l.RTT.Quantile(0.99) <= 0 || l.RTT.Quantile(0.99) > l.RTT.Max() {
		t.Fatalf("RTT: n=%d p99=%s max=%s", l.RTT.Count(), l.RTT.Quantile(0.99), l.RTT.Max())
	}
}

// TestRunAgainstChargeops runs the bench against a whole chargeops node on each database:
// connect, memory reading, commands idle and under load, load, storm, and the protocol log
// holding every frame.
func TestRunAgainstChargeops(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		env := apitest.New(t, d, func(c *config.Config) { c.DataDir = t.TempDir() })
		o := small("ws" + strings.TrimPrefix(env.URL, "http") + "/ocpp")
		if _, err := Seed(context.Background(), d, SeedOptions{Devices: o.N, Prefix: o.Prefix, First: 1, Label: "Bench ", Code: "BENCH-"}); err != nil {
			t.Fatal(err)
		}
		var progress bytes.Buffer
		rep, err := Run(context.Background(), RunOptions{Fleet: o, Storm: true, Settle: 200 * time.Millisecond, IdleCommands: time.Second,
			API:        &APIOptions{URL: env.URL, User: apitest.RootName, Password: apitest.RootPassword},
			MetricsURL: env.URL + "/metrics",
			Logf:       func(f string, a ...any) { progress.WriteString(f + "\n") }})
		if err != nil {
			t.Fatal(err)
		}
		var table bytes.Buffer
		rep.Print(&table)
		t.Log("\n" + table.String())
		if len(rep.Problems) > 0 {
			t.Fatalf("not measured: %v", rep.Problems)
		}
		checkLoad(t, rep.Fleet, o)
		s := rep.Server
		if s.Connections != float64(o.N) || s.Connected.Goroutines <= s.Before.Goroutines {
			t.Fatalf("server figures with the fleet connected: %+v", s)
		}
		// Every frame in the protocol log: each frame either way, an open and a close row per
		// connection (the storm's second connections included).
		if s.LogRows != s.LogRowsExpected || s.LogRowsExpected != rep.Fleet.Frames.Sent+rep.Fleet.Frames.Received+2*int64(2*o.N) {
			t.Fatalf("protocol-log rows %d, expected %d, frames %+v", s.LogRows, s.LogRowsExpected, rep.Fleet.Frames)
		}
		for name, cs := range map[string]*CommandStats{"idle": rep.Commands.Idle, "load": rep.Commands.Load} {
			if cs == nil || cs.Count == 0 || cs.Outcomes["success"] != cs.Count || cs.RTT.Count() != uint64(cs.Count) {
				t.Fatalf("commands %s: %+v", name, cs)
			}
		}
		st := rep.Fleet.Storm
		if st == nil || st.Dropped != o.N || st.Recovered != o.N || st.Stuck != 0 || st.Recovery.Count() != uint64(o.N) {
			t.Fatalf("storm: %+v", st)
		}
		if rep.Console == nil || rep.Console.Failed != 0 {
			t.Fatalf("console during the storm: %+v", rep.Console)
		}
	})
}

// startBare runs the ocpp-go baseline of a protocol until the test ends.
func startBare(t *testing.T, protocol string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	done := make(chan error, 1)
	addr := testutil.FreeAddr(t) // here: t.Fatal belongs to the test's goroutine
	go func() {
		done <- RunBare(ctx, BareOptions{Addr: addr, Protocol: protocol, Ready: func(a string) { ready <- a }})
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	})
	select {
	case a := <-ready:
		return a
	case err := <-done:
		t.Fatal(err)
	case <-time.After(10 * time.Second):
		t.Fatal("bare server did not start")
	}
	return ""
}

// TestRunAgainstBare runs the same load against ocpp-go's own central system, with two worker
// processes' worth of fleets speaking the worker protocol over pipes, and a storm that closes
// the sockets (an abandoned one would be refused as "already exists" for ocpp-go's 60 s).
func TestRunAgainstBare(t *testing.T) {
	addr := startBare(t, Protocol16)
	o := small("ws://" + addr + "/ocpp")
	o.StormDrop = StormClose
	ctx := context.Background()
	var parts []part
	for i, share := range []FleetOptions{o, o} {
		share.N, share.First, share.Rate = o.N/2, 1+i*o.N/2, o.Rate/2
		toWorker, fromParent := io.Pipe()
		toParent, fromWorker := io.Pipe()
		go func() {
			err := RunWorker(ctx, toWorker, fromWorker)
			fromWorker.CloseWithError(err)
		}()
		p, err := newPipePart("worker "+strconv.Itoa(i), fromParent, toParent, share, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(p.stop)
		parts = append(parts, p)
	}
	probe := newServerProbe("http://"+addr+"/metrics", "")
	before, err := probe.gc(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, op := range []string{opConnect, opLoad, opStorm} {
		if err := forAll(ctx, parts, op); err != nil {
			t.Fatal(err)
		}
		if op == opConnect {
			m, err := probe.scrape(ctx)
			if err != nil || m[metricConnections] != float64(o.N) {
				t.Fatalf("bare server connections: %v %v", m[metricConnections], err)
			}
			after, err := probe.gc(ctx)
			if err != nil || after.Goroutines < before.Goroutines+2*o.N {
				t.Fatalf("bare server goroutines %d → %d (%v): ocpp-go runs two per connection", before.Goroutines, after.Goroutines, err)
			}
		}
	}
	if err := forAll(ctx, parts, opClose); err != nil {
		t.Fatal(err)
	}
	r, err := results(ctx, parts)
	if err != nil {
		t.Fatal(err)
	}
	checkLoad(t, r, o)
	if r.Storm == nil || r.Storm.Recovered != o.N || r.Storm.Stuck != 0 {
		t.Fatalf("storm: %+v", r.Storm)
	}
}

func TestHistogram(t *testing.T) {
	var h Histogram
	for i := 1; i <= 10000; i++ {
		h.Record(time.Duration(i) * time.Microsecond)
	}
	for q, want := range map[float64]time.Duration{0.5: 5000 * time.Microsecond, 0.99: 9900 * time.Microsecond} {
		got := h.Quantile(q)
		if diff := float64(got-want) / float64(want); diff < -0.02 || diff > 0.02 {
			t.Errorf("q%.2f = %s, want %s ±2 %%", q, got, want)
		}
	}
	if h.Max() != 10*time.Millisecond || h.Count() != 10000 {
		t.Fatalf("max %s count %d", h.Max(), h.Count())
	}
	b, err := json.Marshal(&h)
	if err != nil {
		t.Fatal(err)
	}
	var back, merged Histogram
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	merged.Merge(&back)
	merged.Merge(&h)
	if merged.Count() != 20000 || merged.Quantile(0.5) != h.Quantile(0.5) || merged.Max() != h.Max() {
		t.Fatalf("merged: n=%d p50=%s max=%s", merged.Count(), merged.Quantile(0.5), merged.Max())
	}
	for v := uint64(0); v < 1<<40; v = v*3 + 1 {
		if i := bucketOf(v); bucketLow(i) > v || bucketHigh(i) < v {
			t.Fatalf("%d outside bucket %d [%d, %d]", v, i, bucketLow(i), bucketHigh(i))
		}
	}
}

func TestFrames(t *testing.T) {
	frame := callFrame(nil, 42, "MeterValues", meterPayload(nil, 7, 3, 2, time.Unix(0, 0)))
	var parts []json.RawMessage
	if err := json.Unmarshal(frame, &parts); err != nil || len(parts) != 4 || string(parts[1]) != `"42"` || string(parts[2]) != `"MeterValues"` {
		t.Fatalf("%s: %v", frame, err)
	}
	typ, id, rest, ok := frameHead([]byte(` [ 3 , "42" , {"status":"Accepted"} ] `))
	if !ok || typ != 3 || id != "42" || strings.TrimSpace(string(resultPayload(rest))) != `{"status":"Accepted"}` {
		t.Fatalf("%d %q %q %v", typ, id, resultPayload(rest), ok)
	}
	_, _, rest, _ = frameHead([]byte(`[4,"9","NotSupported","no such action",{}]`))
	if e := callError(rest); e.Code != "NotSupported" || e.Description != "no such action" {
		t.Fatalf("%+v", e)
	}
	m := parseMetrics("# HELP x\ngo_goroutines 12\nchargeops_ocpp_connections 3e+00\napi{route=\"GET /a b\",code=\"0\"} 5\n")
	if m[metricGoroutines] != 12 || m[metricConnections] != 3 || m[`api{route="GET /a b",code="0"}`] != 5 {
		t.Fatalf("%v", m)
	}
}

// The node's POST /debug/gc is guarded like /metrics: with a metrics token configured, only a
// caller with the token gets the memory reading, and the bench's probe sends it.
func TestDebugGCGuarded(t *testing.T) {
	env := apitest.New(t, testutil.OpenSQLite(t), func(c *config.Config) { c.DataDir = t.TempDir(); c.MetricsToken = "s3cret" })
	ctx := context.Background()
	if _, err := newServerProbe(env.URL+"/metrics", "").gc(ctx); err == nil || !strings.Contains(err.Error(), "401") {
		t.Fatalf("without the token: %v", err)
	}
	probe := newServerProbe(env.URL+"/metrics", "s3cret")
	s, err := probe.gc(ctx)
	if err != nil || s.HeapInuse == 0 || s.Goroutines == 0 || s.Held() < s.HeapInuse {
		t.Fatalf("%+v %v", s, err)
	}
	m, err := probe.scrape(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{metricConnections, metricLogRows, metricQueue, "chargeops_ocpp_sockets", metricGoroutines} {
		if _, ok := m[name]; !ok {
			t.Errorf("/metrics lacks %s", name)
		}
	}
}
