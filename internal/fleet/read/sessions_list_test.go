package read_test

import (
	"context"
	"testing"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/fleet/fleettest"
	"chargeops/internal/fleet/read"
	"chargeops/internal/testutil"
)

// TestChargingSessionsPageByCursorWithinScope: the OpenAPI's charging sessions, newest first, a
// keyset walk that keeps sessions of the same start apart by id, limited to the caller's scope.
func TestChargingSessionsPageByCursorWithinScope(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		o := fleettest.Seed(t, d)
		a := fleettest.Device(t, d, o, o.CustomerA, o.SiteA, "SESS-A")
		b := fleettest.Device(t, d, o, o.CustomerB, o.SiteB, "SESS-B")
		add := func(dev, customer, site int64, connector int, at int64) {
			if _, err := d.Exec(ctx, `INSERT INTO device_transaction (device_id, customer_id, site_id, connector_id, id_tag, meter_start, started_at)
				VALUES (?, ?, ?, ?, 'TAG', 0, ?)`, dev, customer, site, connector, at); err != nil {
				t.Fatal(err)
			}
		}
		// A: five sessions, two of them starting in the same millisecond; B: one.
		for i, at := range []int64{1000, 2000, 3000, 3000, 4000} {
			add(a, o.CustomerA, o.SiteA, i+1, at)
		}
		add(b, o.CustomerB, o.SiteB, 1, 5000)
		s := read.New(d, read.Options{})
		customerA := &access.Principal{Scope: access.Scope{CustomerIDs: []int64{o.CustomerA}, AllSites: true}}

		var starts []int64
		seen := map[int64]bool{}
		in := read.SessionListInput{Size: 2}
		for page := 0; page < 5; page++ {
			l, err := s.Sessions(ctx, customerA, in)
			if err != nil {
				t.Fatal(err)
			}
			for _, v := range l.List {
				if v.DeviceID != a || seen[v.ID] {
					t.Fatalf("page %d: %+v (another customer's or repeated)", page, v)
				}
				seen[v.ID] = true
				starts = append(starts, v.StartedAt)
			}
			if l.Next == "" {
				break
			}
			in.Cursor = l.Next
		}
		if len(starts) != 5 || starts[0] != 4000 || starts[4] != 1000 {
			t.Fatalf("walked %v, want the five sessions of A newest first", starts)
		}
		for _, bad := range []read.SessionListInput{{Cursor: "1000.5"}, {Size: 101}} {
			_, err := s.Sessions(ctx, customerA, bad)
			if e, ok := apperr.As(err); !ok || e.Code != apperr.Invalid {
				t.Errorf("%+v: %v, want invalid", bad, err)
			}
		}
	})
}
