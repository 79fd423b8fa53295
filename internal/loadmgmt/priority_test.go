package loadmgmt

import (
	"context"
	"testing"

	"chargeops/internal/db"
	"chargeops/internal/testutil"
)

// TestManagerPriorities: a token's priority and a charger's both put a session first; the
// higher of the two counts. A 40 A site (per phase) and three three-phase sessions of 32 A
// maximum: the prioritised ones are planned first, the others share what is left.
func TestManagerPriorities(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		o := seed(t, d)
		now := db.NowMS()
		plain := addDevice(t, d, o, o.CustomerA, o.SiteA, "PRIO-PLAIN", true)
		byToken := addDevice(t, d, o, o.CustomerA, o.SiteA, "PRIO-TOKEN", true)
		byCharger := addDevice(t, d, o, o.CustomerA, o.SiteB, "PRIO-CHARGER", true)
		if _, err := d.Exec(ctx, `INSERT INTO token (customer_id, id_tag, tag_key, name, status, priority, created_at, updated_at)
			VALUES (?, 'VIP1', 'VIP1', 'VIP', 0, 5, ?, ?)`, o.CustomerA, now, now); err != nil {
			t.Fatal(err)
		}
		if _, err := d.Exec(ctx, `INSERT INTO device_power (device_id, phases, phase, min_a, max_a, priority, updated_at) VALUES (?, 3, 1, 6, 32, 3, ?)`, byCharger, now); err != nil {
			t.Fatal(err)
		}
		enable(t, d, o.SiteA, 0, 40)
		enable(t, d, o.SiteB, 0, 40)
		// the plain session starts first: without priorities it would be served first
		startSession(t, d, plain, o.CustomerA, o.SiteA, now-3000)
		if _, err := d.Exec(ctx, `INSERT INTO device_transaction (device_id, connector_id, id_tag, started_at, site_id, customer_id) VALUES (?, 1, 'vip1', ?, ?, ?)`,
			byToken, now-1000, o.SiteA, o.CustomerA); err != nil {
			t.Fatal(err)
		}
		plainB := addDevice(t, d, o, o.CustomerB, o.SiteB, "PRIO-PLAIN-B", true)
		startSession(t, d, plainB, o.CustomerB, o.SiteB, now-3000)
		startSession(t, d, byCharger, o.CustomerB, o.SiteB, now-1000)
		s := New(d, newFake(), fastOptions("prio"))
		s.Start(ctx)
		defer s.Stop()
		testutil.Eventually(t, "both sites planned", func() bool {
			a, b := rowsOf(t, d, o.SiteA), rowsOf(t, d, o.SiteB)
			return len(a) == 2 && len(b) == 2
		})
		for _, c := range []struct {
			name        string
			site        int64
			first, rest int64
		}{
			{"a token's priority (the idTag matched without case)", o.SiteA, byToken, plain},
			{"a charger's priority", o.SiteB, byCharger, plainB},
		} {
			t.Run(c.name, func(t *testing.T) {
				rows := rowsOf(t, d, c.site)
				first, rest := rows[akey{c.first, 1}], rows[akey{c.rest, 1}]
				if first.limitA != 32 || rest.limitA != 8 {
					t.Fatalf("prioritised %.1f A, other %.1f A; want 32 and 8", first.limitA, rest.limitA)
				}
			})
		}
	})
}
