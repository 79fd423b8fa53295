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

// An operator sets a device's security profile (docs/security-profiles.md): up or down, in
// scope only, 0-3 only; the detail shows it and whether the device has a key.
func TestSecurityProfile(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		o := fleettest.Seed(t, d)
		a := fleettest.Device(t, d, o, o.CustomerA, o.SiteA, "SEC-A1")
		b := fleettest.Device(t, d, o, o.CustomerB, o.SiteB, "SEC-B1")
		svc := device.NewService(d)
		n := &notes{}
		svc.SetNotifier(n)
		callerA := testutil.Customers(o.CustomerA)
		profile := func(t *testing.T, id int64) int {
			t.Helper()
			dev, err := svc.Get(ctx, testutil.Root(), id)
			if err != nil {
				t.Fatal(err)
			}
			return dev.SecurityProfile
		}

		t.Run("a new device is at profile 0 without a key", func(t *testing.T) {
			dev, err := svc.Get(ctx, callerA, a)
			if err != nil || dev.SecurityProfile != 0 || dev.HasKey {
				t.Fatalf("profile %d, key %v (%v)", dev.SecurityProfile, dev.HasKey, err)
			}
		})
		t.Run("raised, then lowered by an operator; the fleet hears of each", func(t *testing.T) {
			for _, p := range []int{devstate.ProfileCertificate, devstate.ProfileKey} {
				if err := svc.SetSecurityProfile(ctx, callerA, device.SecurityInput{ID: a, SecurityProfile: p}); err != nil {
					t.Fatal(err)
				}
				if got := profile(t, a); got != p {
					t.Fatalf("profile %d, want %d", got, p)
				}
			}
			if changed, _ := n.take(); len(changed) != 2 {
				t.Fatalf("fleet told of %v, want two changes", changed)
			}
		})
		t.Run("a device with a key says so, never the key", func(t *testing.T) {
			fleettest.Secure(t, d, a, "hash-of-a-key", 1)
			if dev, err := svc.Get(ctx, callerA, a); err != nil || !dev.HasKey {
				t.Fatalf("hasKey %v (%v)", dev.HasKey, err)
			}
		})
		t.Run("a device of another customer: not found, unchanged", func(t *testing.T) {
			err := svc.SetSecurityProfile(ctx, callerA, device.SecurityInput{ID: b, SecurityProfile: 3})
			if !errors.Is(err, apperr.ErrNotFound) {
				t.Fatalf("got %v, want not found", err)
			}
			if got := profile(t, b); got != 0 {
				t.Fatalf("profile %d changed out of scope", got)
			}
		})
		for _, c := range []struct {
			name, field string
			in          device.SecurityInput
		}{
			{"a profile below 0", "securityProfile", device.SecurityInput{ID: a, SecurityProfile: -1}},
			{"a profile above 3", "securityProfile", device.SecurityInput{ID: a, SecurityProfile: 4}},
			{"no device", "id", device.SecurityInput{SecurityProfile: 2}},
		} {
			t.Run(c.name+" is refused naming "+c.field, func(t *testing.T) {
				before := profile(t, a)
				err := svc.SetSecurityProfile(ctx, callerA, c.in)
				e, ok := apperr.As(err)
				if !ok || e.Key != "err.invalid" || e.Args["field"] != c.field {
					t.Fatalf("got %v, want err.invalid naming %q", err, c.field)
				}
				if got := profile(t, a); got != before {
					t.Fatalf("profile %d after a refused change, was %d", got, before)
				}
			})
		}
	})
}
