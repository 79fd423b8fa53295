package app_test

import (
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"testing"
	"time"

	"chargeops/internal/config"
	"chargeops/internal/db"
	"chargeops/internal/fleet/fleettest"
	"chargeops/internal/testutil"
)

// dbProxy stands between a node and PostgreSQL: cut closes every connection and refuses new
// ones (the database is gone for the node, the machine's server keeps running), heal lets them
// through again.
type dbProxy struct {
	ln     net.Listener
	target string
	mu     sync.Mutex
	cutOff bool
	conns  map[net.Conn]bool
}

func newDBProxy(t *testing.T, target string) *dbProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &dbProxy{ln: ln, target: target, conns: map[net.Conn]bool{}}
	t.Cleanup(func() { ln.Close(); p.cut() })
	go p.serve()
	return p
}

func (p *dbProxy) serve() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		off := p.cutOff
		p.mu.Unlock()
		if off {
			c.Close()
			continue
		}
		up, err := net.DialTimeout("tcp", p.target, 5*time.Second)
		if err != nil {
			c.Close()
			continue
		}
		p.mu.Lock()
		p.conns[c], p.conns[up] = true, true
		p.mu.Unlock()
		go func() { _, _ = io.Copy(up, c); up.Close(); c.Close() }()
		go func() { _, _ = io.Copy(c, up); up.Close(); c.Close() }()
	}
}

func (p *dbProxy) cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cutOff = true
	for c := range p.conns {
		c.Close()
	}
	clear(p.conns)
}

func (p *dbProxy) heal() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cutOff = false
}

// A PostgreSQL outage longer than the old retry deadline (50 attempts, about 80 s in production;
// here the back-off is 100 ms, so 50 attempts take about 5 s and the outage lasts 12 s): the
// batch being retried is held, not dropped; /healthz answers 503 "ingest held" and the metrics
// say so; no frame received during the outage is acknowledged before it is stored, and every
// frame acknowledged before, during and after is stored. (SQLite's outage is a full disk:
// TestDiskFullHoldsIngestAndRecovers.)
func TestDatabaseOutageHoldsIngestWithoutLoss(t *testing.T) {
	testutil.ForEachDBAt(t, func(t *testing.T, d *db.DB, at testutil.Where) {
		if d.Dialect() != db.Postgres {
			t.Skip("SQLite has no server to lose: its outage is a full disk (TestDiskFullHoldsIngestAndRecovers)")
		}
		o := fleettest.Seed(t, d)
		sns := fleettest.Devices(t, d, o, "OUTAGE-", 8)
		u, err := url.Parse(at.DSN)
		if err != nil {
			t.Fatal(err)
		}
		proxy := newDBProxy(t, u.Host)
		u.Host = proxy.ln.Addr().String()
		q := u.Query()
		q.Set("connect_timeout", "2")
		u.RawQuery = q.Encode()
		cfg := config.Default()
		cfg.MQTTAddr = "127.0.0.1:0"  // the embedded broker on a free port, beside any broker on 1883
		cfg.RequireDeviceKeys = false // keyless test chargers
		cfg.DB, cfg.DataDir, cfg.IngestRetryMax = u.String(), at.DataDir, 100*time.Millisecond
		n := startNode(t, cfg)
		load := drive(t, n.addr, sns)

		testutil.Eventually(t, "100 frames acknowledged before the outage", func() bool {
			return countFrames(load.snapshot(), func(f frame) bool { return !f.answered.IsZero() }) >= 100
		})
		failuresBefore, _ := strconv.ParseFloat(n.metric(t, "chargeops_ingest_failures_total"), 64)
		proxy.cut()
		cutAt := time.Now()
		// the ping fails ("db unavailable") as soon as the link is cut; "ingest held" follows
		// once a batch of the chargers' frames has failed to be written
		body := n.waitHealth(t, http.StatusServiceUnavailable, 10*time.Second)
		for deadline := time.Now().Add(10 * time.Second); body["status"] != "ingest held" && time.Now().Before(deadline); {
			time.Sleep(100 * time.Millisecond)
			_, body = n.health(t)
		}
		if body["status"] != "ingest held" || body["reason"] != "database unreachable" {
			proxy.heal() // so that the node can stop: it holds what it could not write
			t.Fatalf("/healthz during the outage: %v, want status \"ingest held\", reason \"database unreachable\"", body)
		}
		if v := n.metric(t, "chargeops_ingest_held"); v != "1" {
			t.Fatalf("chargeops_ingest_held during the outage: %s", v)
		}
		time.Sleep(12*time.Second - time.Since(cutAt))
		if v, _ := strconv.ParseFloat(n.metric(t, "chargeops_ingest_held_seconds"), 64); v < 8 {
			t.Fatalf("chargeops_ingest_held_seconds after 12 s of outage: %v", v)
		}
		failures, _ := strconv.ParseFloat(n.metric(t, "chargeops_ingest_failures_total"), 64)
		if failures-failuresBefore < 50 {
			t.Fatalf("only %v retries during the outage: not past the old deadline of 50", failures-failuresBefore)
		}
		proxy.heal()
		healAt := time.Now()
		n.waitHealth(t, http.StatusOK, 15*time.Second)
		recovered := time.Since(healAt)
		testutil.Eventually(t, "100 frames sent after the heal acknowledged", func() bool {
			return countFrames(load.snapshot(), func(f frame) bool { return f.sent.After(healAt) && !f.answered.IsZero() }) >= 100
		})
		load.stop()

		frames := load.snapshot()
		var before, during, after int
		for _, f := range frames {
			switch {
			case f.answered.IsZero():
			case f.answered.Before(cutAt):
				before++
			case f.answered.Before(healAt):
				// a batch committed just before the cut may be answered a moment after it;
				// nothing sent after the cut is acknowledged before the database is back
				if f.sent.After(cutAt) || f.answered.After(cutAt.Add(time.Second)) {
					t.Fatalf("%s: a frame sent at %s was acknowledged at %s, during the outage", f.sn, f.sent.Format(time.StampMilli), f.answered.Format(time.StampMilli))
				}
				before++
			case f.sent.Before(healAt):
				during++
			default:
				after++
			}
		}
		acked := checkStored(t, d, frames)
		if before < 100 || during < len(sns) || after < 100 {
			t.Fatalf("too little load: %d frames acknowledged before the outage, %d held through it, %d after", before, during, after)
		}
		t.Logf("outage 12 s, %v retries: %d frames acknowledged before, %d held and acknowledged after the heal, %d after; all %d stored; healthy %s after the heal",
			failures-failuresBefore, before, during, after, acked, recovered.Round(time.Millisecond))
	})
}

// countFrames counts the frames that match.
func countFrames(frames []frame, match func(frame) bool) int {
	n := 0
	for _, f := range frames {
		if match(f) {
			n++
		}
	}
	return n
}
