package device_test

import (
	"context"
	"errors"
	"testing"

	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/device"
	"chargeops/internal/devstate"
	"chargeops/internal/fleet/fleettest"
	"chargeops/internal/testutil"
)

// An operator sets the OCPP protocol a device's charger is admitted with (docs/ocpp201.md):
// auto, 1.6 or 2.0.1 only, in scope only; the detail shows it.
func TestProtocolSetting(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		o := fleettest.Seed(t, d)
		a := fleettest.Device(t, d, o, o.CustomerA, o.SiteA, "PROTO-A1")
		b := fleettest.Device(t, d, o, o.CustomerB, o.SiteB, "PROTO-B1")
		svc := device.NewService(d)
		n := &notes{}
		svc.SetNotifier(n)
		callerA := testutil.Customers(o.CustomerA)
		protocol := func(t *testing.T, id int64) string {
			t.Helper()
			dev, err := svc.Get(ctx, testutil.Root(), id)
			if err != nil {
				t.Fatal(err)
			}
			return dev.Protocol
		}

		t.Run("a new device is on auto", func(t *testing.T) {
			if got := protocol(t, a); got != "" {
				t.Fatalf("protocol %q, want auto", got)
			}
		})
		t.Run("set to each, back to auto; the fleet hears of each", func(t *testing.T) {
			for _, p := range []string{devstate.ProtocolOCPP201, devstate.ProtocolOCPP16, ""} {
				if err := svc.SetProtocol(ctx, callerA, device.ProtocolInput{ID: a, Protocol: p}); err != nil {
					t.Fatal(err)
				}
				if got := protocol(t, a); got != p {
					t.Fatalf("protocol %q, want %q", got, p)
				}
			}
			if changed, _ := n.take(); len(changed) != 3 {
				t.Fatalf("fleet told of %v, want three changes", changed)
			}
		})
		t.Run("a device of another customer: not found, unchanged", func(t *testing.T) {
			err := svc.SetProtocol(ctx, callerA, device.ProtocolInput{ID: b, Protocol: devstate.ProtocolOCPP16})
			if !errors.Is(err, apperr.ErrNotFound) {
				t.Fatalf("got %v, want not found", err)
			}
			if got := protocol(t, b); got != "" {
				t.Fatalf("protocol %q changed out of scope", got)
			}
		})
		if err := svc.SetProtocol(ctx, callerA, device.ProtocolInput{ID: a, Protocol: devstate.ProtocolOCPP201}); err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			name, field string
			in          device.ProtocolInput
		}{
			{"an unknown protocol", "protocol", device.ProtocolInput{ID: a, Protocol: "ocpp2.1"}},
			{"a protocol in capitals", "protocol", device.ProtocolInput{ID: a, Protocol: "OCPP1.6"}},
			{"no device", "id", device.ProtocolInput{Protocol: devstate.ProtocolOCPP16}},
		} {
			t.Run(c.name+" is refused naming "+c.field, func(t *testing.T) {
				err := svc.SetProtocol(ctx, callerA, c.in)
				e, ok := apperr.As(err)
				if !ok || e.Key != "err.invalid" || e.Args["field"] != c.field {
					t.Fatalf("got %v, want err.invalid naming %q", err, c.field)
				}
				if got := protocol(t, a); got != devstate.ProtocolOCPP201 {
					t.Fatalf("protocol %q after a refused change", got)
				}
			})
		}
	})
}
