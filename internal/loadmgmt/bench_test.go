package loadmgmt

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"testing"
	"time"

	"chargeops/internal/db"
	"chargeops/internal/testutil"
)

// BenchmarkPlan500Sites: the pure allocation of 500 sites of 20 sessions each (a mix of
// three-phase and single-phase, priorities and idle sessions).
func BenchmarkPlan500Sites(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	type site struct {
		l  Limit
		ds []Demand
	}
	sites := make([]site, 500)
	for i := range sites {
		sites[i].l = even(50 + r.Float64()*150)
		for j := range 20 {
			sites[i].ds = append(sites[i].ds, Demand{DeviceID: int64(i*20 + j + 1), ConnectorID: 1, TransactionID: int64(j + 1),
				Phases: []int{1, 3, 3}[r.IntN(3)], Phase: r.IntN(3) + 1, MinA: 6, MaxA: 32, Priority: r.IntN(2), Started: int64(r.IntN(100)),
				Idle: r.IntN(10) == 0})
		}
	}
	b.ResetTimer()
	start := time.Now()
	for b.Loop() {
		for _, s := range sites {
			Plan(s.l, s.ds)
		}
	}
	b.ReportMetric(float64(time.Since(start).Microseconds())/1000/float64(b.N), "ms/round")
}

// BenchmarkReplanBurst: 500 sites of 20 chargers, 10,000 sessions started in one transaction;
// one op is a full planning round of every site by the node holding all leases (chargers
// offline: no commands, every allocation row written). SQLite, and PostgreSQL when
// CHARGEOPS_TEST_PG is set.
func BenchmarkReplanBurst(b *testing.B) {
	b.Run("sqlite", func(b *testing.B) { benchBurst(b, testutil.OpenSQLite(b)) })
	if os.Getenv("CHARGEOPS_TEST_PG") != "" {
		b.Run("postgres", func(b *testing.B) { benchBurst(b, testutil.OpenPostgres(b)) })
	}
}

// seedBurst seeds nSites sites of perSite chargers with enabled limits and, when burst, starts a
// session on every charger in one transaction.
func seedBurst(b *testing.B, d *db.DB, burst bool) (sites []int64, startBurst func()) {
	b.Helper()
	ctx := context.Background()
	o := seed(b, d)
	const nSites, perSite = 500, 20
	now := db.NowMS()
	err := d.InTx(ctx, func(tx *db.Tx) error {
		for i := range nSites {
			site := addSite(b, tx, o.CustomerA, fmt.Sprintf("BS%04d", i))
			sites = append(sites, site)
			if _, err := tx.Exec(ctx, `INSERT INTO site_power (site_id, enabled, limit_kw, min_a, updated_at) VALUES (?, 1, ?, 6, ?)`, site, 100, now); err != nil {
				return err
			}
			for j := range perSite {
				sn := fmt.Sprintf("BD%04d%02d", i, j)
				if _, err := tx.Exec(ctx, `INSERT INTO device (sn, name, model_id, site_id, customer_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
					sn, "Charger "+sn, o.ModelID, site, o.CustomerA, now, now); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	// the burst: every charger starts a session, in one transaction
	startBurst = func() {
		err := d.InTx(ctx, func(tx *db.Tx) error {
			_, err := tx.Exec(ctx, `INSERT INTO device_transaction (device_id, connector_id, id_tag, started_at, site_id, customer_id)
			SELECT id, 1, 'TAG', ?, site_id, customer_id FROM device WHERE model_id = ?`, now, o.ModelID)
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	if burst {
		startBurst()
	}
	return sites, startBurst
}

func benchBurst(b *testing.B, d *db.DB) {
	ctx := context.Background()
	sites, _ := seedBurst(b, d, true)
	const nSites, perSite = 500, 20
	s := New(d, nil, Options{Node: "bench", LeaseTTL: time.Hour})
	if err := s.renewLeases(ctx); err != nil {
		b.Fatal(err)
	}
	if n := len(s.owned); n != nSites {
		b.Fatalf("holds %d sites", n)
	}
	var total time.Duration
	for b.Loop() {
		b.StopTimer()
		if _, err := d.Exec(ctx, `DELETE FROM power_allocation`); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		start := time.Now()
		if err := s.planSites(ctx, sites); err != nil {
			b.Fatal(err)
		}
		total += time.Since(start)
	}
	if n := testutil.Count(b, d, `SELECT COUNT(*) FROM power_allocation`); n != nSites*perSite {
		b.Fatalf("%d allocations", n)
	}
	b.ReportMetric(float64(total.Milliseconds())/float64(b.N), "ms/round")
}

// BenchmarkBurstToPlan: the running manager (its lease, change detection every Tick, planning)
// over 500 sites of 20 chargers; one op is a burst of 10,000 session starts committed at once,
// timed until every session's allocation is stored (detection + planning + writing). Sessions
// are ended and the plan emptied between ops, outside the timing.
func BenchmarkBurstToPlan(b *testing.B) {
	b.Run("sqlite", func(b *testing.B) { benchBurstToPlan(b, testutil.OpenSQLite(b)) })
	if os.Getenv("CHARGEOPS_TEST_PG") != "" {
		b.Run("postgres", func(b *testing.B) { benchBurstToPlan(b, testutil.OpenPostgres(b)) })
	}
}

func benchBurstToPlan(b *testing.B, d *db.DB) {
	ctx := context.Background()
	_, burst := seedBurst(b, d, false)
	const want = 500 * 20
	s := New(d, nil, Options{Node: "bench"})
	s.Start(ctx)
	defer s.Stop()
	deadline := time.Now().Add(30 * time.Second)
	for s.ownedCount() < 500 {
		if time.Now().After(deadline) {
			b.Fatal("leases not taken")
		}
		time.Sleep(20 * time.Millisecond)
	}
	var total, worst time.Duration
	for b.Loop() {
		b.StopTimer()
		if _, err := d.Exec(ctx, `DELETE FROM device_transaction`); err != nil {
			b.Fatal(err)
		}
		waitCount(b, d, 0)
		b.StartTimer()
		start := time.Now()
		burst()
		waitCount(b, d, want)
		took := time.Since(start)
		total += took
		worst = max(worst, took)
	}
	b.ReportMetric(float64(total.Milliseconds())/float64(b.N), "ms/burst")
	b.ReportMetric(float64(worst.Milliseconds()), "ms/worst")
}

// waitCount waits until the plan holds n allocations (at most 30 s).
func waitCount(b *testing.B, d *db.DB, n int) {
	b.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for testutil.Count(b, d, `SELECT COUNT(*) FROM power_allocation`) != n {
		if time.Now().After(deadline) {
			b.Fatalf("plan never held %d allocations", n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func (s *Service) ownedCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.owned)
}

// BenchmarkDetect: one change-detection look (what every Tick costs the planning node) with
// 10,000 open sessions in 500 planned sites.
func BenchmarkDetect(b *testing.B) {
	b.Run("sqlite", func(b *testing.B) { benchDetect(b, testutil.OpenSQLite(b)) })
	if os.Getenv("CHARGEOPS_TEST_PG") != "" {
		b.Run("postgres", func(b *testing.B) { benchDetect(b, testutil.OpenPostgres(b)) })
	}
}

func benchDetect(b *testing.B, d *db.DB) {
	ctx := context.Background()
	seedBurst(b, d, true)
	s := New(d, nil, Options{Node: "bench", LeaseTTL: time.Hour})
	if err := s.renewLeases(ctx); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if err := s.detect(ctx); err != nil {
			b.Fatal(err)
		}
	}
}
