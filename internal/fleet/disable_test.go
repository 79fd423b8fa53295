package fleet_test

import (
	"context"
	"testing"
	"time"

	"chargeops/internal/access"
	"chargeops/internal/db"
	"chargeops/internal/device"
	"chargeops/internal/fleet"
	"chargeops/internal/fleet/fleettest"
	"chargeops/internal/setting"
	"chargeops/internal/testutil"
)

// notifier is app's fleetNotifier: the device register's administrative changes reach the fleet.
type notifier struct{ f *fleet.Service }

func (n notifier) DeviceChanged(ctx context.Context, id int64) { _ = n.f.DeviceChanged(ctx, id) }
func (n notifier) DeviceGone(sn string)                        { n.f.Drop(sn, "disabled or deleted") }

// TestDisableRecordsOfflineEvent: disabling a device records its Offline event (the device
// shows Disabled, which ranks above Offline), whether it was connected or had never been; the
// disconnect of its dropped connection adds no second one; enabled again it stays Offline with
// the event open until it connects, which ends it.
func TestDisableRecordsOfflineEvent(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		o := fleettest.Seed(t, d)
		s, err := fleet.New(ctx, d, setting.NewStore(d), fleet.Options{DataDir: t.TempDir(), Location: time.UTC})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		devices := device.NewService(d)
		devices.SetNotifier(notifier{s})
		scope := &access.Principal{Scope: access.FullScope()}
		events := func(t *testing.T, id int64) (open, all int) {
			t.Helper()
			if err := d.QueryRow(ctx, `SELECT COUNT(CASE WHEN status = ? THEN 1 END), COUNT(*) FROM device_event WHERE device_id = ? AND kind = ?`,
				fleet.EventOpen, id, fleet.KindOffline).Scan(&open, &all); err != nil {
				t.Fatal(err)
			}
			return open, all
		}
		status := func(t *testing.T, id int64) int {
			t.Helper()
			var st int
			if err := d.QueryRow(ctx, `SELECT status FROM device WHERE id = ?`, id).Scan(&st); err != nil {
				t.Fatal(err)
			}
			return st
		}

		t.Run("a device that never connected", func(t *testing.T) {
			id := fleettest.Device(t, d, o, o.CustomerA, o.SiteA, "DIS-NEVER")
			if err := devices.SetEnabled(ctx, scope, []int64{id}, false); err != nil {
				t.Fatal(err)
			}
			if open, all := events(t, id); open != 1 || all != 1 {
				t.Fatalf("after disable: %d open of %d offline events, want 1 of 1", open, all)
			}
			if st := status(t, id); st != fleet.StatusDisabled {
				t.Fatalf("status %d, want Disabled (%d)", st, fleet.StatusDisabled)
			}
			var site int64
			if err := d.QueryRow(ctx, `SELECT site_id FROM device_event WHERE device_id = ?`, id).Scan(&site); err != nil || site != o.SiteA {
				t.Fatalf("event's site %d %v, want %d", site, err, o.SiteA)
			}
		})
		t.Run("a connected device: one event, its dropped connection adds none", func(t *testing.T) {
			id := fleettest.Device(t, d, o, o.CustomerA, o.SiteA, "DIS-LIVE")
			dev, _ := s.DeviceBySN(ctx, "DIS-LIVE")
			if err := s.Connected(ctx, dev, "conn-live", "127.0.0.1:1", "ocpp1.6"); err != nil {
				t.Fatal(err)
			}
			if open, _ := events(t, id); open != 0 {
				t.Fatalf("connected with %d open offline events", open)
			}
			if err := devices.SetEnabled(ctx, scope, []int64{id}, false); err != nil {
				t.Fatal(err)
			}
			s.Disconnected(ctx, dev, "conn-live") // what the gateway does once the socket is closed
			if open, all := events(t, id); open != 1 || all != 1 {
				t.Fatalf("after disable and disconnect: %d open of %d offline events, want 1 of 1", open, all)
			}
			if st := status(t, id); st != fleet.StatusDisabled {
				t.Fatalf("status %d, want Disabled", st)
			}
			t.Run("enabled again: Offline, the event open until it connects", func(t *testing.T) {
				if err := devices.SetEnabled(ctx, scope, []int64{id}, true); err != nil {
					t.Fatal(err)
				}
				if open, all := events(t, id); open != 1 || all != 1 {
					t.Fatalf("after enable: %d open of %d, want 1 of 1", open, all)
				}
				if st := status(t, id); st != fleet.StatusOffline {
					t.Fatalf("status %d, want Offline", st)
				}
				dev, _ := s.DeviceBySN(ctx, "DIS-LIVE")
				if err := s.Connected(ctx, dev, "conn-back", "127.0.0.1:2", "ocpp1.6"); err != nil {
					t.Fatal(err)
				}
				if open, all := events(t, id); open != 0 || all != 1 {
					t.Fatalf("after connecting: %d open of %d, want 0 of 1", open, all)
				}
			})
		})
	})
}
