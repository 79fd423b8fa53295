package read_test

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/fleet/fleettest"
	"chargeops/internal/fleet/read"
	"chargeops/internal/testutil"
)

// TestRuntimePlugs: an OCPP 2.0.1 device's connectors are its EVSEs, each with its own
// connectors' statuses (device_evse_connector) in order; an OCPP 1.6 device's have none (an
// empty list, never null); another customer's device is not found.
func TestRuntimePlugs(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		o := fleettest.Seed(t, d)
		v201 := fleettest.Device(t, d, o, o.CustomerA, o.SiteA, "EVSE-201")
		v16 := fleettest.Device(t, d, o, o.CustomerA, o.SiteA, "EVSE-16")
		other := fleettest.Device(t, d, o, o.CustomerB, o.SiteB, "EVSE-B")
		exec := func(q string, args ...any) {
			t.Helper()
			if _, err := d.Exec(ctx, q, args...); err != nil {
				t.Fatal(err)
			}
		}
		for _, c := range []struct {
			dev       int64
			connector int
			status    string
		}{{v201, 2, "Occupied"}, {v201, 1, "Available"}, {v16, 1, "Charging"}, {v16, 2, "Available"}, {other, 1, "Available"}} {
			exec(`INSERT INTO device_connector (device_id, connector_id, status, updated_at) VALUES (?, ?, ?, 1)`, c.dev, c.connector, c.status)
		}
		// stored out of order; EVSE 3 has a plug but no status of its own yet
		for _, p := range []struct {
			dev             int64
			evse, connector int
			status          string
			updatedAt       int64
		}{{v201, 2, 1, "Occupied", 30}, {v201, 1, 2, "Unavailable", 20}, {v201, 1, 1, "Available", 10}, {v201, 3, 1, "Faulted", 40}, {other, 1, 1, "Reserved", 50}} {
			exec(`INSERT INTO device_evse_connector (device_id, evse_id, connector_id, status, updated_at) VALUES (?, ?, ?, ?, ?)`, p.dev, p.evse, p.connector, p.status, p.updatedAt)
		}
		s := read.New(d, read.Options{})
		callerA := testutil.Customers(o.CustomerA)

		t.Run("a 2.0.1 device's EVSEs list their connectors", func(t *testing.T) {
			v, err := s.Runtime(ctx, callerA, v201)
			if err != nil {
				t.Fatal(err)
			}
			type evse struct {
				ID     int
				Status string
				Plugs  []read.PlugView
			}
			var got []evse
			for _, c := range v.Connectors {
				got = append(got, evse{c.ConnectorID, c.Status, c.Plugs})
			}
			want := []evse{
				{1, "Available", []read.PlugView{{ConnectorID: 1, Status: "Available", UpdatedAt: 10}, {ConnectorID: 2, Status: "Unavailable", UpdatedAt: 20}}},
				{2, "Occupied", []read.PlugView{{ConnectorID: 1, Status: "Occupied", UpdatedAt: 30}}},
				{3, "", []read.PlugView{{ConnectorID: 1, Status: "Faulted", UpdatedAt: 40}}},
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("EVSEs\n got %+v\nwant %+v", got, want)
			}
		})
		t.Run("a 1.6 device's connectors have no plugs", func(t *testing.T) {
			v, err := s.Runtime(ctx, callerA, v16)
			if err != nil {
				t.Fatal(err)
			}
			if len(v.Connectors) != 2 || v.Connectors[0].ConnectorID != 1 || v.Connectors[1].ConnectorID != 2 {
				t.Fatalf("connectors %+v", v.Connectors)
			}
			for _, c := range v.Connectors {
				if c.Plugs == nil || len(c.Plugs) != 0 {
					t.Fatalf("connector %d plugs %#v, want an empty list", c.ConnectorID, c.Plugs)
				}
			}
		})
		t.Run("another customer's device is not found", func(t *testing.T) {
			if _, err := s.Runtime(ctx, callerA, other); !errors.Is(err, apperr.ErrNotFound) {
				t.Fatalf("got %v, want not found", err)
			}
		})
	})
}
