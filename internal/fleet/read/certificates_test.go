package read_test

import (
	"context"
	"testing"

	"chargeops/internal/access"
	"chargeops/internal/db"
	"chargeops/internal/fleet"
	"chargeops/internal/fleet/fleettest"
	"chargeops/internal/fleet/read"
	"chargeops/internal/testutil"
)

// TestFleetCertificates: each device's newest installed certificate, soonest expiry first; the
// expiry filter and the caller's scope apply.
func TestFleetCertificates(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		org := fleettest.Seed(t, d)
		const day = int64(24 * 60 * 60 * 1000)
		now := int64(1_800_000_000_000)
		cert := func(dev int64, notAfter int64, state int) {
			t.Helper()
			if _, err := d.Exec(ctx, `INSERT INTO device_certificate (device_id, serial, subject, issuer, not_before, not_after, fingerprint, state, created_at, updated_at)
				VALUES (?, 'AB', 'CN=x', 'CN=ca', 0, ?, 'f', ?, 0, 0)`, dev, notAfter, state); err != nil {
				t.Fatal(err)
			}
		}
		soon := fleettest.Device(t, d, org, org.CustomerA, org.SiteA, "FC-SOON")
		renewed := fleettest.Device(t, d, org, org.CustomerA, org.SiteA, "FC-RENEWED")
		other := fleettest.Device(t, d, org, org.CustomerB, org.SiteB, "FC-OTHER")
		cert(soon, now+10*day, fleet.CertInstalled)
		cert(renewed, now+5*day, fleet.CertInstalled)   // the old one
		cert(renewed, now+300*day, fleet.CertInstalled) // renewed: the one that counts
		cert(renewed, now+2*day, fleet.CertRejected)    // refused by the charger: not its certificate
		cert(other, now+1*day, fleet.CertInstalled)
		s := read.New(d, read.Options{})
		list := func(t *testing.T, p *access.Principal, in read.FleetCertificatesInput) []string {
			t.Helper()
			in.Now = now
			l, err := s.FleetCertificates(ctx, p, in)
			if err != nil {
				t.Fatal(err)
			}
			var sns []string
			for _, c := range l.List {
				sns = append(sns, c.SN)
			}
			if int(l.Total) != len(sns) {
				t.Fatalf("total %d for %d rows", l.Total, len(sns))
			}
			return sns
		}
		root := &access.Principal{Root: true, Scope: access.FullScope()}
		customerA := &access.Principal{Scope: access.Scope{CustomerIDs: []int64{org.CustomerA}, AllSites: true}}
		t.Run("newest installed per device, soonest expiry first", func(t *testing.T) {
			if got := list(t, root, read.FleetCertificatesInput{}); len(got) != 3 || got[0] != "FC-OTHER" || got[1] != "FC-SOON" || got[2] != "FC-RENEWED" {
				t.Fatalf("got %v", got)
			}
		})
		t.Run("expiring within 30 days leaves the renewed device out", func(t *testing.T) {
			if got := list(t, root, read.FleetCertificatesInput{ExpiringWithinDays: 30}); len(got) != 2 || got[1] != "FC-SOON" {
				t.Fatalf("got %v", got)
			}
		})
		t.Run("another customer's device is not listed", func(t *testing.T) {
			if got := list(t, customerA, read.FleetCertificatesInput{}); len(got) != 2 || got[0] != "FC-SOON" {
				t.Fatalf("got %v", got)
			}
		})
		t.Run("a negative window is refused, naming the field", func(t *testing.T) {
			if _, err := s.FleetCertificates(ctx, root, read.FleetCertificatesInput{ExpiringWithinDays: -1}); err == nil {
				t.Fatal("accepted")
			}
		})
	})
}
