package app_test

import (
	"context"
	"syscall"
	"testing"
	"time"

	"chargeops/internal/db"
	"chargeops/internal/fleet/fleettest"
	"chargeops/internal/testutil"
)

// TestPlanningNodeKilledMovesItsSite: two server processes on one PostgreSQL database; the one
// planning a site (holding its lease, docs/smart-charging.md "The lease") is killed with
// SIGKILL, so it gives nothing up; the other takes the site within the lease's life and plans it.
func TestPlanningNodeKilledMovesItsSite(t *testing.T) {
	testutil.ForEachDBAt(t, func(t *testing.T, d *db.DB, at testutil.Where) {
		if at.DSN == "" {
			t.Skip("several nodes share a PostgreSQL database")
		}
		ctx := context.Background()
		o := fleettest.Seed(t, d)
		dev := fleettest.Device(t, d, o, o.CustomerA, o.SiteA, "LEASE-0001")
		now := time.Now().UnixMilli()
		for _, q := range []struct {
			sql  string
			args []any
		}{
			{`INSERT INTO site_power (site_id, enabled, limit_kw, min_a, updated_at) VALUES (?, 1, 50, 6, ?)`, []any{o.SiteA, now}},
			{`INSERT INTO device_transaction (device_id, connector_id, id_tag, started_at, site_id, customer_id) VALUES (?, 1, 'TAG', ?, ?, ?)`, []any{dev, now, o.SiteA, o.CustomerA}},
		} {
			if _, err := d.Exec(ctx, q.sql, q.args...); err != nil {
				t.Fatal(err)
			}
		}
		const lease = 2 * time.Second
		holder := func() (string, int64) {
			var node string
			var until int64
			err := d.QueryRow(ctx, `SELECT node, expires_at FROM site_power_lease WHERE site_id = ?`, o.SiteA).Scan(&node, &until)
			if err != nil && !db.NotFound(err) {
				t.Fatal(err)
			}
			return node, until
		}
		waitUntil := func(what string, within time.Duration, cond func() bool) time.Duration {
			t.Helper()
			start := time.Now()
			for !cond() {
				if time.Since(start) > within {
					t.Fatalf("%s: not within %s", what, within)
				}
				time.Sleep(50 * time.Millisecond)
			}
			return time.Since(start)
		}
		first := startChild(t, at, childLease+"="+lease.String())
		var planner string
		waitUntil("the first node plans the site", 20*time.Second, func() bool {
			planner, _ = holder()
			return planner != "" && testutil.Count(t, d, `SELECT COUNT(*) FROM power_allocation WHERE site_id = ?`, o.SiteA) == 1
		})
		startChild(t, at, childLease+"="+lease.String())
		time.Sleep(2 * lease) // the second node is up and looking; the first still renews
		if n, _ := holder(); n != planner {
			t.Fatalf("the lease moved from %s to %s while its node was alive", planner, n)
		}
		var plannedBefore int64
		if err := d.QueryRow(ctx, `SELECT updated_at FROM power_allocation WHERE site_id = ?`, o.SiteA).Scan(&plannedBefore); err != nil {
			t.Fatal(err)
		}
		if err := first.cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		<-first.exited
		took := waitUntil("another node takes the site", 3*lease+2*time.Second, func() bool {
			n, until := holder()
			return n != "" && n != planner && until > time.Now().UnixMilli()
		})
		// a change the killed node can no longer see: the new planner plans it
		if _, err := d.Exec(ctx, `UPDATE site_power SET limit_kw = 20, updated_at = ? WHERE site_id = ?`, time.Now().UnixMilli(), o.SiteA); err != nil {
			t.Fatal(err)
		}
		waitUntil("the new planner plans the site", 10*time.Second, func() bool {
			var limit float64
			var at int64
			if err := d.QueryRow(ctx, `SELECT limit_a, updated_at FROM power_allocation WHERE site_id = ?`, o.SiteA).Scan(&limit, &at); err != nil {
				t.Fatal(err)
			}
			return at > plannedBefore && limit > 0 && limit <= 20000/(230*3.0)
		})
		t.Logf("site moved %s after the planning node was killed (lease %s)", took.Round(10*time.Millisecond), lease)
	})
}
